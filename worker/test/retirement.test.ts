import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { directoryDb } from "../src/db/databases.ts";
import { sessions } from "../src/db/sessions.ts";
import { deleteProject } from "../src/domain/project-erasure.ts";
import { RETIRE_AFTER_MS } from "../src/domain/retention.ts";
import { blobOf, connectAndFinish, internal } from "./bridge-calls.ts";
import { call, callJson, createSession, newProject } from "./helpers.ts";
import {
  changeHeldSession,
  indexed,
  NOTHING_STORED,
  objectOf,
  storageOf,
} from "./session-objects.ts";

/** A closed session's object retires; the session is still read, from the index. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  webhooks: { id: string }[];
}

/**
 * A collected session closed long enough ago to retire (`closedForMs`, just over the retirement's
 * grace by default), as both its object and D1 have it.
 */
async function closedLongAgo(closedForMs = RETIRE_AFTER_MS + 1_000) {
  const project = await newProject();
  const { apiKey, db } = project;
  const session = await createSession<Detail>(apiKey, "collect", {
    webhooks: [{ url: `${env.RECEIVER_URL}/retired`, events: ["status_changed"] }],
  });
  const { outcome } = await connectAndFinish(session.connection_identifier, {
    keys: [blobOf(ed25519?.openssh ?? "")],
  });
  expect(outcome).toBe("collected");
  await indexed(session.id);
  const completedAt = new Date(Date.now() - closedForMs).toISOString();
  await changeHeldSession(session.id, { completedAt });
  await db.update(sessions).set({ completedAt }).where(eq(sessions.id, session.id));
  const path = `/api/v1/ssh/collect/sessions/${session.id}`;
  const before = await callJson<Detail>(path, 200, { key: apiKey });
  return { project, apiKey, db, session, path, before };
}

/**
 * Runs the object's alarm (if one is set) and says what it then stores. On a busy machine the
 * first run may find a push still under way and set the alarm again, as it would in production:
 * polled, the alarm runs each time it would have come.
 */
async function retiredByItsAlarm(sessionId: string) {
  await runDurableObjectAlarm(objectOf(sessionId));
  return storageOf(objectOf(sessionId));
}

describe("a closed session's object", () => {
  it("deletes its own storage once the index has it all, and the session reads the same after", async () => {
    const { apiKey, session, path, before } = await closedLongAgo();
    // Its retirement is due: the read above set the alarm for now. Run here, unless it ran already.
    await expect.poll(() => retiredByItsAlarm(session.id)).toEqual(NOTHING_STORED);

    // Read back from the primary: the same session, its webhooks included.
    expect(await callJson<Detail>(path, 200, { key: apiKey })).toEqual(before);
    const status = await callJson<{ state: string; final: boolean; keys: string[] }>(
      `/p/${session.connection_identifier}/status`,
      200,
    );
    expect(status).toMatchObject({ state: "done", final: true });
    expect(status.keys).toHaveLength(1);
    // ssh to it gets the closed session's sentence, not "unknown".
    const opened = await internal<{ accepted: boolean; reason: string }>(
      "/internal/v1/connections",
      {
        connection_identifier: session.connection_identifier,
        ip_address: "198.51.100.7",
        client_version: "SSH-2.0-OpenSSH_9.6",
      },
    );
    expect(opened.json).toMatchObject({ accepted: false, reason: "completed" });
    // Held again for the calls that come with a read, then it retires again.
    const held = await storageOf(objectOf(session.id));
    expect(held.alarm).not.toBeNull();
    expect(held.alarm ?? 0).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("read back a day after its close, is erased with its project at once: no page, no ssh", async () => {
    const { project, session, path, apiKey } = await closedLongAgo(86_400_000);
    await expect.poll(() => retiredByItsAlarm(session.id)).toEqual(NOTHING_STORED);
    // Its proof page reads it back from D1, and its object holds it again for the reads to come.
    expect((await call(`/p/${session.connection_identifier}`)).status).toBe(200);
    expect((await storageOf(objectOf(session.id))).alarm).not.toBeNull();
    await deleteProject(
      {
        env,
        directory: directoryDb(env),
        shard: project.shard,
        projectId: project.projectId,
        name: "Test project",
      },
      "Test project",
    );
    expect(await storageOf(objectOf(session.id))).toEqual(NOTHING_STORED);
    expect((await call(`/p/${session.connection_identifier}`)).status).toBe(404);
    expect((await call(path, { key: apiKey })).status).toBe(401);
    const opened = await internal<{ accepted: boolean; reason: string }>(
      "/internal/v1/connections",
      {
        connection_identifier: session.connection_identifier,
        ip_address: "198.51.100.7",
        client_version: "SSH-2.0-OpenSSH_9.6",
      },
    );
    expect(opened.json).toMatchObject({ accepted: false, reason: "unknown" });
  });

  it("is deleted through the index once retired, and is then unknown everywhere", async () => {
    const { apiKey, db, session, path } = await closedLongAgo();
    await expect.poll(() => retiredByItsAlarm(session.id)).toEqual(NOTHING_STORED);
    expect((await call(path, { method: "DELETE", key: apiKey })).status).toBe(204);
    expect((await call(path, { key: apiKey })).status).toBe(404);
    expect((await call(`/p/${session.connection_identifier}`)).status).toBe(404);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row).toBeUndefined();
  });

  it("is retired by the alarm its expiry set, when that comes soon after its retirement's time", async () => {
    const { apiKey } = await newProject();
    /** A multi-connection collection with a key, completed by the API: its alarm after the close. */
    const closeOne = async (body: Record<string, unknown>) => {
      const session = await createSession<Detail & { expired_at: string }>(apiKey, "collect", {
        multi_connection: true,
        ...body,
      });
      const { outcome } = await connectAndFinish(session.connection_identifier, {
        keys: [blobOf(ed25519?.openssh ?? "")],
      });
      expect(outcome).toBe("collected");
      await indexed(session.id);
      // Still open, its connection over: the alarm is the expiry's.
      const expiry = Date.parse(session.expired_at);
      expect((await storageOf(objectOf(session.id))).alarm).toBe(expiry);
      const path = `/api/v1/ssh/collect/sessions/${session.id}`;
      await callJson(`${path}/complete/`, 200, { method: "POST", key: apiKey });
      await indexed(session.id);
      // The alarm that guarded the close's push (due seconds after it) sets the next duty's.
      await runDurableObjectAlarm(objectOf(session.id));
      return { expiry, closedAt: Date.now(), alarm: (await storageOf(objectOf(session.id))).alarm };
    };
    // An hour's timeout (the default) ends at most 45 minutes past the 15 of grace: the alarm is
    // the expiry's, and retires the object when it comes — no alarm of its own for retirement.
    const usual = await closeOne({});
    expect(usual.alarm).toBe(usual.expiry);
    // An expiry days away is too long to keep the storage for: the alarm moves to the retirement.
    const longLived = await closeOne({ timeout: 7 * 86_400 });
    expect(longLived.alarm).toBeGreaterThan(longLived.closedAt + RETIRE_AFTER_MS - 5_000);
    expect(longLived.alarm).toBeLessThanOrEqual(longLived.closedAt + RETIRE_AFTER_MS);
  });

  it("stays while the session is open, however old", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", { multi_connection: true });
    await indexed(session.id);
    await runDurableObjectAlarm(objectOf(session.id));
    expect((await storageOf(objectOf(session.id))).entries).toBeGreaterThan(0);
  });
});
