import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { webhookInvocations } from "../src/db/webhooks.ts";
import { processInvocation } from "../src/webhooks/consumer.ts";
import { sweepDueInvocations } from "../src/webhooks/sweeper.ts";
import { connectAndFinish } from "./bridge-calls.ts";
import { callJson, createSession, newProject } from "./helpers.ts";

/**
 * A first attempt's queue message is sent before its push commits, so the invocation
 * needs no entry in the sweep's index (a row written less a delivery); only when the queue
 * refused the message is the attempt due there, for the every-minute sweep.
 */

afterEach(() => vi.restoreAllMocks());

type Delivery = { id: string; status: string; next_attempt_at: string | null; created_at: string };

/** A project whose webhook hears `new_connection`, and a session to make one. */
async function listening() {
  const project = await newProject();
  const webhook = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
    method: "POST",
    key: project.apiKey,
    body: { url: `${env.RECEIVER_URL}/ok/${crypto.randomUUID()}`, events: ["new_connection"] },
  });
  const session = await createSession<{ connection_identifier: string }>(project.apiKey, "collect");
  return { project, webhook, session };
}

const invocationRow = (db: Awaited<ReturnType<typeof newProject>>["db"], id: string) =>
  db.select().from(webhookInvocations).where(eq(webhookInvocations.id, id));

/** The one invocation of a webhook. */
const invocationOf = (db: Awaited<ReturnType<typeof newProject>>["db"], webhookId: string) =>
  db.select().from(webhookInvocations).where(eq(webhookInvocations.webhookId, webhookId));

/** The invocation ids queued from now on, kept here rather than sent. */
function queuedFromNowOn() {
  const sent: string[] = [];
  vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockImplementation(async (messages) => {
    for (const message of messages)
      sent.push((message.body as { invocation_id: string }).invocation_id);
    return {} as QueueSendBatchResponse;
  });
  return sent;
}

describe("a first attempt queued before its commit", () => {
  it("is queued while D1 has no invocation yet, and is not in the sweep's index", async () => {
    const { project, webhook, session } = await listening();
    const send = env.WEBHOOK_QUEUE.sendBatch.bind(env.WEBHOOK_QUEUE);
    const queued: { id: string; inD1: boolean }[] = [];
    vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockImplementation(async (messages) => {
      for (const message of messages) {
        const id = (message.body as { invocation_id: string }).invocation_id;
        queued.push({ id, inD1: (await invocationRow(project.db, id)).length > 0 });
      }
      return send(messages);
    });
    await connectAndFinish(session.connection_identifier, { keys: [] });

    expect(queued).toHaveLength(1);
    expect(queued[0]?.inD1).toBe(false);
    const [row] = await invocationRow(project.db, queued[0]?.id ?? "");
    expect(row?.nextAttemptAt).toBeNull();
    expect(row?.webhookId).toBe(webhook.id);
    // The API says it is due from when it was made, as before.
    const { items } = await callJson<{ items: Delivery[] }>(
      `/api/v1/webhooks/${webhook.id}/deliveries/`,
      200,
      { key: project.apiKey },
    );
    const [delivery] = items;
    expect(delivery?.id).toBe(row?.id);
    if (delivery?.status === "pending") expect(delivery.next_attempt_at).toBe(delivery.created_at);
    else expect(delivery?.next_attempt_at).toBeNull();
  });

  it("asks again for an invocation its push has not committed yet, a few times", async () => {
    const project = await newProject();
    const message = { invocation_id: `whi_${"0".repeat(26)}${"1".repeat(26)}`, attempt: 1 };
    const now = new Date();
    expect(await processInvocation(env, project.shard, message, now, 1)).toMatchObject({
      kind: "later",
    });
    expect(await processInvocation(env, project.shard, message, now, 3)).toEqual({ kind: "done" });
    // A later attempt's message for no invocation is let go at once.
    expect(await processInvocation(env, project.shard, { ...message, attempt: 2 }, now, 1)).toEqual(
      { kind: "done" },
    );
  });

  it("is queued again by the sweep in development, where a restart loses the local queue", async () => {
    const { project, webhook, session } = await listening();
    // The message is taken and then lost, as `wrangler dev`'s queue loses it in a restart.
    vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockResolvedValue({} as QueueSendBatchResponse);
    await connectAndFinish(session.connection_identifier, { keys: [] });
    const [row] = await invocationOf(project.db, webhook.id);
    expect(row?.nextAttemptAt).toBeNull();

    const sent = queuedFromNowOn();
    const later = new Date(Date.parse(row?.createdAt ?? "") + 10 * 60_000);
    // Production's Queues keep the message: its sweep reads only what is due.
    await sweepDueInvocations({ ...env, ENVIRONMENT: "production" }, project.shard, later);
    expect(sent).not.toContain(row?.id);
    await sweepDueInvocations(env, project.shard, later);
    expect(sent).toContain(row?.id);
  });

  it("is due in the sweep's index when the queue refused it, and the sweep sends it", async () => {
    const { project, webhook, session } = await listening();
    vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockRejectedValueOnce(new Error("queue away"));
    await connectAndFinish(session.connection_identifier, { keys: [] });

    const [row] = await invocationOf(project.db, webhook.id);
    expect(row?.status).toBe("pending");
    expect(row?.nextAttemptAt).toBe(row?.createdAt);
    const sent = queuedFromNowOn();
    const later = new Date(Date.parse(row?.createdAt ?? "") + 10 * 60_000);
    await sweepDueInvocations(env, project.shard, later);
    expect(sent).toContain(row?.id);
  });
});
