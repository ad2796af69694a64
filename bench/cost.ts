/**
 * What each operation costs in the units Cloudflare bills, counted by the Worker itself
 * (worker/src/lib/meter.ts, read at /__dev/meters under `wrangler dev`), and the price of a
 * million proofs from the published prices. Counts, not timings: the same on every run.
 *   node bench/cost.ts [sessions for the storage figures]
 * The storage figures are measured over at least 1,000 sessions: over fewer, a shard file's
 * growth by whole 4 KiB pages is mostly rounding.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Count, Meters } from "../worker/src/lib/meter.ts";
import {
  loop,
  MANY_USERS_VARS,
  machine,
  scriptArgs,
  sleep,
  table,
  userAddress,
  writeSection,
} from "./lib.ts";
import {
  LIFE_CLOCK,
  LIFE_COLUMNS,
  type LifeClock,
  OBJECT_KEPT_MINUTES,
  RETENTION_DAYS,
  round,
  runLifecycle,
} from "./lifecycle.ts";
import { type LifeUnits, lifecycleBill, logSettings } from "./prices.ts";
import { COLUMNS, proofRig } from "./rig.ts";

/**
 * Published prices (Workers Paid, beyond what the plan includes), each from its page:
 * Workers https://developers.cloudflare.com/workers/platform/pricing/ ($0.30 / million requests);
 * Durable Objects https://developers.cloudflare.com/durable-objects/platform/pricing/ ($0.15 /
 * million requests, alarm invocations included; SQLite storage $1.00 / million rows written,
 * $0.001 / million rows read); D1 https://developers.cloudflare.com/d1/platform/pricing/ ($1.00 /
 * million rows written, each setAlarm one; $0.001 / million rows read); Queues
 * https://developers.cloudflare.com/queues/platform/pricing/ ($0.40 / million operations, a
 * message being written, read and deleted: 3).
 */
export const PRICES_PER_MILLION: Record<Count, number> = {
  workerInvocations: 0.3,
  durableObjectRequests: 0.15,
  durableObjectRowsRead: 0.001,
  durableObjectRowsWritten: 1.0,
  d1RowsRead: 0.001,
  d1RowsWritten: 1.0,
  d1WriteTransactions: 0,
  queueMessages: 0.4 * 3,
  alarmsSet: 1.0,
  logLines: 0,
  durableObjectActiveMs: 0,
};

export const priceOf = (counts: Meters) =>
  (Object.entries(PRICES_PER_MILLION) as [Count, number][]).reduce(
    (sum, [name, price]) => sum + counts[name] * price,
    0,
  );

/** Until `done()`, asked every 100 ms for at most a minute. */
const EVERY_EVENT_PROOF = "one proof with README's webhook (every event: 3 deliveries)";

async function until(done: () => boolean) {
  for (const deadline = Date.now() + 60_000; !done(); await sleep(100))
    if (Date.now() > deadline) throw new Error("gave up waiting");
}

/** Sessions the storage figure is measured over at full size, and the lifecycle's proofs. */
const STORAGE_SESSIONS = 1_000;
const LIFECYCLE_PROOFS = 10;
/** Objects whose storage is read for the object's bytes a session (each one request). */
const OBJECT_BYTES_SAMPLE = 50;
/** Polling instead of a webhook: an integrator's GET every this many seconds, for so long. */
const POLL_EVERY_SECONDS = 5;
const POLL_FOR_SECONDS = 60;

/**
 * Dollars a million times `counts`, every line of a proof's bill but the timings and storage
 * (CPU, bytes kept): requests, rows, queue messages, log events and the objects' duration.
 */
function billOf(counts: Meters) {
  const units: LifeUnits = {
    ...counts,
    cpuMs: 0,
    d1Bytes: 0,
    retentionDays: RETENTION_DAYS,
    objectBytes: 0,
    objectKeptMinutes: OBJECT_KEPT_MINUTES,
  };
  return lifecycleBill(units).total;
}

/**
 * The bench. `storageSessions` below STORAGE_SESSIONS and a shorter `life` clock are for the
 * smoke run, which writes nothing: the published figures are made with the defaults.
 */
