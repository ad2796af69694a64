/** The history bench's section of docs/benchmarks.md, from a run's figures. */
import { BURST_QUERY_MS, EMPTY, LOADED, QUERY_MS } from "./history-loader.ts";
import { machine, percentile, table } from "./lib.ts";

/** What one set of proofs cost and took, per proof. */
export interface Measured {
  rowsRead: number;
  rowsWritten: number;
  primaryQueries: number;
  replicaQueries: number;
  /** The directory's queries a proof: on its primary, and on a replica. */
  directoryPrimary: number;
  directoryReplica: number;
  writerRequests: number;
  dollarsPerMillion: number;
  create: number[];
  get: number[];
  list: number[];
  delivery: number[];
}

/** One shard's figures: a proof at a time, then a burst. */
export interface HistoryPhase {
  single: Measured;
  /** D1 rows read a proof, by statement. */
  readBy: Record<string, number>;
  burstPrimaryQueries: number;
  burstProofsPerSecond: number;
  burstPrimaryBusy: number;
  burstTransactions: number;
  burstStatements: (readonly [string, number])[];
}

/** A run: the loaded shard against the empty one, and what loading took. */
export interface HistoryResult {
  loaded: HistoryPhase;
  empty: HistoryPhase;
  loadSeconds: number;
  shardBytes: number;
  seconds: number;
}

export function historyMarkdown(
  sessionsEach: number,
  proofs: number,
  burst: number,
  result: HistoryResult,
) {
  const { loaded, empty } = result;
  const fmt = (value: number, digits = 1) => value.toFixed(digits);
  const p = (values: number[], q: number) => fmt(percentile(values, q));
  const row = (name: string, a: number, b: number, digits = 1) => [
    name,
    fmt(a, digits),
    fmt(b, digits),
    b === 0 ? (a === 0 ? "1.00" : "—") : (a / b).toFixed(2),
  ];
  const latency = (name: string, key: "create" | "get" | "list" | "delivery") => [
    `${name} p50 / p99 (ms)`,
    `${p(loaded.single[key], 50)} / ${p(loaded.single[key], 99)}`,
    `${p(empty.single[key], 50)} / ${p(empty.single[key], 99)}`,
    (percentile(loaded.single[key], 50) / percentile(empty.single[key], 50)).toFixed(2),
  ];
  const rows = [
    row("D1 rows read", loaded.single.rowsRead, empty.single.rowsRead),
    row("D1 rows written", loaded.single.rowsWritten, empty.single.rowsWritten),
    row(
      "queries on the shard's primary (reads included)",
      loaded.single.primaryQueries,
      empty.single.primaryQueries,
      2,
    ),
    row("queries on a replica", loaded.single.replicaQueries, empty.single.replicaQueries, 2),
    row(
      "the directory's queries, primary (its caches warm)",
      loaded.single.directoryPrimary,
      empty.single.directoryPrimary,
      2,
    ),
    row(
      "the directory's queries, replica",
      loaded.single.directoryReplica,
      empty.single.directoryReplica,
      2,
    ),
    row("writer requests", loaded.single.writerRequests, empty.single.writerRequests, 2),
    row(
      `queries on the primary, burst of ${burst}`,
      loaded.burstPrimaryQueries,
      empty.burstPrimaryQueries,
      2,
    ),
    row(
      `write transactions on the primary, burst of ${burst}`,
      loaded.burstTransactions,
      empty.burstTransactions,
      2,
    ),
    row(
      "proofs a second, burst (create → delivered)",
      loaded.burstProofsPerSecond,
      empty.burstProofsPerSecond,
    ),
    row(
      "the primary's time busy, burst (share)",
      loaded.burstPrimaryBusy,
      empty.burstPrimaryBusy,
      2,
    ),
    latency("create", "create"),
    latency("GET one session", "get"),
    latency("list, with the bookmark", "list"),
    latency("delivery (proof → receiver)", "delivery"),
    row(
      "$ a million (metered units)",
      loaded.single.dollarsPerMillion,
      empty.single.dollarsPerMillion,
      2,
    ),
  ];
  return `## 17. History: a shard holding 30 days of a busy project

\`node bench/history.ts ${sessionsEach} ${proofs} ${burst}\` — one shard (${LOADED}) loaded straight into its SQLite file with two projects of ${sessionsEach.toLocaleString("en")} closed sessions each over 30 days (each with its connection and key, its events' row and, for the first, a delivery of each event to its webhook: ${(3 * sessionsEach).toLocaleString("en")} deliveries; ${fmt(result.shardBytes / 2 ** 20, 0)} MiB; loaded in ${fmt(result.loadSeconds, 0)} s), and a project alone on an empty shard (${EMPTY}), each with a webhook, in one run. Per proof: a create, the bridge's two calls, a GET and a list with the caller's bookmark, one after another (${proofs} proofs); then ${burst} proofs, 50 at a time, each from its create to its delivery, with each query taking ${BURST_QUERY_MS} ms on the primary (this machine's ~15 proofs a second then load it as 300 a second would load D1's: the queries a proof costs where the primary binds). Each shard's primary takes its queries one at a time, ${QUERY_MS} ms each, as D1's limits page describes a database (\`SIMULATED_D1_QUERY_MS=${QUERY_MS}\`), so a burst queues there as it would in production. Counts by the Worker's meters (\`METERING=on\`), latencies as the client saw them.

${table(["Per proof", "loaded shard", "empty shard", "loaded ÷ empty"], rows)}

Where a proof's rows read differ most, one by one (rows a proof, by statement):

${table(
  ["Statement (database: first words)", "loaded", "empty"],
  [...new Set([...Object.keys(loaded.readBy), ...Object.keys(empty.readBy)])]
    .map(
      (statement) =>
        [statement, loaded.readBy[statement] ?? 0, empty.readBy[statement] ?? 0] as const,
    )
    .sort((a, b) => Math.abs(b[1] - b[2]) - Math.abs(a[1] - a[2]))
    .slice(0, 8)
    .map(([statement, a, b]) => [`\`${statement}\``, fmt(a), fmt(b)]),
)}

Where the loaded shard's primary spends its queries in the burst (a proof: its create, the bridge's two calls and its deliveries), by statement:

${table(
  ["Statement (first words)", "a proof"],
  loaded.burstStatements.map(([statement, count]) => [`\`${statement}\``, count.toFixed(2)]),
)}

Machine: ${machine()}. The whole run took ${fmt(result.seconds, 0)} s.`;
}
