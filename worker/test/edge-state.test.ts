import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { sessions } from "../src/db/sessions.ts";
import { events, webhookInvocations } from "../src/db/webhooks.ts";
import { primaryCalls, setPrimaryGate } from "../src/development/d1-simulation.ts";
import { objectNameOfIdentifier } from "../src/domain/session-address.ts";
import { pushToIndex } from "../src/session-object/index-push.ts";
import { CONNECTION_ENTRY, SESSION_ENTRY } from "../src/session-object/session-record.ts";
import { SessionStore } from "../src/session-object/session-store.ts";
import { WriteBuffer } from "../src/session-object/write-buffer.ts";
import { processInvocation } from "../src/webhooks/consumer.ts";
import { blobOf, connectAndFinish, internal, openConnection } from "./bridge-calls.ts";
import { call, callJson, createSession, eventTypesOf, newProject } from "./helpers.ts";
import { holdPrimary } from "./primary-gate.ts";
import { indexed, objectOf, storageOf } from "./session-objects.ts";

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

describe("what a session's object writes", () => {
  it("keeps a change's events and its connection in the session's record, and D1 gets each of them", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession(apiKey, "collect");
    await indexed(session.id);
    // D1 away: the proof's events wait in the object.
    setPrimaryGate(async () => {
      throw new Error("D1 is unreachable");
    });
    try {
      await connectAndFinishRaw(session.connection_identifier, session.id);
      type Stored = { outbox?: { events: { type: string }[] }[]; inlined?: object };
      const held = await runInDurableObject(objectOf(session.id), (_instance, state) =>
        [...state.storage.kv.list<Stored>()].map(([key, entry]) => [
          key.replace(/:.*/, ":"),
          {
            events: (entry.outbox ?? []).map((change) => change.events.map((event) => event.type)),
            inlined: Object.keys(entry.inlined ?? {}).map((inner) => inner.replace(/:.*/, ":")),
          },
        ]),
      );
      // Opening is one change (new_connection), finishing another (key_collected,
      // status_changed); each wrote the session (its update time), so their events wait there.
      // The connection lives in the session's record: each change was one record written.
      expect(Object.fromEntries(held.filter(([key]) => key !== "nonce:"))).toEqual({
        [SESSION_ENTRY]: {
          events: [["new_connection"], ["key_collected", "status_changed"]],
          inlined: [CONNECTION_ENTRY],
        },
      });
    } finally {
      setPrimaryGate(null);
    }
    await indexed(session.id);
    const kept = await db.select().from(events).where(eq(events.sessionId, session.id));
    expect(kept.map((event) => event.type).sort()).toEqual([
      "key_collected",
      "new_connection",
      "status_changed",
    ]);
  });

  it("writes no acknowledgement: an object that lost it pushes everything again, and D1 takes it as a no-op", async () => {
    const { apiKey, projectId, db, shard } = await newProject();
    await callJson("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}/ok/${crypto.randomUUID()}` },
    });
    const session = await createSession(apiKey, "collect");
    await connectAndFinishRaw(session.connection_identifier, session.id);
    await indexed(session.id);
    const inD1 = async () => ({
      session: await db.select().from(sessions).where(eq(sessions.id, session.id)),
      events: await db.select().from(events).where(eq(events.sessionId, session.id)),
      deliveries: await db
        .select({ id: webhookInvocations.id })
        .from(webhookInvocations)
        .innerJoin(events, eq(events.id, webhookInvocations.eventId))
        .where(eq(events.sessionId, session.id)),
    });
    const before = await inD1();
    expect(before.events.length).toBeGreaterThanOrEqual(3);
    expect(before.deliveries).toHaveLength(before.events.length);
    // A store over the same storage knows only what the entries kept: an evicted object.
    const changes = await runInDurableObject(objectOf(session.id), (_instance, state) => {
      const evicted = new SessionStore(state.storage);
      expect(evicted.pushed().version).toBeLessThan(evicted.version());
      return evicted.changesSince(evicted.pushed().version);
    });
    expect(changes.events.map((event) => event.type)).toContain("status_changed");
    await pushToIndex(env, {
      shard,
      target: {
        projectId,
        sessionId: session.id,
        kind: "collect",
        livemode: true,
        createdAt: new Date().toISOString(),
        completedAt: null,
      },
      changes,
      newWebhooks: [],
    });
    expect(await inD1()).toEqual(before);
  });

  it("moves connections out of the session's record once together they outgrow it, and reads them back", async () => {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName("write-buffer-growth"));
    const first = `${CONNECTION_ENTRY}a`;
    const second = `${CONNECTION_ENTRY}b`;
    const seen = await runInDurableObject(stub, (_instance, state) => {
      const records = () => [...state.storage.kv.list()].map(([key]) => key).sort();
      const buffer = WriteBuffer.of(state.storage);
      buffer.held(() => {
        buffer.put(SESSION_ENTRY, { id: "s" });
        buffer.put(first, { keys: "" });
        buffer.put(second, { keys: "" });
      });
      const opened = records();
      // Each gains 40 KB of keys: one fits beside the other's small record, two do not (64 KiB).
      buffer.held(() => buffer.put(first, { keys: "x".repeat(40_000) }));
      const oneGrown = records();
      buffer.held(() => buffer.put(second, { keys: "y".repeat(40_000) }));
      const bothGrown = records();
      buffer.forget();
      const readBack = buffer
        .list<{ keys: string }>(CONNECTION_ENTRY)
        .map(([key, value]) => [key, value.keys.length] as const);
      return { opened, oneGrown, bothGrown, readBack, session: buffer.get(SESSION_ENTRY) };
    });
    expect(seen.opened).toEqual([SESSION_ENTRY]);
    expect(seen.oneGrown).toEqual([SESSION_ENTRY]);
    expect(seen.bothGrown).toHaveLength(2);
    expect(seen.bothGrown).toContain(SESSION_ENTRY);
    expect(seen.readBack).toEqual([
      [first, 40_000],
      [second, 40_000],
    ]);
    expect(seen.session).toEqual({ id: "s" });
  });

  it("makes no table for a new session: its object holds entries only", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    await connectAndFinishRaw(session.connection_identifier, session.id);
    await indexed(session.id);
    const stored = await storageOf(objectOf(session.id));
    expect(stored.tables).toBe(0);
    // One entry: the session, with its one connection inside it (write-buffer.ts `inline`).
    expect(stored.entries).toBe(1);
  });
});

