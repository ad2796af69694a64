/**
 * `node bench/capacity.ts [seconds a level] [ms a query]`: capacity with real clients — the
 * queries a proof costs its shard's primary as that primary gets busy. Each level offers proofs
 * at a steady rate for a while, each an API create, a real OpenSSH `ssh` proof through the bridge
 * and its webhook delivery (`status_changed`), against `wrangler dev` whose primary is modelled as
 * D1's limits page describes one: a query at a time (SIMULATED_D1_QUERY_MS). The query here takes
 * longer than the page's ~1 ms so that this 2-core machine, where every `ssh` client, the bridge
 * and workerd share the cores, can make the primary busy at all: busy share and queries a proof
 * depend on the arrivals per query time, so a level here stands for one that many times faster
 * on a 1 ms primary (the proofs a second column says which).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machine, scriptArgs, sleep, sshArgs, table, writeSection } from "./lib.ts";
import { proofRig } from "./rig.ts";

/** Proofs a second offered, level by level. */
const LEVELS = [1, 2, 3, 4, 5, 6, 7];
/** D1's worked example: ~1 ms a query, ~1,000 a second (developers.cloudflare.com/d1/platform/limits/). */
const PAGE_QUERY_MS = 1;

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export async function runCapacityBench(
  levelSeconds = 30,
  queryMs = 20,
  write = true,
  levels = LEVELS,
) {
  const rig = await proofRig({ SIMULATED_D1_QUERY_MS: String(queryMs) });
  const { api, settled, meters, worker, receiver, bridgePort } = rig;
  try {
    const hook = await api("POST", "/webhooks/", {
      url: `${receiver.url}/ok/capacity`,
      events: ["status_changed"],
    });
    if (!hook?.id) throw new Error("no webhook");
    const ssh = (identifier: string) =>
      new Promise<void>((resolve, reject) =>
        execFile("ssh", sshArgs(bridgePort, rig.keyPath, identifier), (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    const rows: (string | number)[][] = [];
    const curve: {
      offered: number;
      busy: number;
      perProof: number;
      made: number;
      top: (readonly [string, number])[];
    }[] = [];
    for (const offered of levels) {
      await settled();
      await meters(true);
      const count = Math.round(offered * levelSeconds);
      const started = performance.now();
      let failed = 0;
      // An open loop: each proof starts at its time, whether or not the ones before it finished.
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          await sleep(Math.max(0, started + (i * 1000) / offered - performance.now()));
          try {
            const session = await api("POST", "/ssh/collect/sessions/", {});
            await ssh(session.connection_identifier);
          } catch {
            failed += 1;
          }
        }),
      );
      const offeredFor = (performance.now() - started) / 1000;
      const after = await settled();
      const queries = after.d1PrimaryQueriesBy[rig.shard] ?? 0;
      const made = count - failed;
      const busy = Math.min(1, (queries * queryMs) / 1000 / offeredFor);
      const perProof = queries / Math.max(1, made);
      // What the primary ran, a proof's share of each statement: where the queries go.
      const top = Object.entries(after.primaryQueriesBy)
        .sort(([, a], [, b]) => b - a)
        .slice(0, 12)
        .map(([statement, n]) => [statement, round(n / Math.max(1, made), 2)] as const);
      curve.push({ offered, busy, perProof, made, top });
      rows.push([
        offered,
        round(made / offeredFor, 2),
        round((made / offeredFor) * (queryMs / PAGE_QUERY_MS), 0),
        failed,
        `${round(busy * 100, 0)} %`,
        round(perProof, 2),
      ]);
    }
    const delivered = new Set(
      receiver.requestsTo("/ok/capacity").map((request) => request.headers["webhook-id"]),
    ).size;
    const made = curve.reduce((sum, level) => sum + level.made, 0);
    const result = { queryMs, levelSeconds, curve, delivered, made, url: worker.url };
    writeFileSync(join(tmpdir(), "keyproof-capacity.json"), JSON.stringify(result, null, 2));
    const markdown = `## 20. Capacity with real clients: queries a proof as the primary gets busy

\`node bench/capacity.ts ${levelSeconds} ${queryMs}\` — against \`wrangler dev\` with a real bridge: at each level, proofs offered at a steady rate for ${levelSeconds} s, each an API create, a real OpenSSH \`ssh\` proof through the bridge and its webhook delivery (\`status_changed\`, ${delivered} of ${made} proofs' deliveries received). The shard's primary is modelled as D1's limits page describes one, a query at a time, each taking ${queryMs} ms here (SIMULATED_D1_QUERY_MS) where the page's example takes ~${PAGE_QUERY_MS} ms ([D1 limits](https://developers.cloudflare.com/d1/platform/limits/)): the primary's groups of pushes form from arrivals per query time, so each level stands roughly for one ${queryMs / PAGE_QUERY_MS} times faster on a ~1 ms primary (roughly: the waits that are times, not queries — a bridge change's 300 ms before its push, a delivery's order waits — do not scale). Busy is the primary's queries × ${queryMs} ms over the level's time (100 %: it fell behind, and caught up after); queries are every statement the primary ran (reads included), counted by the Worker (\`/__dev/meters\`), divided by the proofs made.

Where a lightly loaded proof's ~11 queries go (\`/tmp/keyproof-capacity.json\` has each level's statements): its create's push and its proof's push, each its own transaction (the session's row twice, its connection, its events' row, the delivery's row, the webhooks it goes to read first: 6), and its delivery (5: its run's claim reads what it sends, the lease, the event's session and its connections to sign the ending, the answer recorded). Until this run a delivery was 9: its message read its own row before claiming its run, looked for later events after it (the webhook's sender takes those in its next round), and the ending's read asked for given keys and authorities, which only a verification session has. As the primary gets busy the index writer's groups grow and the pushes' share falls; the delivery's does not, as a delivery is read and recorded on its own.

${table(
  [
    "offered proofs/s",
    "made proofs/s",
    `as proofs/s at ~${PAGE_QUERY_MS} ms a query`,
    "failed",
    "primary busy",
    "queries on the primary a proof",
  ],
  rows,
)}

Machine: ${machine()}.`;
    console.log(markdown);
    if (write) writeSection("capacity", markdown);
    return { ...result, markdown };
  } finally {
    await rig.stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) await runCapacityBench(args[0], args[1]);
