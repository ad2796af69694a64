import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookInvocations, webhooks } from "../src/db/webhooks.ts";
import { outboxRows } from "../src/domain/events.ts";
import { createWebhook } from "../src/domain/webhooks.ts";
import worker from "../src/index.ts";
import { outboxStatements } from "../src/webhooks/outbox.ts";
import { db, newProject } from "./helpers.ts";

/** A webhook pointing at the test receiver, and one invocation written but not queued. */
async function invocationFor(
  path: string,
  options: { retries?: number; initial_backoff?: number; backoff_multiplier?: number } = {},
) {
  const { projectId } = await newProject();
  const ctx = { db: db(), env, projectId, now: new Date() };
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
    { projectId, sessionId: null, entity: "webhook" },
    [{ type: "ping", payload: { hello: "world" } }],
    [webhook],
    new Date(),
  );
  await db().batch(outboxStatements(db(), rows) as [ReturnType<typeof outboxStatements>[number]]);
  const invocation = rows.invocations[0];
  if (!invocation) throw new Error("no invocation");
  return { webhook, invocationId: invocation.id };
}

/**
 * Runs the Worker's queue handler on one message, as Queues would. getQueueResult does not
 * report retry delays, so the delay each retry asks for is read off a spy on `retry`.
 */
async function consume(invocationId: string, attempts = 1) {
  const batch = createMessageBatch<{ invocation_id: string }>("keyproof-webhooks", [
    {
      id: `msg-${invocationId}-${attempts}`,
      timestamp: new Date(),
      attempts,
      body: { invocation_id: invocationId },
    },
  ]);
  const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([options]) => options?.delaySeconds));
  return {
    ...result,
    retryMessages: result.retryMessages.map((message, i) => ({
      ...message,
      delaySeconds: delays[i],
    })),
  };
}

/** As if the queue held the message back for the whole delay it asked for. */
async function makeDue(invocationId: string) {
  await db()
    .update(webhookInvocations)
    .set({ nextAttemptAt: new Date().toISOString() })
    .where(eq(webhookInvocations.id, invocationId));
}

async function invocation(id: string) {
  const [row] = await db().select().from(webhookInvocations).where(eq(webhookInvocations.id, id));
  const attempts = await db()
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.invocationId, id))
    .orderBy(webhookAttempts.attempt);
  return { row, attempts };
}

async function receivedAt(path: string) {
  const all = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
    path: string;
    headers: Record<string, string>;
    body: string;
  }[];
  return all.filter((request) => request.path === path);
}

describe("webhook queue consumer", () => {
  it("acks a 2xx and records the attempt", async () => {
    const path = `/ok/${crypto.randomUUID()}`;
    const { webhook, invocationId } = await invocationFor(path);
    const result = await consume(invocationId);
    expect(result.explicitAcks).toEqual([`msg-${invocationId}-1`]);
    expect(result.retryMessages).toEqual([]);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      statusCode: 200,
      responseBody: "ok",
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

  it("retries a 5xx after initial_backoff × backoff_multiplier^(n-1)", async () => {
    const { invocationId } = await invocationFor(`/status/503/${crypto.randomUUID()}`, {
      initial_backoff: 7,
      backoff_multiplier: 3,
    });
    const first = await consume(invocationId, 1);
    expect(first.retryMessages).toEqual([{ msgId: `msg-${invocationId}-1`, delaySeconds: 7 }]);
    await makeDue(invocationId);
    const second = await consume(invocationId, 2);
    expect(second.retryMessages).toEqual([{ msgId: `msg-${invocationId}-2`, delaySeconds: 21 }]);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "retrying", attempts: 2 });
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([503, 503]);
    expect(attempts[0]?.responseBody).toBe("status 503");
  });

  it("retries a timeout", async () => {
    const { invocationId } = await invocationFor(`/slow/3000/${crypto.randomUUID()}`, {
      initial_backoff: 5,
    });
    const result = await consume(invocationId);
    expect(result.retryMessages).toEqual([{ msgId: `msg-${invocationId}-1`, delaySeconds: 5 }]);
    const { attempts } = await invocation(invocationId);
    expect(attempts[0]).toMatchObject({ statusCode: null, error: "No response within 1 s" });
  });

  it("honours Retry-After when it is longer than the backoff", async () => {
    const { invocationId } = await invocationFor(`/retry-after/120/${crypto.randomUUID()}`, {
      initial_backoff: 5,
    });
    const result = await consume(invocationId);
    expect(result.retryMessages).toEqual([{ msgId: `msg-${invocationId}-1`, delaySeconds: 120 }]);
  });

  it("disables the webhook on 410 and stops", async () => {
    const { webhook, invocationId } = await invocationFor(`/status/410/${crypto.randomUUID()}`);
    const result = await consume(invocationId);
    expect(result.explicitAcks).toHaveLength(1);
    const { row } = await invocation(invocationId);
    expect(row?.status).toBe("failed");
    const [after] = await db().select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(after?.enabled).toBe(false);
  });

  it("gives up after `retries` retries and marks the invocation failed", async () => {
    const { invocationId } = await invocationFor(`/status/500/${crypto.randomUUID()}`, {
      retries: 2,
      initial_backoff: 1,
    });
    expect((await consume(invocationId, 1)).retryMessages).toHaveLength(1);
    await makeDue(invocationId);
    expect((await consume(invocationId, 2)).retryMessages).toHaveLength(1);
    await makeDue(invocationId);
    const last = await consume(invocationId, 3);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toHaveLength(1);
    const { row, attempts } = await invocation(invocationId);
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    expect(attempts).toHaveLength(3);
  });

  it("waits out a delay longer than Queues allow in steps, without an attempt", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    const dueAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await db()
      .update(webhookInvocations)
      .set({ status: "retrying", attempts: 1, nextAttemptAt: dueAt })
      .where(eq(webhookInvocations.id, invocationId));
    const result = await consume(invocationId);
    expect(result.retryMessages).toEqual([
      { msgId: `msg-${invocationId}-1`, delaySeconds: 43_200 },
    ]);
    expect((await invocation(invocationId)).attempts).toHaveLength(0);
  });

  it("acks a message whose invocation already succeeded (duplicate delivery)", async () => {
    const { invocationId } = await invocationFor(`/ok/${crypto.randomUUID()}`);
    await consume(invocationId);
    const again = await consume(invocationId, 2);
    expect(again.explicitAcks).toHaveLength(1);
    expect((await invocation(invocationId)).attempts).toHaveLength(1);
  });
});
