/**
 * Webhook latency from the state change (the event's trigger_time) to the receiver, and
 * deliveries per second for a burst, through the real queue under `wrangler dev`.
 *   node bench/webhooks.ts [events] [runs]
 */
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { machine, percentile, scriptArgs, summary, table, writeSection } from "./lib.ts";

export async function runWebhookBench(events = 200, runs = 3, write = true) {
  const worker = await startLocalWorker();
  const receiver = await startWebhookReceiver();
  const { apiKey } = await seedProject(worker);
  const api = (path: string, body?: unknown) =>
    fetch(`${worker.url}/api/v1${path}`, {
      method: body === undefined ? "POST" : "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const perRun: { p50: number; p99: number; perSecond: number }[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const path = `/ok/bench-${run}`;
      await api("/webhooks/", { url: `${receiver.url}${path}`, events: ["status_changed"] });
      const sessions = await Promise.all(
        Array.from(
          { length: events },
          async () =>
            (
              (await (await api("/ssh/collect/sessions/", { multi_connection: true })).json()) as {
                id: string;
              }
            ).id,
        ),
      );
      const started = Date.now();
      await Promise.all(sessions.map((id) => api(`/ssh/collect/sessions/${id}/complete/`)));
      const deadline = Date.now() + 120_000;
      while (receiver.requestsTo(path).length < events && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const received = receiver.requestsTo(path);
      const latencies = received.map(
        (request) =>
          request.at -
          Date.parse((JSON.parse(request.body) as { trigger_time: string }).trigger_time),
      );
      const last = Math.max(...received.map((request) => request.at));
      perRun.push({
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        perSecond: received.length / ((last - started) / 1000),
      });
      if (received.length < events)
        throw new Error(`only ${received.length} of ${events} deliveries arrived`);
    }
    const markdown = `## 3. Webhooks: state change to receiver

\`node bench/webhooks.ts ${events} ${runs}\` — per run, ${events} sessions are completed at once through the API; each \`status_changed\` event goes through the outbox, the queue (\`max_batch_timeout\` 1 s) and the consumer to a receiver on 127.0.0.1. Latency is receiver arrival minus the event's \`trigger_time\`. Median (min–max) over runs.

${table(
  ["p50 ms", "p99 ms", "deliveries/s (burst)"],
  [
    [
      summary(
        perRun.map((r) => r.p50),
        0,
      ),
      summary(
        perRun.map((r) => r.p99),
        0,
      ),
      summary(perRun.map((r) => r.perSecond)),
    ],
  ],
)}

Machine: ${machine()}.`;
    if (write) writeSection("webhooks", markdown);
    return { perRun, markdown };
  } finally {
    await receiver.close();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runWebhookBench(...args)).markdown);
