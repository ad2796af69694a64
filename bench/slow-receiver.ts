/**
 * A fast receiver's webhook latency alone, and beside webhooks whose receivers take 10 s to
 * answer (inside the 15 s timeout), through the real queue and senders under `wrangler dev`.
 *   node bench/slow-receiver.ts [seconds] [slowHooks] [perSecond]
 */
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { machine, percentile, scriptArgs, sleep, table, writeSection } from "./lib.ts";

const SLOW_ANSWER_MS = 10_000;

export async function runSlowReceiverBench(seconds = 60, slowHooks = 3, perSecond = 2) {
  const worker = await startLocalWorker();
  const receiver = await startWebhookReceiver();
  const { apiKey } = await seedProject(worker);
  const call = (path: string, body?: unknown, method = "POST") =>
    fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const api = async <T>(path: string, body?: unknown) =>
    (await (await call(path, body)).json()) as T;
  const hook = (path: string) =>
    api<{ id: string }>("/webhooks/", {
      url: `${receiver.url}${path}`,
      events: ["status_changed"],
    });
  const latencyOf = (request: { at: number; body: string }) =>
    request.at - Date.parse((JSON.parse(request.body) as { trigger_time: string }).trigger_time);

  /** Completes `perSecond` sessions a second for `seconds`: each one event to every webhook. */
  async function steadyEvents() {
    let sent = 0;
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      const { id } = await api<{ id: string }>("/ssh/collect/sessions/", {
        multi_connection: true,
      });
      await api(`/ssh/collect/sessions/${id}/complete/`);
      sent++;
      await sleep(Math.max(0, started + (sent * 1000) / perSecond - Date.now()));
    }
    return sent;
  }
  async function arrivals(path: string, count: number) {
    const deadline = Date.now() + 120_000;
    while (receiver.requestsTo(path).length < count && Date.now() < deadline) await sleep(50);
    return receiver.requestsTo(path).map(latencyOf);
  }

  try {
    const phases: { name: string; latencies: number[]; events: number; slowAnswered: number }[] =
      [];
    for (const withSlow of [false, true]) {
      const run = crypto.randomUUID();
      const fastPath = `/ok/fast-${run}`;
      const fast = await hook(fastPath);
      const slowPaths = withSlow
        ? Array.from({ length: slowHooks }, (_, n) => `/slow/${SLOW_ANSWER_MS}/slow-${n}-${run}`)
        : [];
      const slow = await Promise.all(slowPaths.map(hook));
      const events = await steadyEvents();
      const latencies = await arrivals(fastPath, events);
      const slowAnswered = slowPaths
        .flatMap((path) => receiver.requestsTo(path))
        .filter((request) => request.finishedAt !== null).length;
      phases.push({
        name: withSlow
          ? `beside ${slowHooks} webhooks answering after ${SLOW_ANSWER_MS / 1000} s`
          : "alone",
        latencies,
        events,
        slowAnswered,
      });
      for (const { id } of [fast, ...slow]) await call(`/webhooks/${id}/`, undefined, "DELETE");
    }
    const markdown = `## 19. Webhooks: a fast receiver beside slow ones

\`node bench/slow-receiver.ts ${seconds} ${slowHooks} ${perSecond}\` — ${perSecond} sessions completed a second for ${seconds} s, each a \`status_changed\` event to every webhook of the project: first a fast receiver's webhook alone, then a new fast one beside ${slowHooks} webhooks whose receivers answer after ${SLOW_ANSWER_MS / 1000} s (inside the 15 s timeout, so no attempt fails). Latency is the fast receiver's arrival minus the event's \`trigger_time\`. Each webhook's deliveries are sent by its own sender object, handed its messages by the queue's consumer, so a slow receiver holds only its own sender.

${table(
  ["fast receiver", "events", "arrived", "p50 ms", "p99 ms", "max ms", "slow answers meanwhile"],
  phases.map((phase) => [
    phase.name,
    phase.events,
    phase.latencies.length,
    Math.round(percentile(phase.latencies, 50)),
    Math.round(percentile(phase.latencies, 99)),
    Math.round(Math.max(...phase.latencies)),
    phase.slowAnswered,
  ]),
)}

Machine: ${machine()}.`;
    writeSection("slow-receiver", markdown);
    return { phases, markdown };
  } finally {
    await receiver.close();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runSlowReceiverBench(...args)).markdown);
