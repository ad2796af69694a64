import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { shardDb } from "../src/db/databases.ts";
import { sessions } from "../src/db/sessions.ts";
import { eventRows, webhookInvocations, webhooks } from "../src/db/webhooks.ts";
import { setD1Outage } from "../src/development/d1-simulation.ts";
import worker from "../src/index.ts";
import { createWebhook } from "../src/webhooks/definitions.ts";
import { firstAttempts, outboxRows, outboxStatements } from "../src/webhooks/outbox.ts";
import { DEAD_LETTER_QUEUE, enqueue, type WebhookMessage } from "../src/webhooks/queue.ts";
import { leaseSeconds } from "../src/webhooks/schedule.ts";
import { SEND_RETRY_MS, sendWebhookMessages } from "../src/webhooks/sender-object.ts";
import { sweepDueInvocations } from "../src/webhooks/sweeper.ts";
import { contextOf, createSession, newProject } from "./helpers.ts";

/** The shard these tests' projects are placed on, so their invocations are read from one place. */
const SHARD = "INDEX_0";
const db = shardDb(env, SHARD);

/** A webhook pointing at the test receiver, and a ping for it per payload, written but not queued. */
async function pingsFor(
  path: string,
  options: { retries?: number; initial_backoff?: number; backoff_multiplier?: number } = {},
  payloads: Record<string, unknown>[] = [{ hello: "world" }],
) {
  const project = await newProject({ shard: SHARD });
  const { projectId, apiKey } = project;
  const ctx = contextOf(project);
  const webhook = await createWebhook(
    ctx,
    { kind: "project" },
    {
      url: `${env.RECEIVER_URL}${path}`,
      method: "post",
      headers: { "x-test": "yes" },
      events: [],
      retries: options.retries ?? 3,
      initial_backoff: options.initial_backoff ?? 10,
      backoff_multiplier: options.backoff_multiplier ?? 2,
      enabled: true,
    },
  );
  const rows = outboxRows(
    { projectId, sessionId: null, entity: "webhook", livemode: true },
    payloads.map((payload) => ({ type: "ping" as const, payload })),
    [webhook],
    new Date(),
  );
  await db.batch(outboxStatements(db, rows) as [ReturnType<typeof outboxStatements>[number]]);
  return { webhook, apiKey, invocationIds: rows.invocations.map((row) => row.id) };
}

/** A webhook pointing at the test receiver, and one invocation written but not queued. */
async function invocationFor(path: string, options: Parameters<typeof pingsFor>[1] = {}) {
  const { webhook, apiKey, invocationIds } = await pingsFor(path, options);
  const [invocationId] = invocationIds;
  if (!invocationId) throw new Error("no invocation");
  return { webhook, apiKey, invocationId };
}

type Sent = { body: WebhookMessage; delaySeconds: number | undefined };

/**
 * Captures what the code under test puts on the webhook queue instead of sending it, so no
 * background consumer races the test. `restore` puts the real queue back.
 */
function captureQueueSends() {
  const sent: Sent[] = [];
  const spy = vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockImplementation(async (messages) => {
    for (const message of messages)
      sent.push({ body: message.body as WebhookMessage, delaySeconds: message.delaySeconds });
    return {
      metadata: {
        metrics: { backlogCount: 0, backlogBytes: 0 },
      },
    } as QueueSendBatchResponse;
  });
  return { sent, restore: () => spy.mockRestore() };
}

/**
 * Runs one message through its webhook's sender, as the sender's alarm does. Messages it queues
 * (the next attempt, or this one again after a wait) are captured, not sent, so no background
 * consumer races the test. `tries` is how often the attempt was asked for, this time included.
 */
async function consume(invocationId: string, attempt?: number, tries = 1) {
  const message: WebhookMessage = {
    invocation_id: invocationId,
    shard: SHARD,
    ...(attempt === undefined ? {} : { attempt }),
    tries,
  };
  const queue = captureQueueSends();
  try {
    await sendWebhookMessages(env, [message]);
    return { sent: queue.sent };
  } finally {
    queue.restore();
  }
}

/** As if the queue held the message back for the whole delay it asked for. */
async function makeDue(invocationId: string) {
  await db
    .update(webhookInvocations)
    .set({ nextAttemptAt: new Date().toISOString() })
    .where(eq(webhookInvocations.id, invocationId));
}

