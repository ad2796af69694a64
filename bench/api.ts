/**
 * API throughput and latency of create, get and list against a minimal Hono Worker doing one D1
 * insert or select per request, both under `wrangler dev` on this machine.
 *   node bench/api.ts [requests] [concurrency] [runs]
 */
import { join } from "node:path";
import { ROOT } from "../scripts/local-dev.ts";
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import {
  loop,
  machine,
  median,
  percentile,
  scriptArgs,
  summary,
  table,
  writeSection,
} from "./lib.ts";

type Result = { perSecond: number; p50: number; p99: number };

async function measure(
  total: number,
  concurrency: number,
  request: (i: number) => Promise<Response>,
): Promise<Result> {
  const started = performance.now();
  const latencies = await loop(total, concurrency, async (i) => {
    const response = await request(i);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  });
  return {
    perSecond: total / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export async function runApiBench(total = 500, concurrency = 8, runs = 3, write = true) {
  const keyproof = await startLocalWorker();
  const minimal = await startLocalWorker({
    config: join(ROOT, "bench", "minimal-worker", "wrangler.toml"),
    readyPath: "/items",
  });
  const { apiKey } = await seedProject(keyproof);
  const headers = { "x-api-key": apiKey, "content-type": "application/json" };
  const results: Record<string, { keyproof: Result[]; minimal: Result[] }> = {
    create: { keyproof: [], minimal: [] },
    get: { keyproof: [], minimal: [] },
    list: { keyproof: [], minimal: [] },
  };
  try {
    for (let run = 0; run < runs; run++) {
      const created: string[] = [];
      const items: string[] = [];
      results.create?.keyproof.push(
        await measure(total, concurrency, async () => {
          const response = await fetch(`${keyproof.url}/api/v1/ssh/collect/sessions/`, {
            method: "POST",
            headers,
            body: "{}",
          });
          created.push(((await response.clone().json()) as { id: string }).id);
          return response;
        }),
      );
      results.create?.minimal.push(
        await measure(total, concurrency, async () => {
          const response = await fetch(`${minimal.url}/items`, { method: "POST", body: "{}" });
          items.push(((await response.clone().json()) as { id: string }).id);
          return response;
        }),
      );
      results.get?.keyproof.push(
        await measure(total, concurrency, (i) =>
          fetch(`${keyproof.url}/api/v1/ssh/collect/sessions/${created[i]}/`, { headers }),
        ),
      );
      results.get?.minimal.push(
        await measure(total, concurrency, (i) => fetch(`${minimal.url}/items/${items[i]}`)),
      );
      results.list?.keyproof.push(
        await measure(total, concurrency, () =>
          fetch(`${keyproof.url}/api/v1/ssh/collect/sessions/?limit=100`, { headers }),
        ),
      );
      results.list?.minimal.push(
        await measure(total, concurrency, () => fetch(`${minimal.url}/items`)),
      );
    }
    const rows = Object.entries(results).map(([operation, { keyproof: ours, minimal: base }]) => {
      const ratio = median(base.map((r) => r.perSecond)) / median(ours.map((r) => r.perSecond));
      return [
        operation,
        summary(ours.map((r) => r.perSecond)),
        summary(base.map((r) => r.perSecond)),
        summary(
          ours.map((r) => r.p50),
          2,
        ),
        summary(
          base.map((r) => r.p50),
          2,
        ),
        summary(
          ours.map((r) => r.p99),
          2,
        ),
        `${ratio.toFixed(2)}×`,
      ];
    });
    const markdown = `## 2. API: keyproof against a minimal Hono + D1 Worker

\`node bench/api.ts ${total} ${concurrency} ${runs}\` — ${total} requests per operation and run, ${concurrency} at a time, ${runs} runs, both Workers under \`wrangler dev\` (local workerd, D1 in SQLite). keyproof's requests carry an API key, go through the per-project rate limiter and, for create, the session's Durable Object; the minimal Worker (\`bench/minimal-worker/\`) does one D1 statement. Median (min–max) over runs.

${table(["Operation", "keyproof req/s", "minimal req/s", "keyproof p50 ms", "minimal p50 ms", "keyproof p99 ms", "overhead (minimal/keyproof req/s)"], rows)}

Machine: ${machine()}.`;
    if (write) writeSection("api", markdown);
    return { results, markdown };
  } finally {
    await keyproof.stop();
    await minimal.stop();
    removeState(keyproof);
    removeState(minimal);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runApiBench(...args)).markdown);
