/**
 * What each operation costs in the units Cloudflare bills, counted by the Worker itself
 * (worker/src/lib/meter.ts, read at /__dev/meters under `wrangler dev`), and the price of a
 * million proofs from the published prices. Counts, not timings: the same on every run.
 *   node bench/cost.ts [sessions for the storage figures]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { waitForGreeting } from "../test-support/ssh-greeting.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { machine, scriptArgs, spawnBridge, table, writeSection } from "./lib.ts";

/** What /__dev/meters counts. */
interface Meters {
  workerInvocations: number;
  durableObjectRequests: number;
  durableObjectRowsRead: number;
  durableObjectRowsWritten: number;
  alarmsSet: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  d1WriteTransactions: number;
  queueMessages: number;
  /** Each D1 database's size, by binding. */
  d1SizeBytes: Record<string, number>;
  /** Write transactions by D1 database (binding). */
  d1WriteTransactionsBy: Record<string, number>;
  /** Statements in those write transactions, by database: each one query D1 runs in turn. */
  d1WriteStatementsBy: Record<string, number>;
  /** Rows written per statement, D1's and the objects' apart. */
  writtenBy: Record<string, number>;
}

/** The counts a price is made of. */
type Counted = keyof Omit<
  Meters,
  "d1SizeBytes" | "d1WriteTransactionsBy" | "d1WriteStatementsBy" | "writtenBy"
>;

const COLUMNS: [Counted, string][] = [
  ["workerInvocations", "Worker invocations"],
  ["durableObjectRequests", "DO requests"],
  ["durableObjectRowsRead", "DO rows read"],
  ["durableObjectRowsWritten", "DO rows written"],
  ["d1RowsRead", "D1 rows read"],
  ["d1RowsWritten", "D1 rows written"],
  ["d1WriteTransactions", "D1 write transactions"],
  ["queueMessages", "Queue messages"],
  ["alarmsSet", "alarms set"],
];

/**
 * Published prices (Workers Paid, beyond what the plan includes), each from its page:
 * Workers https://developers.cloudflare.com/workers/platform/pricing/ ($0.30 / million requests);
 * Durable Objects https://developers.cloudflare.com/durable-objects/platform/pricing/ ($0.15 /
 * million requests, alarm invocations included; SQLite storage $1.00 / million rows written,
 * $0.001 / million rows read); D1 https://developers.cloudflare.com/d1/platform/pricing/ ($1.00 /
 * million rows written, $0.001 / million rows read); Queues
 * https://developers.cloudflare.com/queues/platform/pricing/ ($0.40 / million operations, a
 * message being written, read and deleted: 3).
 */
export const PRICES_PER_MILLION: Record<Counted, number> = {
  workerInvocations: 0.3,
  durableObjectRequests: 0.15,
  durableObjectRowsRead: 0.001,
  durableObjectRowsWritten: 1.0,
  d1RowsRead: 0.001,
  d1RowsWritten: 1.0,
  d1WriteTransactions: 0,
  queueMessages: 0.4 * 3,
  alarmsSet: 0,
};

export const priceOf = (counts: Meters) =>
  (Object.entries(PRICES_PER_MILLION) as [Counted, number][]).reduce(
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
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
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
  const sign = (challenge: string, url: string) => {
    const signature = execFileSync("ssh-keygen", ["-Y", "sign", "-n", "keyproof", "-f", keyPath], {
      input: challenge,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    });
    return fetch(url, {
      method: "POST",
      body: signature,
      headers: { "content-type": "text/plain" },
    });
  };

  const stop = async () => {
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

export async function runCostBench(storageSessions = 20, write = true) {
  const rig = await proofRig();
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

    // Bytes a closed session keeps: its object's database, and its share of D1's file.
    const before = await rig.shardBytes();
    const closed: string[] = [];
    for (let i = 0; i < storageSessions; i++) {
      const one = await api("POST", "/ssh/collect/sessions/", { external_id: `storage-${i}` });
      ssh(one.connection_identifier);
      closed.push(one.id);
    }
    const after = await rig.shardBytes();
    const objectBytes = await Promise.all(
      closed.map(
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
      objectBytesPerSession: Math.round(objectBytes.reduce((a, b) => a + b, 0) / storageSessions),
    };
    const proof = rows.at(-1)?.counts as Meters;
    const perMillion = priceOf(proof);
    const markdown = `## 8. Cost: billed units per operation

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

A closed session keeps **${storage.d1BytesPerSession} bytes** in D1 and **${storage.objectBytesPerSession} bytes** in its object (mean of ${storageSessions}, one collected key each).

**A million proofs cost $${perMillion.toFixed(2)}** at the published prices (Workers $0.30 / M requests, DO $0.15 / M requests and $1.00 / M rows written, D1 $1.00 / M rows written, rows read $0.001 / M, Queues $0.40 / M operations × 3 per message), before what the Workers Paid plan includes and excluding CPU time and DO duration, which are timings (prices from [Workers](https://developers.cloudflare.com/workers/platform/pricing/), [Durable Objects](https://developers.cloudflare.com/durable-objects/platform/pricing/), [D1](https://developers.cloudflare.com/d1/platform/pricing/) and [Queues](https://developers.cloudflare.com/queues/platform/pricing/) pricing pages).
Machine: ${machine()}.`;
    if (write) writeSection("cost", markdown);
    return { rows, storage, perMillion, markdown };
  } finally {
    await stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [sessions] = args;
  const { markdown } = await runCostBench(sessions ?? 20);
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-cost.md"), markdown);
}