async function invocation(id: string) {
  const [row] = await db.select().from(webhookInvocations).where(eq(webhookInvocations.id, id));
  return { row, attempts: row?.attemptLog ?? [] };
}

async function receivedAt(path: string) {
  const all = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
    path: string;
    headers: Record<string, string>;
    body: string;
    at: number;
    finishedAt: number | null;
  }[];
  return all.filter((request) => request.path === path);
}

describe("a webhook's sender, message by message", () => {
  it("records a 2xx attempt and queues nothing more", async () => {
    const path = `/ok/${crypto.randomUUID()}`;
    const { webhook, invocationId } = await invocationFor(path);
    const result = await consume(invocationId, 1);
    expect(result.sent).toEqual([]);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, nextAttemptAt: null });
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      status_code: 200,
      response_body: "ok",
      error: null,
    });
    const [request] = await receivedAt(path);
    expect(request?.headers["webhook-id"]).toBe(invocationId);
    expect(request?.headers["x-test"]).toBe("yes");
    expect(request?.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      entity: "webhook",
      id: webhook.id,
      event: "ping",
      webhook_id: webhook.id,
      webhook_invocation_id: invocationId,
      attempt: 1,
      payload: { hello: "world" },
    });
  });

  it("keeps no answer that comes back after the event's session was redacted", async () => {
    // A receiver that echoes what it got, answering a delivery of a session redacted meanwhile.
    const path = `/echo/${crypto.randomUUID()}`;
    const { apiKey, invocationId } = await invocationFor(path);
    const session = await createSession<{ id: string }>(apiKey, "collect", {});
    // A create answers once its object committed; its row reaches D1 with the push.
    await vi.waitFor(
      async () =>
        expect(await db.select().from(sessions).where(eq(sessions.id, session.id))).toHaveLength(1),
      10_000,
    );
    const [row] = await db
      .select()
      .from(webhookInvocations)
      .where(eq(webhookInvocations.id, invocationId));
    await db
      .update(eventRows)
      .set({ sessionId: session.id })
      .where(
        and(eq(eventRows.projectId, row?.projectId ?? ""), eq(eventRows.id, row?.eventId ?? "")),
      );
    await db
      .update(sessions)
      .set({ redactedAt: new Date().toISOString() })
      .where(eq(sessions.id, session.id));
    await consume(invocationId, 1);
    const [request] = await receivedAt(path);
    expect(request?.body).toContain(invocationId);
    const { attempts } = await invocation(invocationId);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
    expect(attempts[0]?.response_body).toBeNull();
  });

  it("schedules the next attempt after initial_backoff × backoff_multiplier^(n-1), in D1 and on the queue", async () => {
    const { invocationId } = await invocationFor(`/status/503/${crypto.randomUUID()}`, {
      initial_backoff: 7,
      backoff_multiplier: 3,
    });
    const started = Date.now();
    const first = await consume(invocationId, 1);
    expect(first.sent).toEqual([
      { body: { invocation_id: invocationId, attempt: 2, shard: SHARD }, delaySeconds: 7 },
    ]);
    const scheduled = Date.parse((await invocation(invocationId)).row?.nextAttemptAt ?? "");
    expect(scheduled - started).toBeGreaterThanOrEqual(7000);
    expect(scheduled - started).toBeLessThan(9000);
    await makeDue(invocationId);
    const second = await consume(invocationId, 2);
    expect(second.sent).toEqual([
      { body: { invocation_id: invocationId, attempt: 3, shard: SHARD }, delaySeconds: 21 },
    ]);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "retrying", attempts: 2, leaseUntil: null });
    expect(attempts.map((attempt) => attempt.status_code)).toEqual([503, 503]);
    expect(attempts[0]?.response_body).toBe("status 503");
  });

  it("retries a timeout", async () => {
    const { invocationId } = await invocationFor(`/slow/3000/${crypto.randomUUID()}`, {
      initial_backoff: 5,
    });
    const result = await consume(invocationId, 1);
    expect(result.sent.map((sent) => sent.delaySeconds)).toEqual([5]);
    const { attempts } = await invocation(invocationId);
    expect(attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^127\.0\.0\.1:\d+ did not answer within 1 s$/),
    });
  });

  it("honours Retry-After when it is longer than the backoff", async () => {
    const { invocationId } = await invocationFor(`/retry-after/120/${crypto.randomUUID()}`, {
      initial_backoff: 5,
    });
    const result = await consume(invocationId, 1);
    expect(result.sent.map((sent) => sent.delaySeconds)).toEqual([120]);
  });

  it("disables the webhook on 410 and stops, saying why", async () => {
    const { webhook, invocationId } = await invocationFor(`/status/410/${crypto.randomUUID()}`);
    const result = await consume(invocationId, 1);
    expect(result.sent).toEqual([]);
    const { row } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(row?.failureReason).toMatch(/410 Gone/);
    const [after] = await db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(after?.enabled).toBe(false);
  });

  it("gives up after `retries` retries and marks the invocation failed with the reason", async () => {
    const { invocationId } = await invocationFor(`/status/500/${crypto.randomUUID()}`, {
      retries: 2,
      initial_backoff: 1,
    });
    expect((await consume(invocationId, 1)).sent).toHaveLength(1);
    await makeDue(invocationId);
    expect((await consume(invocationId, 2)).sent).toHaveLength(1);
    await makeDue(invocationId);
    const last = await consume(invocationId, 3);
    expect(last.sent).toEqual([]);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null });
    expect(row?.failureReason).toBe("No 2xx answer in 3 attempts (retries: 2)");
    expect(attempts).toHaveLength(3);
  });

  it("waits out a delay longer than Queues allow in steps, without an attempt", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    const dueAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await db
      .update(webhookInvocations)
      .set({ status: "retrying", attempts: 1, nextAttemptAt: dueAt })
      .where(eq(webhookInvocations.id, invocationId));
    const result = await consume(invocationId, 2);
    expect(result.sent).toEqual([
      {
        body: { invocation_id: invocationId, attempt: 2, shard: SHARD, tries: 2 },
        delaySeconds: 43_200,
      },
    ]);
    expect((await invocation(invocationId)).attempts).toHaveLength(0);
  });

  it("sends nothing for a message whose invocation already succeeded (duplicate delivery)", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    await consume(invocationId, 1);
    for (const attempt of [1, undefined]) {
      expect((await consume(invocationId, attempt, 2)).sent).toEqual([]);
    }
    expect((await invocation(invocationId)).attempts).toHaveLength(1);
  });

  it("drops a message for an attempt that was already made", async () => {
    const path = `/status/500/${crypto.randomUUID()}`;
    const { invocationId } = await invocationFor(path, { initial_backoff: 1 });
    await consume(invocationId, 1);
    await makeDue(invocationId);
    const stale = await consume(invocationId, 1, 2);
    expect(stale.sent).toEqual([]);
    expect((await invocation(invocationId)).attempts).toHaveLength(1);
    expect(await receivedAt(path)).toHaveLength(1);
  });

  it("sends an attempt once when many messages ask for it at the same time", async () => {
    const path = `/slow/400/${crypto.randomUUID()}`;
    const { invocationId } = await invocationFor(path);
    const results = await Promise.all(Array.from({ length: 6 }, () => consume(invocationId, 1)));
    expect(await receivedAt(path)).toHaveLength(1);
    // The others found it held and went back on the queue until its lease ends (at most the
    // receiver's timeout and 15 s), not dropped: had its holder died, it would be sent then.
    // Back, they find it made, and are done.
    const back = results.flatMap((result) => result.sent);
    expect(back.length).toBeGreaterThan(0);
    for (const message of back) {
      expect(message.body).toMatchObject({ invocation_id: invocationId, attempt: 1 });
      expect(message.delaySeconds).toBeLessThanOrEqual(
        leaseSeconds(Number(env.WEBHOOK_TIMEOUT_SECONDS)) + 1,
      );
      expect((await consume(invocationId, 1, 2)).sent).toEqual([]);
    }
    expect(await receivedAt(path)).toHaveLength(1);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(attempts).toHaveLength(1);
  });
});

