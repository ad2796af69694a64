/**
 * List latency with many sessions in one project: the first page against the last.
 *   node bench/list-latency.ts [sessions] [samples]
 */

import { sqlString } from "../scripts/seed-sql.ts";
import { localD1File, writeD1File } from "../test-support/local-d1.ts";
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { newConnectionIdentifier, newId } from "../worker/src/lib/ids.ts";
import { TOTAL_COUNTED_PAST_PAGE } from "../worker/src/schemas/common.ts";
import { machine, percentile, scriptArgs, summary, table, writeSection } from "./lib.ts";

// D1 refuses statements over 100 KB (the rows are written straight into its file, but stay in its limits).
const ROWS_PER_STATEMENT = 100;

function insertSessions(projectId: string, count: number): string[] {
  const statements: string[] = [];
  const start = Date.now() - count;
  for (let offset = 0; offset < count; offset += ROWS_PER_STATEMENT) {
    const rows: string[] = [];
    for (let i = offset; i < Math.min(count, offset + ROWS_PER_STATEMENT); i++) {
      const at = new Date(start + i).toISOString();
      const values = [
        newId("cs", start + i),
        projectId,
        "collect",
        newConnectionIdentifier(),
        "pending",
        `user-${i}`,
      ];
      rows.push(
        `(${values.map(sqlString).join(", ")}, 0, 0, 0, NULL, NULL, 0, 1, 0, '${at}', '${at}', '${at}', NULL, NULL)`,
      );
    }
    statements.push(
      `INSERT INTO sessions (id, project_id, kind, connection_identifier, status, external_id, multi_key, multi_connection, must_confirm, ssh_banner, ssh_message, match_all_keys, max_attempts, failed_attempts, expired_at, created_at, updated_at, completed_at, verified_at) VALUES ${rows.join(",\n")};`,
    );
  }
  return statements;
}

export async function runListBench(sessions = 100_000, samples = 30, write = true) {
  const worker = await startLocalWorker();
  try {
    const { projectId, apiKey, shard } = await seedProject(worker);
    writeD1File(await localD1File(worker.persistTo, shard), insertSessions(projectId, sessions));
    const time = async (query: string, expectedTotal = sessions) => {
      const latencies: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        const response = await fetch(`${worker.url}/api/v1/ssh/collect/sessions/${query}`, {
          headers: { "x-api-key": apiKey },
        });
        const body = (await response.json()) as { total: number; items: unknown[] };
        latencies.push(performance.now() - started);
        if (body.total !== expectedTotal || body.items.length === 0)
          throw new Error(`unexpected page: total ${body.total}`);
      }
      return latencies;
    };
    // Counted up to TOTAL_COUNTED_PAST_PAGE past the page: the first page's total stops there.
    const first = await time(
      "?limit=100&offset=0",
      Math.min(sessions, 100 + TOTAL_COUNTED_PAST_PAGE),
    );
    const last = await time(`?limit=100&offset=${sessions - 100}`);
    const filtered = await time(`?limit=100&external_id=user-${sessions - 1}`, 1);
    const ratio = percentile(last, 50) / percentile(first, 50);
    const markdown = `## 5. Lists with ${sessions.toLocaleString("en")} sessions in one project

\`node bench/list-latency.ts ${sessions} ${samples}\` — ${sessions.toLocaleString("en")} sessions inserted into the local D1, then ${samples} sequential requests per page. Latency of one request as the client sees it, with its \`total\` (counted up to ${TOTAL_COUNTED_PAST_PAGE.toLocaleString("en")} past the page: the first page's says ${Math.min(sessions, 100 + TOTAL_COUNTED_PAST_PAGE).toLocaleString("en")}, the last page's is exact).

${table(
  ["Page", "p50 ms", "p99 ms", "range ms"],
  [
    [
      "first (offset 0)",
      percentile(first, 50).toFixed(1),
      percentile(first, 99).toFixed(1),
      summary(first),
    ],
    [
      `last (offset ${sessions - 100})`,
      percentile(last, 50).toFixed(1),
      percentile(last, 99).toFixed(1),
      summary(last),
    ],
    [
      "filtered by external_id",
      percentile(filtered, 50).toFixed(1),
      percentile(filtered, 99).toFixed(1),
      summary(filtered),
    ],
  ],
)}

Last page / first page (p50): **${ratio.toFixed(2)}×**.
Machine: ${machine()}.`;
    if (write) writeSection("list-latency", markdown);
    return { first, last, ratio, markdown };
  } finally {
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runListBench(...args)).markdown);
