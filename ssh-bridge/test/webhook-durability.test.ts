import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LocalWorker,
  removeState,
  seedProject,
  startLocalWorker,
} from "../../test-support/local-worker.ts";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../test-support/webhook-receiver.ts";
import { apiClient } from "./helpers/api.ts";

/** Small schedule figures, so the whole outage fits in a test: backoff, grace, sweeps. */
const BACKOFF_SECONDS = 3;
const GRACE_SECONDS = 1;
const SCHEDULED_EVERY_MS = 1000;

let worker: LocalWorker;
let receiver: WebhookReceiver;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  worker = await startLocalWorker({
    vars: { WEBHOOK_SWEEP_GRACE_SECONDS: String(GRACE_SECONDS), WEBHOOK_TIMEOUT_SECONDS: "5" },
    scheduledEveryMs: SCHEDULED_EVERY_MS,
  });
  api = apiClient(worker.url, (await seedProject(worker)).apiKey);
});

afterAll(async () => {
  await worker?.stop();
  if (worker) removeState(worker);
  await receiver?.close();
});

async function waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing arrived within ${timeoutMs} ms`);
}

/** No two requests for one webhook-id were ever in flight at the same time. */
function expectNoOverlap(requests: ReceivedRequest[]) {
  const sorted = [...requests].sort((a, b) => a.at - b.at);
  for (let i = 1; i < sorted.length; i++) {
    expect(sorted[i]?.at).toBeGreaterThanOrEqual(sorted[i - 1]?.finishedAt ?? Infinity);
  }
}

describe("a webhook delivery waiting for a retry", () => {
  it("survives a restart of the service and arrives, once, when the receiver is back", async () => {
    const name = crypto.randomUUID();
    const path = `/switch/${name}/keyproof`;
    receiver.setSwitch(name, { status: 503 });
    const hook = await api.request<{ id: string; secret: string }>(
      "POST",
      "/webhooks/",
      {
        url: `${receiver.url}${path}`,
        events: ["status_changed"],
        initial_backoff: BACKOFF_SECONDS,
        backoff_multiplier: 1,
      },
      201,
    );
    receiver.trust(path, hook.secret);
    const session = await api.createSession("collect", { multi_connection: true });
    await api.request("POST", `/ssh/collect/sessions/${session.id}/complete/`);

    // The receiver is down: the first attempt fails, and the retry waits on the schedule.
    const failed = await waitFor(() => receiver.requestsTo(path).find((r) => r.finishedAt), 15_000);
    expect(failed.status).toBe(503);
    const webhookId = failed.headers["webhook-id"];
    // Once the Worker has recorded that failure (a restart before then re-sends attempt 1).
    const deliveriesPath = `/webhooks/${hook.id}/deliveries/`;
    for (let i = 0; i < 50; i++) {
      const { items } = await api.request<{ items: { status: string }[] }>("GET", deliveriesPath);
      if (items[0]?.status === "retrying") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // The service restarts while the retry waits: its queue message is gone with the process.
    await worker.stop();
    await worker.start();
    // The receiver comes back, slow; every sweep may queue the attempt again meanwhile.
    receiver.setSwitch(name, { status: 200, delayMs: 1500 });

    const delivered = await waitFor(
      () => receiver.requestsTo(path).find((request) => request.status === 200),
      30_000,
    );
    expect(delivered.headers["webhook-id"]).toBe(webhookId);
    expect(delivered.verified).toBe(true);
    expect(JSON.parse(delivered.body)).toMatchObject({ event: "status_changed", attempt: 2 });

    // Several sweeps ran while the slow attempt was in flight: it was sent once, never twice at once.
    await new Promise((resolve) => setTimeout(resolve, 4 * SCHEDULED_EVERY_MS));
    const all = receiver.requestsTo(path);
    expect(all.filter((request) => request.status === 200)).toHaveLength(1);
    expectNoOverlap(all);
    const deliveries = await api.request<{ items: { id: string; status: string }[] }>(
      "GET",
      deliveriesPath,
    );
    expect(deliveries.items).toEqual([
      expect.objectContaining({ id: webhookId, status: "succeeded" }),
    ]);
  });

  it("sends a delivery once more, never overlapping, when Retry is pressed again and again during an attempt", async () => {
    const name = crypto.randomUUID();
    const path = `/switch/${name}/keyproof`;
    receiver.setSwitch(name, { status: 200 });
    const hook = await api.request<{ id: string }>(
      "POST",
      "/webhooks/",
      { url: `${receiver.url}${path}`, events: ["status_changed"] },
      201,
    );
    const session = await api.createSession("collect", { multi_connection: true });
    await api.request("POST", `/ssh/collect/sessions/${session.id}/complete/`);
    const first = await waitFor(() => receiver.requestsTo(path).find((r) => r.finishedAt), 15_000);
    const webhookId = first.headers["webhook-id"];
    // The receiver turns slow, and Retry is pressed again and again while the attempt is in
    // flight: each press queues a message, and the later ones arrive in their own batches.
    receiver.setSwitch(name, { status: 200, delayMs: 4000 });
    for (let press = 0; press < 3; press++) {
      await api.request(
        "POST",
        `/webhooks/${hook.id}/deliveries/${webhookId}/retry/`,
        undefined,
        202,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await waitFor(() => receiver.requestsTo(path)[1]?.finishedAt ?? undefined, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const all = receiver.requestsTo(path);
    expect(all.map((request) => request.headers["webhook-id"])).toEqual([webhookId, webhookId]);
    expectNoOverlap(all);
  });
});

describe("a webhook's sender killed in the middle of a run", () => {
  it("sends the run's rest together once workerd is back, in order, and no answered event again", async () => {
    const name = crypto.randomUUID();
    const path = `/switch/${name}/keyproof`;
    // A slow receiver: each event takes 1.5 s, so the run is under way when workerd dies.
    receiver.setSwitch(name, { status: 200, delayMs: 1500 });
    const hook = await api.request<{ id: string; secret: string }>(
      "POST",
      "/webhooks/",
      { url: `${receiver.url}${path}`, events: ["status_changed"] },
      201,
    );
    receiver.trust(path, hook.secret);
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) {
      const session = await api.createSession("collect", { multi_connection: true });
      await api.request("POST", `/ssh/collect/sessions/${session.id}/complete/`);
      sessions.push(session.id);
    }
    const answered = () => receiver.requestsTo(path).filter((request) => request.finishedAt);
    await waitFor(() => (answered().length >= 3 ? true : undefined), 30_000);
    await worker.stop("SIGKILL");
    const answeredBefore = new Set(answered().map((request) => request.headers["webhook-id"]));
    receiver.setSwitch(name, { status: 200 });
    await worker.start();
    const restarted = Date.now();

    // Every event arrives within one lease (the 5 s timeout + 15 s) of the restart and a queue
    // round, not one a lease apart as each lease ran out (a lease per place in the run).
    const sessionOf = (request: ReceivedRequest) => (JSON.parse(request.body) as { id: string }).id;
    const delivered = () =>
      new Set(
        receiver
          .requestsTo(path)
          .filter((r) => r.status === 200)
          .map(sessionOf),
      );
    await waitFor(() => (delivered().size === sessions.length ? true : undefined), 40_000);
    expect(Date.now() - restarted).toBeLessThan(35_000);
    const all = receiver.requestsTo(path);
    // In order: each session's first arrival comes in the order its event happened.
    const firstArrivals = [...new Set(all.map(sessionOf))];
    expect(firstArrivals).toEqual(sessions);
    // An event answered before the kill is sent again only if its answer was not yet recorded:
    // the one on the wire when workerd died, at most.
    const again = all.filter(
      (request, index) =>
        answeredBefore.has(request.headers["webhook-id"]) &&
        all.findIndex((other) => other.headers["webhook-id"] === request.headers["webhook-id"]) <
          index,
    );
    expect(again.length).toBeLessThanOrEqual(1);
  }, 120_000);
});