describe("a proof never waits on the D1 primary", () => {
  it("opens, finishes and answers reads while every primary call is held, then fills the index", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession(apiKey, "collect");
    await indexed(session.id);
    const primary = holdPrimary();
    try {
      const opened = await internal<{ connection_id: string; session_id: string }>(
        "/internal/v1/connections",
        {
          connection_identifier: session.connection_identifier,
          ip_address: "198.51.100.7",
          client_version: "SSH-2.0-OpenSSH_9.6",
        },
      );
      expect(opened.status).toBe(200);
      const finished = await internal<{ outcome: string }>(
        `/internal/v1/connections/${opened.json.connection_id}/finish`,
        {
          session_id: session.id,
          keys: [{ key: blobOf(ed25519?.openssh ?? ""), security_key: null }],
          keys_offered: 1,
          confirmed: null,
        },
      );
      expect(finished.json.outcome).toBe("collected");
      // Reads near the caller: the session from its object, the page too.
      const fetched = await callJson<{ status: string }>(
        `/api/v1/ssh/collect/sessions/${session.id}/`,
        200,
        { key: apiKey },
      );
      expect(fetched.status).toBe("completed");
      expect((await call(`/p/${session.connection_identifier}`)).status).toBe(200);
      // What did reach for the primary meanwhile: the object's pushes, after each answer.
      expect(primary.calls.every((sql) => /insert|update|delete/i.test(sql))).toBe(true);
      expect(primary.calls.length).toBeLessThanOrEqual(2);
    } finally {
      primary.release();
    }
    await indexed(session.id);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row?.status).toBe("completed");
  });

  it("loses no push when D1 fails: the alarm makes it again", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession(apiKey, "collect");
    await indexed(session.id);
    const outage = { failures: 0 };
    setPrimaryGate(async () => {
      outage.failures++;
      throw new Error("D1 is unreachable");
    });
    try {
      const finished = await connectAndFinishRaw(session.connection_identifier, session.id);
      expect(finished.json.outcome).toBe("collected");
      await expect.poll(() => outage.failures).toBeGreaterThan(0);
    } finally {
      setPrimaryGate(null);
    }
    const indexedStatus = async () =>
      (await db.select().from(sessions).where(eq(sessions.id, session.id)))[0]?.status;
    expect(await indexedStatus()).toBe("pending");
    await runDurableObjectAlarm(objectOf(session.id));
    expect(await indexedStatus()).toBe("completed");
    expect(await eventTypesOf(apiKey, session.id)).toEqual([
      "key_collected",
      "new_connection",
      "status_changed",
    ]);
  });

  it("never lets an older push overwrite a newer one", async () => {
    const { apiKey, projectId, db, shard } = await newProject();
    const session = await createSession(apiKey, "collect", { multi_connection: true });
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const [newer] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    if (!newer) throw new Error("not indexed");
    const older = { ...newer, version: newer.version - 1, failedAttempts: 99, updatedAt: "2000" };
    await pushToIndex(env, {
      shard,
      target: {
        projectId,
        sessionId: session.id,
        kind: "collect",
        livemode: true,
        createdAt: new Date().toISOString(),
        completedAt: null,
      },
      changes: {
        version: older.version,
        session: { ...older, deleted: false },
        keys: [],
        authorities: [],
        connections: [],
        connectionKeys: [],
        events: [],
      },
      newWebhooks: [],
    });
    const [after] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(after).toEqual(newer);
  });
});

