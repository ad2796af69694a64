/**
 * What each operation costs in the units Cloudflare bills, counted by the Worker itself
 * (worker/src/lib/meter.ts, read at /__dev/meters under `wrangler dev`), and the price of a
 * million proofs from the published prices. Counts, not timings: the same on every run.
 *   node bench/cost.ts [sessions for the storage figures]
 * The storage figures are measured over at least 1,000 sessions: over fewer, a shard file's
 * growth by whole 4 KiB pages is mostly rounding.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCHEDULED_PATH } from "../scripts/local-dev.ts";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { waitForGreeting } from "../test-support/ssh-greeting.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import type { Count, Meters } from "../worker/src/lib/meter.ts";
import {
  cpuSeconds,
  loop,
  MANY_USERS_VARS,
  machine,
  pidsMatching,
  scriptArgs,
  signChallenge,
  spawnBridge,
  table,
  userAddress,
  writeSection,
} from "./lib.ts";
import { type LifeUnits, lifecycleBill, logSettings } from "./prices.ts";

const COLUMNS: [Count, string][] = [
  ["workerInvocations", "Worker invocations"],
  ["durableObjectRequests", "DO requests"],
  ["durableObjectRowsRead", "DO rows read"],
  ["durableObjectRowsWritten", "DO rows written"],
  ["d1RowsRead", "D1 rows read"],
  ["d1RowsWritten", "D1 rows written"],
  ["d1WriteTransactions", "D1 write transactions"],
  ["queueMessages", "Queue messages"],
  ["alarmsSet", "alarms set"],
  ["logLines", "log lines"],
];

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

/**
 * What the cost and storage benches run against: \`wrangler dev\` metering itself, a real bridge,
 * a webhook receiver, a seeded project, and the calls an integrator and a user make.
 */