export async function runCostBench(
  storageSessions = STORAGE_SESSIONS,
  write = true,
  {
    lifecycleProofs = LIFECYCLE_PROOFS,
    life = LIFE_CLOCK,
  }: { lifecycleProofs?: number; life?: LifeClock } = {},
) {
  // A smoke run (writing nothing) runs the lifecycle beside the rest: its figures are not
  // published, and most of its time is spent waiting for its clock.
  const besides = write ? null : runLifecycle(lifecycleProofs, undefined, life);
  besides?.catch(() => undefined);
  const rig = await proofRig(MANY_USERS_VARS);
  const { worker, receiver, api, ssh, sign, measure, stop } = rig;
  const rows: { name: string; counts: Meters }[] = [];
  try {
    // Warm: the isolate, the cached API key and the rate limiter's grants are not per operation.
    await api("GET", "/auth/info/");
    const hook = await api("POST", "/webhooks/", {
      url: `${receiver.url}/ok/cost`,
      events: ["status_changed"],
    });
    let session: { id: string; connection_identifier: string } = {
      id: "",
      connection_identifier: "",
    };
    rows.push({
      name: "API create",
      counts: await measure(async () => {
        session = await api("POST", "/ssh/collect/sessions/", { multi_connection: true });
      }),
    });
    rows.push({
      name: "GET one",
      counts: await measure(() => api("GET", `/ssh/collect/sessions/${session.id}/`)),
    });
    rows.push({ name: "list", counts: await measure(() => api("GET", "/ssh/collect/sessions/")) });
    rows.push({ name: "event log", counts: await measure(() => api("GET", "/events/")) });
    rows.push({
      name: "PATCH",
      counts: await measure(() =>
        api("PATCH", `/ssh/collect/sessions/${session.id}/`, { external_id: "cost" }),
      ),
    });
    rows.push({
      name: "SSH proof (open + finish)",
      counts: await measure(async () => ssh(session.connection_identifier)),
    });
    rows.push({
      name: "complete (+ its webhook delivery)",
      counts: await measure(() => api("POST", `/ssh/collect/sessions/${session.id}/complete/`)),
    });
    const signing = await api("POST", "/ssh/collect/sessions/", {});
    rows.push({
      name: "signature proof",
      counts: await measure(() => sign(signing.signature_challenge, signing.signature_url)),
    });
    rows.push({
      name: "one webhook delivery (POST /test/)",
      counts: await measure(() => api("POST", `/webhooks/${hook.id}/test/`)),
    });
    const page = await api("POST", "/ssh/collect/sessions/", {});
    rows.push({
      name: "proof page",
      counts: await measure(async () =>
        (await fetch(`${worker.url}/p/${page.connection_identifier}`)).text(),
      ),
    });
    // One proof as an integrator pays for it: create, the SSH proof, GET (and the webhooks').
    const oneProof = async () => {
      const proof = await api("POST", "/ssh/collect/sessions/", {});
      ssh(proof.connection_identifier);
      await api("GET", `/ssh/collect/sessions/${proof.id}/`);
    };
    rows.push({
      name: "**one proof: create + SSH proof + GET + one webhook**",
      counts: await measure(oneProof),
    });

    const proof = rows.at(-1)?.counts as Meters;

    // What integrators commonly add to a proof, each measured as one more operation. The
    // project's first key makes its idempotency object's table and alarm: once, not a create's.
    await api("POST", "/ssh/collect/sessions/", {}, { "idempotency-key": "cost-first" });
    rows.push({
      name: "API create with an `Idempotency-Key`",
      counts: await measure(() =>
        api("POST", "/ssh/collect/sessions/", {}, { "idempotency-key": "cost-create" }),
      ),
    });
    // A receiver that fails once: the proof's delivery attempt answered 500, its retry 200.
    const failing = await api("POST", "/webhooks/", {
      url: `${receiver.url}/fail-times/1/cost-failing`,
      events: ["status_changed"],
      initial_backoff: 1,
    });
    await api("PATCH", `/webhooks/${hook.id}/`, { enabled: false });
    rows.push({
      name: "one proof whose delivery fails once, then succeeds",
      counts: await measure(async () => {
        await oneProof();
        await until(() => receiver.requestsTo("/fail-times/1/cost-failing").length >= 2);
      }),
    });
    await api("DELETE", `/webhooks/${failing.id}/`);
    rows.push({
      name: "one proof with no webhook (create + SSH proof + GET)",
      counts: await measure(oneProof),
    });
    // README's webhook: `{"url": …}`, every event, so three deliveries a proof (new_connection,
    // key_collected, status_changed) where the filtered one above makes one.
    const everyEvent = await api("POST", "/webhooks/", { url: `${receiver.url}/ok/cost-every` });
    rows.push({
      name: EVERY_EVENT_PROOF,
      counts: await measure(async () => {
        await oneProof();
        await until(() => receiver.requestsTo("/ok/cost-every").length >= 3);
      }),
    });
    await api("DELETE", `/webhooks/${everyEvent.id}/`);
    await api("PATCH", `/webhooks/${hook.id}/`, { enabled: true });
    const row = (name: string) => rows.find((one) => one.name === name)?.counts as Meters;
    /** What README's every-event webhook adds to a proof's bill over the filtered one. */
    const everyEventExtra = billOf(row(EVERY_EVENT_PROOF)) - billOf(proof);
    const options = [
      [
        "an `Idempotency-Key` on its create",
        billOf(row("API create with an `Idempotency-Key`")) - billOf(row("API create")),
      ],
      ["the hosted proof page, opened once", billOf(row("proof page"))],
      [
        "README's webhook, every event (3 deliveries), instead of `status_changed` only",
        everyEventExtra,
      ],
      [
        "one failed delivery attempt (retried)",
        billOf(row("one proof whose delivery fails once, then succeeds")) - billOf(proof),
      ],
      [
        `polling instead of a webhook: a GET every ${POLL_EVERY_SECONDS} s for ${POLL_FOR_SECONDS} s`,
        billOf(row("one proof with no webhook (create + SSH proof + GET)")) +
          (POLL_FOR_SECONDS / POLL_EVERY_SECONDS - 1) * billOf(row("GET one")) -
          billOf(proof),
      ],
    ] as const;

    // Bytes a closed session keeps: its object's database, and its share of D1's file — over
    // many sessions, so that the file's growth by whole 4 KiB pages is not mostly rounding.
    const before = await rig.shardBytes();
    const closed: string[] = [];
    await loop(storageSessions, 8, async (i) => {
      const one = await api("POST", "/ssh/collect/sessions/", { external_id: `storage-${i}` });
      const answer = await sign(one.signature_challenge, one.signature_url, userAddress(i));
      if (!answer.ok) throw new Error(`signature proof: ${answer.status} ${await answer.text()}`);
      closed.push(one.id);
    });
    const after = await rig.shardBytes();
    const objectBytes = await Promise.all(
      closed.slice(0, OBJECT_BYTES_SAMPLE).map(
        async (id) =>
          (
            (await (await fetch(`${worker.url}/__dev/sessions/${id}/storage`)).json()) as {
              bytes: number;
            }
          ).bytes,
      ),
    );
    const storage = {
      d1BytesPerSession: Math.round((after - before) / storageSessions),
      objectBytesPerSession: Math.round(
        objectBytes.reduce((a, b) => a + b, 0) / Math.max(1, objectBytes.length),
      ),
    };
    const perMillion = priceOf(proof);
    await stop();
    const lifecycle =
      (await besides) ?? (await runLifecycle(lifecycleProofs, storage.d1BytesPerSession, life));
    const logs = logSettings();
    const markdown = `## 8. Cost: billed units per operation, and a proof's whole life

\`node bench/cost.ts ${storageSessions}\` — every operation once against \`wrangler dev\`, counted by the Worker itself (\`worker/src/lib/meter.ts\`, development only): each count includes everything the operation caused (the push to D1, the queue message, the webhook delivery), measured until the counts stop moving. DO rows are the key-value API's keys and SQL statements' own counters (DDL included); D1 rows are D1's \`meta\`; a D1 write transaction is a write statement or a batch with one. The webhook used here listens to \`status_changed\` only, so a proof makes one delivery.

${table(
  ["Operation", ...COLUMNS.map(([, label]) => label)],
  rows.map(({ name, counts }) => [name, ...COLUMNS.map(([key]) => counts[key])]),
)}

Where one proof's rows written go, statement by statement (each statement's own count; \`kv\` rows are the object's key-value API):

${table(
  ["Statement", "rows written"],
  Object.entries(proof.writtenBy)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([statement, count]) => [`\`${statement.replaceAll("`", "")}\``, count]),
)}