describe("reads near the caller, with read-your-writes", () => {
  it("answers every API request with a bookmark, and reads a list at least that fresh", async () => {
    const { apiKey } = await newProject();
    const created = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body: { external_id: "fresh" },
    });
    const bookmark = created.headers.get("keyproof-bookmark") ?? "";
    const { id } = (await created.json()) as { id: string };
    // Sealed by the Worker; a create answered at its object names its session.
    expect(bookmark).toMatch(new RegExp(`^first-unconstrained @\\d{10} ${id}\\.[\\w-]{22}$`));
    const list = await call("/api/v1/ssh/collect/sessions/?external_id=fresh", {
      key: apiKey,
      headers: { "keyproof-bookmark": bookmark },
    });
    // The list showed the session from its object, without waiting for its push: its answer's
    // bookmark names it still, or, once the push has landed, is D1's bookmark after it.
    const body = (await list.json()) as { items: { id: string }[] };
    expect(body.items.map((item) => item.id)).toEqual([id]);
    const after = list.headers.get("keyproof-bookmark") ?? "";
    expect(after).toMatch(new RegExp(`( @\\d{10} ${id}|^[0-9a-f]{8}(-[0-9a-f]+)+)\\.[\\w-]{22}$`));
    // Once the push has landed, a read sent no bookmark finds it in D1 too.
    await indexed(id);
    const plain = await call("/api/v1/ssh/collect/sessions/?external_id=fresh", { key: apiKey });
    expect(
      ((await plain.json()) as { items: { id: string }[] }).items.map((item) => item.id),
    ).toEqual([id]);
    const read = plain.headers.get("keyproof-bookmark") ?? "";
    expect(read).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+\.[\w-]{22}$/);
    // Even a refusal carries one, and a bookmark that is not one is named.
    const refused = await call("/api/v1/ssh/collect/sessions/", {
      key: apiKey,
      headers: { "keyproof-bookmark": "not a bookmark" },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("keyproof-bookmark")).not.toBeNull();
    expect((await refused.json()) as unknown).toMatchObject({
      errors: [{ location: "header.keyproof-bookmark" }],
    });
  });

  it("finds a session's object from its identifier or its id, without D1", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "verify", {
      keys: [{ public_key: ed25519?.openssh }],
    });
    expect(session.id.slice(-16)).toBe(objectNameOfIdentifier(session.connection_identifier));
    expect(session.connection_identifier).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    // Its create's push, which follows the answer, is done first.
    await indexed(session.id);
    const primary = holdPrimary();
    try {
      const status = await call(`/p/${session.connection_identifier}/status`);
      expect(status.status).toBe(200);
    } finally {
      primary.release();
    }
    expect(primary.calls).toEqual([]);
  });
});

describe("webhook bursts cost D1 per run, not per event", () => {
  it("sends a burst to one receiver in order with one claim and one record for the run", async () => {
    const { apiKey, db, shard } = await newProject();
    const path = `/ok/${crypto.randomUUID()}`;
    await callJson("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}${path}`, events: ["new_connection"] },
    });
    const session = await createSession(apiKey, "collect", { multi_connection: true });
    const queue = vi
      .spyOn(env.WEBHOOK_QUEUE, "sendBatch")
      .mockResolvedValue({} as QueueSendBatchResponse);
    try {
      for (let i = 0; i < 6; i++) await openConnection(session.connection_identifier);
    } finally {
      queue.mockRestore();
    }
    const invocations = await db
      .select({ id: webhookInvocations.id })
      .from(webhookInvocations)
      .innerJoin(events, eq(events.id, webhookInvocations.eventId))
      .where(eq(events.sessionId, session.id))
      .orderBy(webhookInvocations.id);
    expect(invocations).toHaveLength(6);
    const last = invocations.at(-1)?.id ?? "";
    const before = primaryCalls.length;
    await processInvocation(env, shard, { invocation_id: last, attempt: 1 }, new Date());
    const statements = primaryCalls.length - before;
    // Find it, claim the run, read the run, record the run: whatever its length.
    expect(statements).toBeLessThanOrEqual(4);
    const received = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
      path: string;
      body: string;
    }[];
    const ids = received
      .filter((request) => request.path === path)
      .map(
        (request) =>
          (JSON.parse(request.body) as { webhook_invocation_id: string }).webhook_invocation_id,
      );
    expect(ids).toEqual(invocations.map((row) => row.id));
  });
});

/** The bridge's open and finish, without waiting for the index afterwards. */
async function connectAndFinishRaw(identifier: string, sessionId: string) {
  const opened = await internal<{ connection_id: string }>("/internal/v1/connections", {
    connection_identifier: identifier,
    ip_address: "198.51.100.7",
    client_version: "SSH-2.0-OpenSSH_9.6",
  });
  return internal<{ outcome: string }>(
    `/internal/v1/connections/${opened.json.connection_id}/finish`,
    {
      session_id: sessionId,
      keys: [{ key: blobOf(ed25519?.openssh ?? ""), security_key: null }],
      keys_offered: 1,
      confirmed: null,
    },
  );
}
