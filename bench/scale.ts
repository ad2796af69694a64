/**
 * `node bench/scale.ts [projects per shard] [proofs per project]`: the index scaled out, measured. Against `wrangler dev` with every shard wrangler.toml binds, projects are
 * seeded on every shard (the seed spreads them), each with a webhook for \`status_changed\`, and
 * each makes a burst of proofs at once — an API create and a signature proof each, and the
 * webhook's delivery, all projects together. Counted by the Worker itself
 * (`/__dev/meters`), per shard: D1 write transactions a second,
 * statements per transaction, the shard writer's requests a second, bytes a session takes. From
 * them and the platform's documented limits, each cited, what one shard and N shards hold.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localShards } from "../scripts/local-dev.ts";
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import type { Meters, Tally } from "../worker/src/lib/meter.ts";
import {
  loop,
  MANY_USERS_VARS,
  machine,
  scriptArgs,
  signChallenge,
  table,
  userAddress,
  writeSection,
} from "./lib.ts";

/**
 * The documented limits a capacity is derived from:
 * - a D1 database holds at most 10 GB (https://developers.cloudflare.com/d1/platform/limits/);
 * - a D1 database runs one query at a time: "if your average query takes 1 ms, you can run
 *   approximately 1,000 queries per second" (the same page) — each statement of a write
 *   transaction is one query;
 * - one Durable Object handles about 1,000 requests a second ("How much work can a single Durable
 *   Object do?", https://developers.cloudflare.com/durable-objects/reference/faq/).
 */
const D1_MAX_BYTES = 10 * 1000 ** 3;
const D1_QUERIES_PER_SECOND = 1_000;
const OBJECT_REQUESTS_PER_SECOND = 1_000;
/** The retention a day's capacity is figured at: the default. */
const RETENTION_DAYS = 30;

