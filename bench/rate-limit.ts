/**
 * `node bench/rate-limit.ts`: what one lease costs the project's rate limiter,
 * at a small limit and a large one: the window kept full by leases of the largest grant (5 % of
 * the limit, api/rate-limit-leases.ts), one every 100 ms; the mean CPU time a lease takes, in
 * the rate limiter's own code (domain/rate-limit.ts) in Node.
 */
import { HitLog, leaseSlidingWindow } from "../worker/src/domain/rate-limit.ts";
import { machine, scriptArgs, table, writeSection } from "./lib.ts";

const LEASE_MS = 2_000;
const WINDOW_MS = 60_000;

/**
 * The log as it was before this round, for the comparison in the same run: one entry a hit,
 * sorted at each lease.
 */
function leaseAsBefore(hits: number[], limit: number, count: number, now: number) {
  let expired = 0;
  while (expired < hits.length && (hits[expired] ?? 0) <= now - WINDOW_MS) expired++;
  hits.splice(0, expired);
  const granted = Math.max(0, Math.min(count, limit - hits.length));
  for (let i = 0; i < granted; i++) hits.push(now + LEASE_MS);
  hits.sort((a, b) => a - b);
  return granted;
}

/** Mean CPU µs a call of `lease` takes, over LEASES calls (`leases` of them timed at most). */
function timed(lease: (at: number) => number, leases: number) {
  let granted = 0;
  const started = process.cpuUsage();
  for (let call = 0; call < leases; call++) granted += lease(call * 100);
  const used = process.cpuUsage(started);
  return { granted, microseconds: (used.user + used.system) / leases };
}
const GRANT_SHARE = 0.05;
const LEASES = 20_000;

export function runRateLimitBench(limits = [600, 240_000], write = true) {
  const rows = limits.map((limit) => {
    const hits = new HitLog();
    const grant = Math.max(1, Math.floor(limit * GRANT_SHARE));
    const now = timed(
      (at) => leaseSlidingWindow(hits, limit, grant, at, { leaseMs: LEASE_MS }).granted,
      LEASES,
    );
    const log: number[] = [];
    // The old log is slow at a large limit: fewer calls, the same steady state (a full window).
    const before = timed((at) => leaseAsBefore(log, limit, grant, at), Math.min(LEASES, 2_000));
    return { limit, grant, granted: now.granted, runs: hits.runs, now, before };
  });
  const markdown = `## 18. The rate limiter: a lease's cost at any limit

\`node bench/rate-limit.ts\` — the project's rate limiter (\`RateLimiter\`, domain/rate-limit.ts) given ${LEASES.toLocaleString("en")} leases, one every 100 ms, each asking for the largest grant (5 % of the limit): its window full all along. CPU time a lease takes in Node, the limiter's own code (a Durable Object call adds its own, the same at any limit). Before this round the log held one entry a hit and sorted it at each lease (the audit measured 0.13 ms a lease at 600 a minute, 14 ms at 240,000); it now holds one entry a lease. The last column runs the old log in the same run.

${table(
  [
    "limit a minute",
    "grant asked",
    "hits granted",
    "entries in the log at the end",
    "µs a lease",
    "µs a lease, the log as it was (same run)",
  ],
  rows.map((row) => [
    row.limit.toLocaleString("en"),
    row.grant.toLocaleString("en"),
    row.granted.toLocaleString("en"),
    row.runs,
    row.now.microseconds.toFixed(2),
    row.before.microseconds.toFixed(1),
  ]),
)}

Machine: ${machine()}.`;
  if (write) writeSection("rate-limit", markdown);
  return { rows, markdown };
}

if (scriptArgs(import.meta.url)) console.log(runRateLimitBench().markdown);
