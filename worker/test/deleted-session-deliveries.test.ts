import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORGOTTEN_KEPT_MS } from "../src/webhooks/sender-object.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { freshEd25519 } from "./fresh-traces.ts";
import { call, callJson, createSession, newProject } from "./helpers.ts";

interface Received {
  path: string;
  at: number;
  finishedAt: number | null;
}

async function receivedAt(path: string): Promise<Received[]> {
  const all = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as Received[];
  return all.filter((request) => request.path === path);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a deleted session's deliveries", () => {
  it("end with the DELETE's answer: the one in flight has finished, the rest are never sent", async () => {
    const { apiKey } = await newProject();
    // Each delivery takes 0.4 s to answer (the tests' timeout is 1 s), so the session's events go out one after another.
    const path = `/slow/400/deleted-${crypto.randomUUID()}`;
    const webhook = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}${path}` },
    });
    const session = await createSession(apiKey, "collect", {});
    // A connection that proves a key: several events, each a delivery to the slow receiver.
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(await freshEd25519())],
    });
    await expect
      .poll(async () => (await receivedAt(path)).length, { timeout: 20_000, interval: 50 })
      .toBeGreaterThan(0);
    const deleted = await call(`/api/v1/ssh/collect/sessions/${session.id}/`, {
      method: "DELETE",
      key: apiKey,
    });
    expect(deleted.status).toBe(204);
    const answeredAt = Date.now();
    // Long enough for two more deliveries, had the rest of the session's events gone on.
    await sleep(3000);
    const requests = await receivedAt(path);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.at).toBeLessThan(answeredAt);
      // Answered before the 204, or (on a machine so busy the test's 1 s timeout cut it) given
      // up before it: either way nothing of it reached the receiver after the answer.
      if (request.finishedAt !== null) expect(request.finishedAt).toBeLessThanOrEqual(answeredAt);
    }
    // The sender remembers the deletion for a day, then forgets it and keeps nothing.
    const sender = env.WEBHOOK_SENDERS.get(env.WEBHOOK_SENDERS.idFromName(webhook.id));
    const stored = () =>
      runInDurableObject(sender, async (_instance, state) => ({
        keys: [...state.storage.kv.list()].map(([key]) => key),
        alarm: await state.storage.getAlarm(),
      }));
    const remembered = await stored();
    expect(remembered.keys).toEqual([`forgotten:${session.id}`]);
    expect(remembered.alarm).toBeGreaterThan(Date.now() + FORGOTTEN_KEPT_MS - 60_000);
    await runInDurableObject(sender, (_instance, state) =>
      state.storage.kv.put(`forgotten:${session.id}`, Date.now() - FORGOTTEN_KEPT_MS - 1),
    );
    await runInDurableObject(sender, (_instance, state) => state.storage.setAlarm(Date.now()));
    await runDurableObjectAlarm(sender);
    expect(await stored()).toEqual({ keys: [], alarm: null });
  });
});
