/**
 * How late a webhook delivery is after the service restarts while a retry waits, with the
 * production sweep settings: the receiver is down, an event fails its first attempt, the Worker
 * restarts (losing the queued retry), the receiver comes back. Lateness is arrival minus the
 * time the retry was due.
 *   node bench/webhook-recovery.ts [runs] [graceSeconds] [cronEverySeconds]
 */
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { machine, scriptArgs, summary, table, writeSection } from "./lib.ts";

/** The retry's backoff: long enough for the restart to happen while it waits. */
const BACKOFF_SECONDS = 10;

async function until<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function runWebhookRecoveryBench(
  runs = 2,
  graceSeconds = 60,
  cronEverySeconds = 60,
  write = true,
) {
  const receiver = await startWebhookReceiver();
  const worker = await startLocalWorker({
    vars: { WEBHOOK_SWEEP_GRACE_SECONDS: String(graceSeconds) },
    scheduledEveryMs: cronEverySeconds * 1000,
  });
  const bound = BACKOFF_SECONDS + graceSeconds + cronEverySeconds + 5;
  const lateness: number[] = [];
  try {
    const { apiKey } = await seedProject(worker);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${worker.url}/api/v1${path}`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { id: string };
    };
    for (let run = 0; run < runs; run++) {
      const name = `recovery-${run}-${Date.now()}`;
      const path = `/switch/${name}/hook`;
      receiver.setSwitch(name, { status: 503 });
      await api("/webhooks/", {
        url: `${receiver.url}${path}`,
        events: ["status_changed"],
        initial_backoff: BACKOFF_SECONDS,
      });
      const session = await api("/ssh/collect/sessions/", { multi_connection: true });
      await api(`/ssh/collect/sessions/${session.id}/complete/`, {});
      const failed = await until(
        () => receiver.requestsTo(path)[0]?.finishedAt ?? undefined,
        30_000,
      );
      await worker.stop();
      await worker.start();
      receiver.setSwitch(name, { status: 200 });
      const delivered = await until(
        () => receiver.requestsTo(path).find((request) => request.status === 200),
        (bound + 60) * 1000,
      );
      lateness.push((delivered.at - (failed + BACKOFF_SECONDS * 1000)) / 1000);
    }
    const markdown = `## 6. Webhooks: a retry that was waiting when the service restarted

\`node bench/webhook-recovery.ts ${runs} ${graceSeconds} ${cronEverySeconds}\` — per run, the receiver is down, a \`status_changed\` event fails its first attempt, \`wrangler dev\` is stopped and started again (its queue, with the retry due ${BACKOFF_SECONDS} s later, is lost), and the receiver comes back. The sweep runs every ${cronEverySeconds} s (the cron trigger; \`npm start\` runs it locally) and resends invocations overdue by ${graceSeconds} s (\`WEBHOOK_SWEEP_GRACE_SECONDS\`). Lateness is arrival minus the time the retry was due. Median (min–max) over runs.

${table(
  ["lateness s", "worst case by construction s"],
  [[summary(lateness), `${graceSeconds + cronEverySeconds} (grace + one sweep interval)`]],
)}

Machine: ${machine()}.`;
    if (write) writeSection("webhook-recovery", markdown);
    return { lateness, markdown };
  } finally {
    await receiver.close();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runWebhookRecoveryBench(...args)).markdown);
