/**
 * Webhook latency from the state change (the event's trigger_time) to the receiver, for one event
 * at a time and for a burst (with its deliveries per second), through the real queue under
 * `wrangler dev`.
 *   node bench/webhooks.ts [events] [runs] [singles]
 */
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { machine, percentile, scriptArgs, summary, table, writeSection } from "./lib.ts";

export async function runWebhookBench(events = 200, runs = 3, singles = 20, write = true) {
  const worker = await startLocalWorker();
  const receiver = await startWebhookReceiver();
  const { apiKey } = await seedProject(worker);
  const api = (path: string, body?: unknown, method = "POST") =>
    fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const perRun: { single: number; p50: number; p99: number; perSecond: number }[] = [];
  const latencyOf = (request: { at: number; body: string }) =>
    request.at - Date.parse((JSON.parse(request.body) as { trigger_time: string }).trigger_time);
  const newSession = async () =>
    (
      (await (await api("/ssh/collect/sessions/", { multi_connection: true })).json()) as {
        id: string;
      }
    ).id;
  async function waitFor(path: string, count: number) {
    const deadline = Date.now() + 120_000;
    while (receiver.requestsTo(path).length < count && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
  }
  try {
    for (let run = 0; run < runs; run++) {
      // One event at a time: each delivered before the next state change.
      const alone = `/ok/bench-single-${run}`;
      const hook = (await (
        await api("/webhooks/", { url: `${receiver.url}${alone}`, events: ["status_changed"] })
      ).json()) as { id: string };
      for (let i = 0; i < singles; i++) {
        const id = await newSession();
        await api(`/ssh/collect/sessions/${id}/complete/`);
        await waitFor(alone, i + 1);
      }
      const single = percentile(receiver.requestsTo(alone).map(latencyOf), 50);
      await api(`/webhooks/${hook.id}/`, undefined, "DELETE");

      const path = `/ok/bench-${run}`;
      const burstHook = (await (
        await api("/webhooks/", { url: `${receiver.url}${path}`, events: ["status_changed"] })
      ).json()) as { id: string };
      const sessions = await Promise.all(Array.from({ length: events }, newSession));
      const started = Date.now();
      await Promise.all(sessions.map((id) => api(`/ssh/collect/sessions/${id}/complete/`)));
      await waitFor(path, events);
      const received = receiver.requestsTo(path);
      const latencies = received.map(latencyOf);
      const last = Math.max(...received.map((request) => request.at));
      perRun.push({
        single,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        perSecond: received.length / ((last - started) / 1000),
      });
      if (received.length < events)
        throw new Error(`only ${received.length} of ${events} deliveries arrived`);
      // The next run's burst goes to its own webhook alone, as this one did.
      await api(`/webhooks/${burstHook.id}/`, undefined, "DELETE");
    }
    const markdown = `## 3. Webhooks: state change to receiver

\`node bench/webhooks.ts ${events} ${runs} ${singles}\` — per run, ${singles} sessions are completed one after another, each once the previous event arrived (one event), then ${events} at once through the API (burst); each \`status_changed\` event goes through the outbox, the queue and the consumer to a receiver on 127.0.0.1. Latency is receiver arrival minus the event's \`trigger_time\`. Median (min–max) over runs.

${table(
  ["one event p50 ms", "burst p50 ms", "burst p99 ms", "deliveries/s (burst)"],
  [
    [
      summary(
        perRun.map((r) => r.single),
        0,
      ),
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