A closed session keeps **${storage.d1BytesPerSession} bytes** in D1 (the shard's file growth over ${storageSessions.toLocaleString("en")} signature proofs, one collected key and one webhook delivery each) and **${storage.objectBytesPerSession} bytes** in its object (mean of the first ${Math.min(storageSessions, OBJECT_BYTES_SAMPLE)}).

### What integrators commonly add

Each priced from the rows above as what it adds to one proof, every line of the bill but CPU and bytes kept (requests, rows, queue messages, Workers Logs events, the objects' duration): an \`Idempotency-Key\` is the create with one less the create without (the project's first key, which makes the table its keys are kept in, was sent before); a failed attempt is the proof whose first delivery attempt the receiver answered 500 (retried a second later, answered 200) less the proof; polling is the proof with no webhook plus its GET every ${POLL_EVERY_SECONDS} s for ${POLL_FOR_SECONDS} s, less the proof with its one delivery. The \`Idempotency-Key\`'s record is deleted 24 hours later by its project's object (one alarm for the oldest), not counted here.

${table(
  ["Added to a proof", "$ a million proofs"],
  options.map(([name, dollars]) => [
    name,
    `${dollars >= 0 ? "+" : "−"}${Math.abs(dollars).toFixed(2)}`,
  ]),
)}

A shard loaded with 30 days of a busy project's history changes a proof's bill by its extra rows read only: bench/history.ts (§17) counts them, loaded against empty in one run, and prices both.

**Per request, a million proofs cost $${perMillion.toFixed(2)}** at the published prices (Workers $0.30 / M requests, DO $0.15 / M requests and $1.00 / M rows written, D1 $1.00 / M rows written, rows read $0.001 / M, Queues $0.40 / M operations × 3 per message), before what the Workers Paid plan includes and excluding CPU time and DO duration, which are timings (prices from [Workers](https://developers.cloudflare.com/workers/platform/pricing/), [Durable Objects](https://developers.cloudflare.com/durable-objects/platform/pricing/), [D1](https://developers.cloudflare.com/d1/platform/pricing/) and [Queues](https://developers.cloudflare.com/queues/platform/pricing/) pricing pages).
### A proof's whole life

\`runLifecycle\` in the same run: ${lifecycleProofs} proofs (each an API create, an SSH proof through the bridge, a GET and one webhook delivery) against a \`wrangler dev\` on a shortened clock (a retirement grace of ${life.graceSeconds} s, sessions created with an ${life.timeoutSeconds} s timeout for the default hour, a retention day of ${life.daySeconds} s); then their objects' retirement (at the alarm each set for its expiry), then the cron's sweep when their 30 (${life.daySeconds}-second) days are over, which must find every one of them still listed and leave none. The cron's cost with nothing to erase, measured before the run's first proof, is taken off the erasure. Counted by the Worker per proof:

${table(["Phase", ...LIFE_COLUMNS.map(([, label]) => label)], lifecycle.phaseRows)}

Priced over the whole life with Workers Logs as wrangler.toml sets it (\`head_sampling_rate\` ${logs.headSamplingRate}, invocation logs ${logs.invocationLogs ? "on" : "off"}), D1 keeping ${round(lifecycle.units.d1Bytes)} bytes a session (measured above over ${storageSessions.toLocaleString("en")} sessions) for 30 days and the object ${round(lifecycle.units.objectBytes)} bytes for ${OBJECT_KEPT_MINUTES} minutes (its expiry's alarm retires it). Duration is each object call's time as its caller saw it and each alarm's run, billed at 128 MB (an upper bound: concurrent requests share it); CPU is workerd's own, local D1 and objects included (an upper bound too).

${table(
  ["Line", "$ a million proofs", "price"],
  [
    ...lifecycle.bill.map((line) => [
      line.name,
      line.perMillion.toFixed(2),
      `[page](${line.page})`,
    ]),
    ["**lifecycle total**", `**${lifecycle.total.toFixed(2)}**`, ""],
  ],
)}

**A million proofs cost $${(lifecycle.total + everyEventExtra).toFixed(2)} over their whole life with the webhook README creates** (every event: three deliveries a proof; the lifecycle above plus what those two more deliveries add, measured above, its per-request lines only), **and $${lifecycle.total.toFixed(2)} with a webhook filtered to \`status_changed\`** (target ≤ $25), before what the Workers Paid plan includes; $${perMillion.toFixed(2)} counted per request as above. Workers Logs moves to Cloudflare Observability pricing on 2026-12-01 (its page says so): the line above is at today's $0.60 a million events.

Machine: ${machine()}.`;
    if (write) writeSection("cost", markdown);
    return { rows, storage, perMillion, lifecycle, markdown };
  } finally {
    await stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [sessions] = args;
  const { markdown } = await runCostBench(Math.max(sessions ?? 0, STORAGE_SESSIONS));
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-cost.md"), markdown);
}