describe("a burst of events to one webhook", () => {
  /** A webhook with `count` ping events waiting, none sent yet: their invocations, oldest first. */
  const burst = async (path: string, count: number) =>
    (
      await pingsFor(
        path,
        {},
        Array.from({ length: count }, (_, n) => ({ n })),
      )
    ).invocationIds;

  const order = async (path: string) =>
    (await receivedAt(path)).map(
      (request) => (JSON.parse(request.body).payload as { n: number }).n,
    );

  const statuses = async (ids: string[]) =>
    (await db.select().from(webhookInvocations))
      .filter((row) => ids.includes(row.id))
      .map((row) => row.status);

  it("queues a push's first attempts to one webhook as one message, and delivers each in order", async () => {
    const path = `/ok/grouped-${crypto.randomUUID()}`;
    const ids = await burst(path, 3);
    const rows = (await db.select().from(webhookInvocations)).filter((row) => ids.includes(row.id));
    // One message, naming the latest and carrying the others oldest first.
    const messages = firstAttempts(rows.toReversed());
    expect(messages).toEqual([{ invocation_id: ids[2], attempt: 1, also: [ids[0], ids[1]] }]);
    // Through the real queue: its consumer hands the sender each as its own.
    await enqueue(env, SHARD, messages);
    await vi.waitFor(async () => expect(await order(path)).toEqual([0, 1, 2]), {
      timeout: 10_000,
      interval: 200,
    });
    await vi.waitFor(
      async () => expect(await statuses(ids)).toEqual(ids.map(() => "succeeded")),
      10_000,
    );
  });

  it("goes out in order in one message's run, longer than D1's bound values allow one per event", async () => {
    const path = `/ok/burst-${crypto.randomUUID()}`;
    const ids = await burst(path, 45);
    // The last event's message takes every earlier one with it: a run of 45.
    const result = await consume(ids.at(-1) ?? "");
    expect(result.sent).toEqual([]);
    expect(await order(path)).toEqual(Array.from({ length: 45 }, (_, n) => n));
    expect(await statuses(ids)).toEqual(ids.map(() => "succeeded"));
  });

  it("sends more than a run's worth in order, a run at a time, from the latest message, at one claim a run", async () => {
    const path = `/ok/burst-${crypto.randomUUID()}`;
    const ids = await burst(path, 70);
    const latest = ids.at(-1) ?? "";
    // The latest event's message claims the oldest 50 (a run) and sends them; its own turn is next.
    const first = await consume(latest, 1);
    expect(await order(path)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    expect(first.sent.map((sent) => sent.body)).toEqual([
      expect.objectContaining({ invocation_id: latest, attempt: 1 }),
    ]);
    // Back from the queue, it sends the rest, its own last.
    await consume(latest, 1, 2);
    expect(await order(path)).toEqual(Array.from({ length: 70 }, (_, n) => n));
    expect(await statuses(ids)).toEqual(ids.map(() => "succeeded"));
    // The earlier events' own messages, when they come, find nothing left to send.
    const early = await consume(ids[0] ?? "", 1);
    expect(early.sent).toEqual([]);
    expect(await order(path)).toHaveLength(70);
  });
});

describe("a message that comes after the order's five-minute window", () => {
  it("sends its event at once, on its own, instead of waiting for a run that cannot take it", async () => {
    const path = `/ok/late-${crypto.randomUUID()}`;
    const { invocationId } = await invocationFor(path);
    // A backlog more than five minutes deep: the event's message arrives that late.
    await db
      .update(webhookInvocations)
      .set({ createdAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where(eq(webhookInvocations.id, invocationId));
    const result = await consume(invocationId, 1);
    expect(result.sent).toEqual([]);
    expect((await invocation(invocationId)).row).toMatchObject({
      status: "succeeded",
      attempts: 1,
    });
    expect(await receivedAt(path)).toHaveLength(1);
  });
});

describe("webhook sweeper", () => {
  async function swept(now: Date) {
    const queue = captureQueueSends();
    try {
      await sweepDueInvocations(env, SHARD, now);
      return queue.sent.map((sent) => sent.body);
    } finally {
      queue.restore();
    }
  }
  const later = (ms: number) => new Date(Date.now() + ms);
  const grace = Number(env.WEBHOOK_SWEEP_GRACE_SECONDS) * 1000;

  it("queues every unfinished invocation overdue by the grace period, whatever its attempts", async () => {
    const fresh = await invocationFor(`/ok/${crypto.randomUUID()}`);
    const retrying = await invocationFor(`/ok/${crypto.randomUUID()}`);
    await db
      .update(webhookInvocations)
      .set({ status: "retrying", attempts: 3, nextAttemptAt: new Date().toISOString() })
      .where(eq(webhookInvocations.id, retrying.invocationId));
    const early = (await swept(later(grace - 5000))).map((message) => message.invocation_id);
    expect(early).not.toContain(fresh.invocationId);
    expect(early).not.toContain(retrying.invocationId);
    const due = await swept(later(grace + 5000));
    expect(due).toContainEqual({ invocation_id: fresh.invocationId, attempt: 1, shard: SHARD });
    expect(due).toContainEqual({ invocation_id: retrying.invocationId, attempt: 4, shard: SHARD });
  });

  it("leaves alone an invocation with an attempt in flight, until its lease has passed", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    const leaseUntil = later(grace + 60_000);
    await db
      .update(webhookInvocations)
      .set({ leaseUntil: leaseUntil.toISOString() })
      .where(eq(webhookInvocations.id, invocationId));
    const during = await swept(later(grace + 5000));
    expect(during.map((message) => message.invocation_id)).not.toContain(invocationId);
    const after = await swept(new Date(leaseUntil.getTime() + 1000));
    expect(after).toContainEqual({ invocation_id: invocationId, attempt: 1, shard: SHARD });
  });

  it("leaves finished invocations alone", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    await consume(invocationId, 1);
    const sent = await swept(later(grace + 5000));
    expect(sent.map((message) => message.invocation_id)).not.toContain(invocationId);
  });

  it("delivers an invocation whose queue message was lost, through the real queue", async () => {
    // Written by the outbox but never queued: as if the message had been dropped.
    const path = `/ok/${crypto.randomUUID()}`;
    const { invocationId } = await invocationFor(path);
    await sweepDueInvocations(env, SHARD, later(grace + 5000));
    await vi.waitFor(
      async () => {
        const [request] = await receivedAt(path);
        expect(request?.headers["webhook-id"]).toBe(invocationId);
      },
      { timeout: 10_000, interval: 200 },
    );
    await vi.waitFor(
      async () => expect((await invocation(invocationId)).row?.status).toBe("succeeded"),
      10_000,
    );
  });
});

describe("the queue's consumer", () => {
  it("hands each webhook's messages to its sender and is done, before a slow receiver answers", async () => {
    const slowPath = `/slow/900/batch-slow-${crypto.randomUUID()}`;
    const fastPath = `/ok/batch-fast-${crypto.randomUUID()}`;
    const slow = await invocationFor(slowPath);
    const fast = await invocationFor(fastPath);
    const batch = createMessageBatch<WebhookMessage>(
      "keyproof-webhooks",
      [slow, fast].map(({ invocationId }) => ({
        id: `msg-${invocationId}`,
        timestamp: new Date(),
        attempts: 1,
        body: { invocation_id: invocationId, shard: SHARD },
      })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(batch.messages.map((m) => m.id).sort());
    // Acknowledged while the slow receiver still answers: the batch never waits for a receiver.
    const [slowNow] = await receivedAt(slowPath);
    expect(slowNow?.finishedAt ?? null).toBeNull();
    // Each sender sends its webhook's event from its alarm, the fast one's before the slow answer.
    await vi.waitFor(
      async () => {
        expect((await invocation(slow.invocationId)).row?.status).toBe("succeeded");
        expect((await invocation(fast.invocationId)).row?.status).toBe("succeeded");
      },
      { timeout: 10_000, interval: 200 },
    );
    const [slowOne] = await receivedAt(slowPath);
    const [fastOne] = await receivedAt(fastPath);
    expect(fastOne?.at).toBeLessThan(slowOne?.finishedAt ?? 0);
  });
});

describe("a webhook's sender", () => {
  afterEach(() => setD1Outage(false));

  it("keeps what it could not send while D1 is away, wakes again for it, then sends it", async () => {
    const path = `/ok/sender-${crypto.randomUUID()}`;
    const { webhook, invocationId } = await invocationFor(path);
    const sender = env.WEBHOOK_SENDERS.get(env.WEBHOOK_SENDERS.idFromName(webhook.id));
    const kept = () =>
      runInDurableObject(sender, async (_instance, state) => ({
        messages: [...state.storage.kv.list()].length,
        alarm: await state.storage.getAlarm(),
      }));
    setD1Outage(true);
    await sender.accept([{ invocation_id: invocationId, attempt: 1, shard: SHARD }]);
    // Each run that cannot send keeps the message and wakes again: a second after the first,
    // twice as long after each next, SEND_RETRY_MS at most.
    const waits: number[] = [];
    for (let run = 0; run < 7; run++) {
      await runDurableObjectAlarm(sender);
      // The runtime may have run the accept's alarm itself a moment before: its next is set once
      // that run has failed.
      const waiting = await vi.waitFor(async () => {
        const now = await kept();
        expect(now.alarm).not.toBeNull();
        return now;
      });
      expect(waiting.messages).toBe(1);
      waits.push((waiting.alarm ?? 0) - Date.now());
    }
    // A second after the first failure (two, when the runtime's own run came first).
    expect(waits[0]).toBeLessThanOrEqual(2_000);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[3]).toBeGreaterThan(4_000);
    expect(waits[6]).toBeGreaterThan(SEND_RETRY_MS / 2);
    expect(Math.max(...waits)).toBeLessThanOrEqual(SEND_RETRY_MS);
    expect(await receivedAt(path)).toEqual([]);
    setD1Outage(false);
    await runDurableObjectAlarm(sender);
    expect(await kept()).toEqual({ messages: 0, alarm: null });
    expect((await receivedAt(path)).map((request) => request.headers["webhook-id"])).toEqual([
      invocationId,
    ]);
  });
});

describe("webhook dead-letter queue", () => {
  async function deadLetter(invocationId: string, also?: string[]) {
    const batch = createMessageBatch<WebhookMessage>(DEAD_LETTER_QUEUE, [
      {
        id: `dead-${invocationId}`,
        timestamp: new Date(),
        attempts: 1,
        body: { invocation_id: invocationId, attempt: 2, shard: SHARD, ...(also ? { also } : {}) },
      },
    ]);
    const queue = captureQueueSends();
    try {
      const ctx = createExecutionContext();
      await worker.queue(batch, env);
      return { ...(await getQueueResult(batch, ctx)), sent: queue.sent };
    } finally {
      queue.restore();
    }
  }

  it("queues an unfinished invocation again for when its next attempt is due", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`, { retries: 5 });
    await db
      .update(webhookInvocations)
      .set({
        status: "retrying",
        attempts: 1,
        nextAttemptAt: new Date(Date.now() + 30_000).toISOString(),
      })
      .where(eq(webhookInvocations.id, invocationId));
    const result = await deadLetter(invocationId);
    expect(result.sent).toHaveLength(1);
    expect(result.sent[0]?.body).toEqual({ invocation_id: invocationId, attempt: 2, shard: SHARD });
    expect(result.sent[0]?.delaySeconds).toBeGreaterThanOrEqual(29);
    expect(result.sent[0]?.delaySeconds).toBeLessThanOrEqual(30);
  });

  it("marks failed, with the reason, an invocation whose retries are used up", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`, { retries: 1 });
    await db
      .update(webhookInvocations)
      .set({ status: "retrying", attempts: 2 })
      .where(eq(webhookInvocations.id, invocationId));
    const result = await deadLetter(invocationId);
    expect(result.sent).toEqual([]);
    const { row } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(row?.failureReason).toMatch(/dead-letter queue/);
  });

  it("queues again each first attempt a push's one message carried", async () => {
    const ids = (await pingsFor(`/ok/${crypto.randomUUID()}`, {}, [{ n: 0 }, { n: 1 }, { n: 2 }]))
      .invocationIds;
    const [first, second, latest] = ids;
    const result = await deadLetter(latest ?? "", [first ?? "", second ?? ""]);
    expect(result.sent.map((sent) => sent.body.invocation_id)).toEqual(ids);
    for (const sent of result.sent) expect(sent.body.attempt).toBe(1);
  });

  it("acks a finished invocation without sending anything", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    await consume(invocationId, 1);
    const result = await deadLetter(invocationId);
    expect(result.sent).toEqual([]);
  });
});