export async function proofRig(vars: Record<string, string> = {}) {
  const worker = await startLocalWorker({
    vars: { SIMULATED_D1_PRIMARY_MS: "0", METERING: "on", ...vars },
  });
  const receiver = await startWebhookReceiver();
  const { apiKey, shard } = await seedProject(worker);
  const dir = mkdtempSync(join(tmpdir(), "keyproof-cost-"));
  const bridgePort = await freePort();
  const bridge = await spawnBridge(worker, {
    port: bridgePort,
    hostKeyDir: join(dir, "bridge-keys"),
  });
  await waitForGreeting(bridgePort);
  const keyPath = join(dir, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", keyPath]);

  const meters = async (reset = false): Promise<Meters> =>
    (await fetch(`${worker.url}/__dev/meters`, { method: reset ? "DELETE" : "GET" })).json();
  /** Until the counts stop moving: pushes to D1 and webhook deliveries happen after answers. */
  async function settled(): Promise<Meters> {
    let last = await meters();
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const now = await meters();
      quiet = JSON.stringify(now) === JSON.stringify(last) ? quiet + 1 : 0;
      last = now;
    }
    return last;
  }
  /** The units `action` costs, everything it caused included. */
  async function measure(action: () => Promise<unknown>): Promise<Meters> {
    await settled();
    await meters(true);
    await action();
    return settled();
  }
  const api = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": apiKey, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
  const ssh = (identifier: string) =>
    execFileSync(
      "ssh",
      [
        "-p",
        String(bridgePort),
        "-F",
        "/dev/null",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "IdentityAgent=none",
        "-o",
        "LogLevel=ERROR",
        "-i",
        keyPath,
        "-T",
        `${identifier}@127.0.0.1`,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  /** A signature proof, sent as from `address` where the rig trusts `cf-connecting-ip`. */
  const sign = async (challenge: string, url: string, address = "127.0.0.1") => {
    const signature = await signChallenge(keyPath, challenge);
    return fetch(url, {
      method: "POST",
      body: signature,
      headers: { "content-type": "text/plain", "cf-connecting-ip": address },
    });
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    bridge.kill("SIGTERM");
    await receiver.close();
    await worker.stop();
    removeState(worker);
  };
  /** The seeded project's shard's size now: the index bytes its sessions take. */
  const shardBytes = async () => (await settled()).d1SizeBytes[shard] ?? 0;
  return {
    worker,
    receiver,
    apiKey,
    shard,
    api,
    ssh,
    sign,
    keyPath,
    meters,
    settled,
    measure,
    shardBytes,
    stop,
  };
}

/**
 * Minutes an object keeps a proof at most: it retires at its expiry's alarm, an hour after its
 * create by default, when that comes within 45 minutes of its 15-minute grace (RETIRE_AFTER_MS;
 * session-ending.ts); and days D1 keeps it by default.
 */
const OBJECT_KEPT_MINUTES = 60;
const RETENTION_DAYS = 30;
/**
 * The lifecycle's clock: a retirement grace of 20 s and a session's timeout of 80 s (production's
 * 15 minutes and default hour, scaled down by 45), a retention "day" of 3 s (30 days: 90 s, so
 * erasure comes after retirement, as it does in production).
 */
const LIFE_GRACE_SECONDS = 20;
const LIFE_TIMEOUT_SECONDS = 80;
const LIFE_DAY_SECONDS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until `done()`, asked every 100 ms for at most a minute. */
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
 * A proof over its whole life, as an integrator pays for it: created, proved over SSH, read once,
 * its webhook delivered; its object retired (its storage deleted) when the grace is over; erased
 * from its shard by the cron's sweep when its project's retention is; and the bytes it kept in
 * between. Each phase is counted by the Worker for `proofs` proofs at once and divided; the cron's
 * own cost when it has nothing to do is measured first and taken off the erasure. The bytes a
 * session keeps in D1 are `d1BytesPerSession` when given (measured over many more sessions than
 * the lifecycle makes: a 4 KiB page's growth over ten is mostly rounding).
 */
export async function runLifecycle(proofs: number, d1BytesPerSession?: number) {
  const rig = await proofRig({
    RETIREMENT_GRACE_SECONDS: String(LIFE_GRACE_SECONDS),
    RETENTION_DAY_SECONDS: String(LIFE_DAY_SECONDS),
  });
  const { worker, receiver, api, ssh, settled, meters } = rig;
  const workerd = pidsMatching(`workerd serve.*127.0.0.1:${worker.port}`);
  const cpuMs = () => workerd.reduce((sum, pid) => sum + cpuSeconds(pid), 0) * 1000;
  /** The units of `action` (counts and workerd's CPU), everything it caused included. */
  const phase = async (action: () => Promise<unknown>) => {
    await settled();
    await meters(true);
    const cpu = cpuMs();
    await action();
    const counts = await settled();
    return { counts, cpuMs: cpuMs() - cpu };
  };
  const cron = () => fetch(`${worker.url}${SCHEDULED_PATH}`).then((response) => response.text());
  try {
    await api("GET", "/auth/info/");
    await api("POST", "/webhooks/", { url: `${receiver.url}/ok/life`, events: ["status_changed"] });
    // The cron's own cost, measured before there is anything of this run's to erase: taken off
    // the erasure below. (Run later, it would itself erase the run's earliest sessions.)
    const idle = await phase(cron);
    const ids: string[] = [];
    const bytesBefore = await rig.shardBytes();
    const live = await phase(async () => {
      for (let i = 0; i < proofs; i++) {
        const proof = await api("POST", "/ssh/collect/sessions/", {
          timeout: LIFE_TIMEOUT_SECONDS,
        });
        ssh(proof.connection_identifier);
        await api("GET", `/ssh/collect/sessions/${proof.id}/`);
        ids.push(proof.id);
      }
    });
    const closedAt = Date.now();
    const lastExpiry = closedAt + LIFE_TIMEOUT_SECONDS * 1000;
    const d1Bytes = d1BytesPerSession ?? ((await rig.shardBytes()) - bytesBefore) / proofs;
    const objectBytes =
      (
        await Promise.all(
          ids.map(
            async (id) =>
              (
                (await (await fetch(`${worker.url}/__dev/sessions/${id}/storage`)).json()) as {
                  bytes: number;
                }
              ).bytes,
          ),
        )
      ).reduce((a, b) => a + b, 0) / proofs;
    // Each object's alarm retires it, its storage deleted: the expiry's, set at create.
    const retirement = await phase(() => sleep(lastExpiry + 3000 - Date.now()));
    // Past the retention (30 three-second days): the cron's sweep erases them from the shard,
    // every one of them in the run measured.
    await sleep(closedAt + RETENTION_DAYS * LIFE_DAY_SECONDS * 1000 + 2000 - Date.now());
    const listed = async () =>
      ((await api("GET", "/ssh/collect/sessions/?limit=1")) as { total: number }).total;
    const kept = await listed();
    if (kept !== proofs) throw new Error(`${proofs - kept} sessions were erased before the sweep`);
    const erasure = await phase(cron);
    const left = await listed();
    if (left !== 0) throw new Error(`${left} sessions were not erased`);
    const per = (key: Count, ...counts: Meters[]) =>
      counts.reduce((sum, one) => sum + one[key], 0) / proofs;
    const erased = (key: Count) => (erasure.counts[key] - idle.counts[key]) / proofs;
    const unit = (key: Count) =>
      per(key, live.counts, retirement.counts) + Math.max(0, erased(key));
    const units: LifeUnits = {
      workerInvocations: unit("workerInvocations"),
      durableObjectRequests: unit("durableObjectRequests"),
      durableObjectRowsRead: unit("durableObjectRowsRead"),
      durableObjectRowsWritten: unit("durableObjectRowsWritten"),
      alarmsSet: unit("alarmsSet"),
      d1RowsRead: unit("d1RowsRead"),
      d1RowsWritten: unit("d1RowsWritten"),
      queueMessages: unit("queueMessages"),
      logLines: unit("logLines"),
      durableObjectActiveMs: unit("durableObjectActiveMs"),
      cpuMs: (live.cpuMs + retirement.cpuMs + Math.max(0, erasure.cpuMs - idle.cpuMs)) / proofs,
      d1Bytes,
      retentionDays: RETENTION_DAYS,
      objectBytes,
      objectKeptMinutes: OBJECT_KEPT_MINUTES,
    };
    const phases = [
      ["live: create, SSH proof, GET, webhook", live.counts],
      ["retirement", retirement.counts],
      ["erasure (the cron's sweep, its idle run taken off)", erasure.counts],
    ] as const;
    const phaseRows = phases.map(([name, counts]) => {
      const of = (key: Count) => (name.startsWith("erasure") ? erased(key) : per(key, counts));
      return [name, ...LIFE_COLUMNS.map(([key]) => round(of(key)))];
    });
    return { units, phaseRows, ...lifecycleBill(units) };
  } finally {
    await rig.stop();
  }
}

const round = (value: number) => String(Math.round(value * 100) / 100);

const LIFE_COLUMNS: [Count, string][] = [
  ...COLUMNS.filter(([key]) => key !== "d1WriteTransactions"),
  ["durableObjectActiveMs", "DO active ms"],
];

export async function runCostBench(storageSessions = STORAGE_SESSIONS, write = true) {
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
    // One proof as an integrator pays for it: create, the SSH proof, GET, and the webhook.
    rows.push({
      name: "**one proof: create + SSH proof + GET + one webhook**",
      counts: await measure(async () => {
        const proof = await api("POST", "/ssh/collect/sessions/", {});
        ssh(proof.connection_identifier);
        await api("GET", `/ssh/collect/sessions/${proof.id}/`);
      }),
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
        const one = await api("POST", "/ssh/collect/sessions/", {});
        ssh(one.connection_identifier);
        await api("GET", `/ssh/collect/sessions/${one.id}/`);
        await until(() => receiver.requestsTo("/fail-times/1/cost-failing").length >= 2);
      }),
    });
    await api("DELETE", `/webhooks/${failing.id}/`);
    rows.push({
      name: "one proof with no webhook (create + SSH proof + GET)",
      counts: await measure(async () => {
        const one = await api("POST", "/ssh/collect/sessions/", {});
        ssh(one.connection_identifier);
        await api("GET", `/ssh/collect/sessions/${one.id}/`);
      }),
    });
    await api("PATCH", `/webhooks/${hook.id}/`, { enabled: true });
    const row = (name: string) => rows.find((one) => one.name === name)?.counts as Meters;
    const options = [
      [
        "an `Idempotency-Key` on its create",
        billOf(row("API create with an `Idempotency-Key`")) - billOf(row("API create")),
      ],
      ["the hosted proof page, opened once", billOf(row("proof page"))],
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
    const life = await runLifecycle(LIFECYCLE_PROOFS, storage.d1BytesPerSession);
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

\`runLifecycle\` in the same run: ${LIFECYCLE_PROOFS} proofs (each an API create, an SSH proof through the bridge, a GET and one webhook delivery) against a \`wrangler dev\` on a shortened clock (a retirement grace of ${LIFE_GRACE_SECONDS} s, sessions created with an ${LIFE_TIMEOUT_SECONDS} s timeout for the default hour, a retention day of ${LIFE_DAY_SECONDS} s); then their objects' retirement (at the alarm each set for its expiry), then the cron's sweep when their 30 (${LIFE_DAY_SECONDS}-second) days are over, which must find every one of them still listed and leave none. The cron's cost with nothing to erase, measured before the run's first proof, is taken off the erasure. Counted by the Worker per proof:

${table(["Phase", ...LIFE_COLUMNS.map(([, label]) => label)], life.phaseRows)}

Priced over the whole life with Workers Logs as wrangler.toml sets it (\`head_sampling_rate\` ${logs.headSamplingRate}, invocation logs ${logs.invocationLogs ? "on" : "off"}), D1 keeping ${round(life.units.d1Bytes)} bytes a session (measured above over ${storageSessions.toLocaleString("en")} sessions) for 30 days and the object ${round(life.units.objectBytes)} bytes for ${OBJECT_KEPT_MINUTES} minutes (its expiry's alarm retires it). Duration is each object call's time as its caller saw it and each alarm's run, billed at 128 MB (an upper bound: concurrent requests share it); CPU is workerd's own, local D1 and objects included (an upper bound too).

${table(
  ["Line", "$ a million proofs", "price"],
  [
    ...life.bill.map((line) => [line.name, line.perMillion.toFixed(2), `[page](${line.page})`]),
    ["**lifecycle total**", `**${life.total.toFixed(2)}**`, ""],
  ],
)}

**A million proofs cost $${life.total.toFixed(2)} over their whole life** (target ≤ $25), before what the Workers Paid plan includes; $${perMillion.toFixed(2)} counted per request as above. Workers Logs moves to Cloudflare Observability pricing on 2026-12-01 (its page says so): the line above is at today's $0.60 a million events.

Machine: ${machine()}.`;
    if (write) writeSection("cost", markdown);
    return { rows, storage, perMillion, lifecycle: life, markdown };
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
