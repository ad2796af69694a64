import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { connections, sessions } from "../src/db/sessions.ts";
import { CONNECTION_LEASE_MS } from "../src/protocol/messages.ts";
import { blobOf, internal } from "./bridge-calls.ts";
import { freshEd25519 } from "./fresh-traces.ts";
import { callJson, createSession, eventTypesOf, newProject } from "./helpers.ts";
import { holdPrimary, releasePrimary } from "./primary-gate.ts";
import { objectOf, storageOf } from "./session-objects.ts";

/**
 * A change is answered once the session's object has stored it; its push to D1 is made after
 * the answer (at once, or 300 ms later for the bridge's). When the process dies in between — a
 * crash, a deploy, workerd killed — the object's alarm, stored with the change, makes the push
 * within seconds: here the object is reset right after the answer, its timer lost with it.
 */

interface Detail {
  id: string;
  connection_identifier: string;
  status: string;
}

/**
 * The session's object is reset, as a process that dies does, while its push waits at D1's
 * primary (held meanwhile): only what it stored is left.
 */
async function crash(sessionId: string) {
  await runInDurableObject(objectOf(sessionId), (_instance, state) =>
    state.abort("the process died"),
  ).catch(() => undefined);
  releasePrimary();
}

afterEach(releasePrimary);

/** The alarm is due within seconds of now, not at the session's expiry. */
async function expectAlarmWithinSeconds(sessionId: string) {
  const { alarm } = await storageOf(objectOf(sessionId));
  expect(alarm).not.toBeNull();
  expect(alarm ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now() + 3_000);
}

const open = (identifier: string) =>
  internal<{ connection_id: string; session_id: string }>("/internal/v1/connections", {
    connection_identifier: identifier,
    ip_address: "198.51.100.7",
    client_version: "SSH-2.0-OpenSSH_9.6",
  });

describe("a change whose push is lost with the process", () => {
  it("a proof that closes the session reaches D1 within seconds, with its events", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    await runDurableObjectAlarm(objectOf(session.id));
    const opened = await open(session.connection_identifier);
    await runDurableObjectAlarm(objectOf(session.id));
    holdPrimary();
    const finished = await internal<{ outcome: string }>(
      `/internal/v1/connections/${opened.json.connection_id}/finish`,
      {
        session_id: session.id,
        keys: [{ key: blobOf(await freshEd25519()), security_key: null }],
        keys_offered: 1,
        confirmed: null,
      },
    );
    expect(finished.json.outcome).toBe("collected");
    await crash(session.id);
    await expectAlarmWithinSeconds(session.id);
    // The alarm comes (run here now; on its own, seconds later), and pushes what was answered.
    await runDurableObjectAlarm(objectOf(session.id));
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row?.status).toBe("completed");
    expect(await eventTypesOf(apiKey, session.id)).toEqual([
      "key_collected",
      "new_connection",
      "status_changed",
    ]);
  });

  it("a connection cut with the process lapses at its lease's end, not at the session's expiry", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    await runDurableObjectAlarm(objectOf(session.id));
    holdPrimary();
    const opened = await open(session.connection_identifier);
    await crash(session.id);
    await expectAlarmWithinSeconds(session.id);
    await runDurableObjectAlarm(objectOf(session.id));
    const [row] = await db
      .select()
      .from(connections)
      .where(eq(connections.id, opened.json.connection_id));
    expect(row?.closedAt).toBeNull();
    // Pushed, the object's next duty is the place's lease: it lapses then, and says so.
    const { alarm } = await storageOf(objectOf(session.id));
    expect(alarm ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now() + CONNECTION_LEASE_MS);
  });

  it("an API write (a create) reaches D1 within seconds", async () => {
    const { apiKey, db } = await newProject();
    await callJson("/api/v1/auth/info/", 200, { key: apiKey });
    holdPrimary();
    const session = await createSession<Detail>(apiKey, "collect", { external_id: "crashed" });
    await crash(session.id);
    await expectAlarmWithinSeconds(session.id);
    await runDurableObjectAlarm(objectOf(session.id));
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row?.externalId).toBe("crashed");
    // Then its alarm is its expiry's, as for any open session.
    const { alarm } = await storageOf(objectOf(session.id));
    expect(alarm ?? 0).toBeGreaterThan(Date.now() + 30 * 60_000);
  });
});