export async function runScaleBench(projectsPerShard = 3, proofsPerProject = 40, write = true) {
  const worker = await startLocalWorker({ vars: { METERING: "on", ...MANY_USERS_VARS } });
  const receiver = await startWebhookReceiver();
  const shards = localShards();
  const dir = mkdtempSync(join(tmpdir(), "keyproof-scale-"));
  const keyPath = join(dir, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", keyPath]);
  try {
    const projects: Awaited<ReturnType<typeof seedProject>>[] = [];
    for (let i = 0; i < projectsPerShard * shards.length; i++)
      projects.push(await seedProject(worker));
    const get = async <T>(path: string, init?: RequestInit) =>
      (await (await fetch(`${worker.url}${path}`, init)).json()) as T;
    /** Until the counts stop moving: pushes and deliveries go on after the answers. */
    const settled = async () => {
      let last = JSON.stringify(await get("/__dev/meters"));
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, 400));
        const now = JSON.stringify(await get("/__dev/meters"));
        quiet = now === last ? quiet + 1 : 0;
        last = now;
      }
      return JSON.parse(last) as Meters;
    };
    /**
     * Until every proof's delivery reached the receiver: a delivery goes out once its session
     * closed and its push committed, so this waits for both. Asked of the receiver, not of the
     * local SQLite files: another process reading them while workerd writes makes its queries
     * fail busy (SQLITE_BUSY), which would slow the very deliveries waited for.
     */
    const everyProofIndexed = async (wanted: number) => {
      const deadline = Date.now() + 900_000;
      const delivered = () =>
        new Set(receiver.requestsTo("/ok/scale").map((request) => request.headers["webhook-id"]))
          .size;
      while (delivered() < wanted) {
        if (Date.now() > deadline) throw new Error(`${delivered()} of ${wanted} delivered`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const api = async (key: string, path: string, body: unknown) => {
      const response = await fetch(`${worker.url}/api/v1${path}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { signature_challenge: string; signature_url: string };
    };
    // Warm: each project's key verified and its webhook made, each shard's writer woken.
    await Promise.all(
      projects.map(async (project) => {
        await api(project.apiKey, "/webhooks/", {
          url: `${receiver.url}/ok/scale`,
          events: ["status_changed"],
        });
        await api(project.apiKey, "/ssh/collect/sessions/", {});
      }),
    );
    const before = await settled();
    const started = performance.now();
    const jobs = projects.flatMap((project) =>
      Array.from({ length: proofsPerProject }, () => project),
    );
    await loop(jobs.length, 32, async (i) => {
      const project = jobs[i];
      if (!project) return;
      const session = await api(project.apiKey, "/ssh/collect/sessions/", {});
      const signature = await signChallenge(keyPath, session.signature_challenge);
      const send = () =>
        fetch(session.signature_url, {
          method: "POST",
          body: signature,
          headers: { "content-type": "text/plain", "cf-connecting-ip": userAddress(i) },
        });
      // A socket local workerd closed before answering is sent again, as a user's curl would be
      // (a proof already recorded answers as such, not twice).
      const proof = await send().catch(send);
      const answer = await proof.text();
      if (!proof.ok) throw new Error(`signature proof: ${proof.status} ${answer}`);
    });
    const proofsMade = performance.now();
    await everyProofIndexed(jobs.length);
    const caughtUp = (performance.now() - proofsMade) / 1000;
    const after = await settled();
    const seconds = (performance.now() - started) / 1000;
    // Nothing lost: every project lists each of its sessions, and each event reached the
    // receiver once (a delivery's webhook-id is its event's, sent again only by a retry).
    let listed = 0;
    for (const project of projects) {
      const response = await fetch(`${worker.url}/api/v1/ssh/collect/sessions/?limit=1`, {
        headers: { "x-api-key": project.apiKey },
      });
      listed += ((await response.json()) as { total: number }).total;
    }
    const received = receiver.requestsTo("/ok/scale");
    const distinct = new Set(received.map((request) => request.headers["webhook-id"])).size;
    const lost = {
      listed,
      sessions: jobs.length + projects.length,
      delivered: received.length,
      distinct,
    };
    if (listed !== lost.sessions || distinct !== received.length || distinct < jobs.length)
      throw new Error(`sessions or deliveries lost or doubled: ${JSON.stringify(lost)}`);

    const delta = (by: Tally, shard: string) => (after[by][shard] ?? 0) - (before[by][shard] ?? 0);
    const perShard = shards.map((shard) => {
      const proofs = proofsPerProject * projects.filter((p) => p.shard === shard).length;
      const transactions = delta("d1WriteTransactionsBy", shard);
      const statements = delta("d1WriteStatementsBy", shard);
      const pushes = delta("writerRequestsBy", shard);
      const bytes = delta("d1SizeBytes", shard);
      const queries = delta("d1PrimaryQueriesBy", shard);
      return {
        shard,
        proofs,
        transactionsPerSecond: transactions / seconds,
        statementsPerTransaction: statements / Math.max(1, transactions),
        statementsPerProof: statements / Math.max(1, proofs),
        msPerTransaction: delta("d1WriteMsBy", shard) / Math.max(1, transactions),
        writerRequestsPerSecond: pushes / seconds,
        writerRequestsPerProof: pushes / Math.max(1, proofs),
        bytesPerSession: bytes / Math.max(1, proofs),
        proofsPerSecond: proofs / seconds,
        primaryQueriesPerSecond: queries / seconds,
        primaryQueriesPerProof: queries / Math.max(1, proofs),
      };
    });
    const mean = (pick: (row: (typeof perShard)[number]) => number) =>
      perShard.reduce((sum, row) => sum + pick(row), 0) / perShard.length;
    const bytesPerSession = mean((row) => row.bytesPerSession);
    const busiestQueriesPerSecond = Math.max(...perShard.map((row) => row.primaryQueriesPerSecond));
    const statementsPerProof = mean((row) => row.statementsPerProof);
    const primaryQueriesPerProof = mean((row) => row.primaryQueriesPerProof);
    const writerRequestsPerProof = mean((row) => row.writerRequestsPerProof);
    // What one shard holds, from each limit: the least of them binds.
    const sessionsPerDayByStorage = D1_MAX_BYTES / (bytesPerSession * RETENTION_DAYS);
    // Every query the primary ran counted, reads included, at this run's load.
    const proofsPerSecondByD1 = D1_QUERIES_PER_SECOND / primaryQueriesPerProof;
    const proofsPerSecondByWriter = OBJECT_REQUESTS_PER_SECOND / writerRequestsPerProof;
    const steadyProofsPerSecond = Math.min(proofsPerSecondByD1, proofsPerSecondByWriter);
    const steadyByStorage = sessionsPerDayByStorage / 86_400;
    const result = {
      seconds,
      caughtUp,
      lost,
      perShard,
      bytesPerSession,
      statementsPerProof,
      primaryQueriesPerProof,
      writerRequestsPerProof,
      sessionsPerDayByStorage,
      proofsPerSecondByD1,
      proofsPerSecondByWriter,
      steadyProofsPerSecond,
      steadyByStorage,
    };
    const round = (value: number, digits = 0) =>
      value.toLocaleString("en-US", { maximumFractionDigits: digits });
    const capacityRows = [1, shards.length, 32].map((n) => [
      n === 1
        ? "one shard"
        : `${n} shards${n === shards.length ? " (wrangler.toml)" : " (the most one identifier character names)"}`,
      round(n * sessionsPerDayByStorage),
      round((n * sessionsPerDayByStorage) / 86_400, 1),
      round(n * steadyProofsPerSecond),
    ]);
    const markdown = `## 15. Scale: the index over ${shards.length} shards

\`node bench/scale.ts ${projectsPerShard} ${proofsPerProject}\` — against \`wrangler dev\` with the ${shards.length} shards wrangler.toml binds: ${projects.length} projects (${projectsPerShard} a shard, placed by the seed), each with a webhook for \`status_changed\` and making ${proofsPerProject} proofs at once, all projects together (${jobs.length} proofs in ${round(seconds, 1)} s; each an API create, a signature proof and a webhook delivery). Bytes are the growth of each shard's file (D1's \`size_after\`, whole 4 KiB pages) over the run, divided by its sessions. Counted by the Worker itself (\`/__dev/meters\`), per D1 database and per shard writer.

The last session was closed and its delivery made ${round(caughtUp, 1)} s after the last proof's answer. Nothing was lost: the projects list ${lost.listed.toLocaleString("en")} sessions (every proof's and each project's first), and the receiver got ${lost.delivered.toLocaleString("en")} deliveries, ${lost.distinct.toLocaleString("en")} distinct (none twice).

${table(
  [
    "Shard",
    "proofs",
    "proofs/s",
    "queries on the primary/s (reads included)",
    "queries on the primary a proof",
    "write transactions/s",
    "statements per transaction",
    "statements per proof",
    "ms per transaction (local SQLite)",
    "writer requests/s",
    "writer requests per proof",
    "bytes per session",
  ],
  perShard.map((row) => [
    row.shard,
    row.proofs,
    round(row.proofsPerSecond, 1),
    round(row.primaryQueriesPerSecond, 1),
    round(row.primaryQueriesPerProof, 2),
    round(row.transactionsPerSecond, 1),
    round(row.statementsPerTransaction, 1),
    round(row.statementsPerProof, 2),
    round(row.msPerTransaction, 2),
    round(row.writerRequestsPerSecond, 1),
    round(row.writerRequestsPerProof, 2),
    round(row.bytesPerSession),
  ]),
)}

What bound this run: all ${shards.length} shards together took ${round(jobs.length / seconds, 1)} proofs a second, while the busiest primary ran ${round(busiestQueriesPerSecond, 1)} queries a second (${round(busiestQueriesPerSecond / 10, 1)} % of D1's ~1,000). The limit was this machine, where one workerd thread runs the Worker, every object, each shard's local D1 and the queue's consumer; local Queues hand the consumer one batch at a time, so deliveries fall behind while proofs are made and catch up after (the wait above). A delivery more than five minutes late is sent on its own rather than in its webhook's run of events, so a backlog costs more queries a proof than a steady flow.

What one shard holds, each from a measurement above and a documented limit:

- **Storage** — 10 GB a D1 database ([D1 limits](https://developers.cloudflare.com/d1/platform/limits/)) ÷ (${round(bytesPerSession)} bytes a session × ${RETENTION_DAYS} days' retention) = **${round(sessionsPerDayByStorage)} sessions a day** (${round(steadyByStorage, 1)} a second, on average, kept ${RETENTION_DAYS} days).
- **D1's one query at a time** — ~1,000 queries a second at 1 ms a query (the same page's example), every query on the primary counted (reads included, not only a write transaction's statements): ÷ ${round(primaryQueriesPerProof, 2)} a proof as this run made them = **${round(proofsPerSecondByD1)} proofs a second**. That is a floor: here the primary is idle most of the time, so its writer's groups are small; where the primary binds they grow, and bench/history.ts (§17) counts the queries a proof costs there.
- **One writer object** — ~1,000 requests a second ([Durable Objects FAQ](https://developers.cloudflare.com/durable-objects/reference/faq/), "How much work can a single Durable Object do?") ÷ ${round(writerRequestsPerProof, 2)} writer requests a proof = **${round(proofsPerSecondByWriter)} proofs a second**.

Storage binds first: a shard takes at least ${round(steadyProofsPerSecond)} proofs a second but keeps only ${round(steadyByStorage, 1)} a second on average for ${RETENTION_DAYS} days. Shards share nothing, so N shards hold N times one:

${table(["Index", "sessions a day (30-day retention)", "average proofs/s kept", "burst proofs/s"], capacityRows)}

The earlier "274 proofs a second a shard" divided 1,000 queries a second by a proof's write statements only (3.65); this run counts every query the primary runs, reads included (statements per proof above are the writes').

Machine: ${machine()}.`;
    if (write) writeSection("scale", markdown);
    return { result, markdown };
  } finally {
    await receiver.close();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [projectsPerShard, proofsPerProject] = args;
  const { markdown } = await runScaleBench(projectsPerShard ?? 3, proofsPerProject ?? 40);
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-scale.md"), markdown);
}
