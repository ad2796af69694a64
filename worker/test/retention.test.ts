import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { projectInvitations, projectMembers, webSessions } from "../src/db/directory.ts";
import { eventRows, invocationIdOf, webhookInvocations } from "../src/db/webhooks.ts";
import {
  INVITATION_KEPT_DAYS,
  PING_KEPT_DAYS,
  sweepExpiredAccess,
  sweepExpiredPings,
} from "../src/domain/housekeeping.ts";
import { RETIRE_AFTER_MS, sweepRetention } from "../src/domain/retention.ts";
import { encodeTime, newId, randomBase32 } from "../src/lib/ids.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { closedSession, type Detail, deliveriesIn, expectErased } from "./erasure-checks.ts";
import { call, callJson, createSession, directory, expectProblem, newProject } from "./helpers.ts";
import { everythingInD1, indexed, NOTHING_STORED, objectOf, storageOf } from "./session-objects.ts";

/** Retention per project; erasure by the object's alarm and by the sweep. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const DAY_MS = 86_400_000;

describe("retention_days", () => {
  it("is read and changed on /api/v1/project, 1 … 3650, a 400 naming the field otherwise", async () => {
    const { apiKey, projectId } = await newProject();
    expect(await callJson("/api/v1/project", 200, { key: apiKey })).toMatchObject({
      id: projectId,
      retention_days: 30,
    });
    for (const retention_days of [0, 3651, 2.5, "7"]) {
      const problem = await expectProblem(
        await call("/api/v1/project", { method: "PATCH", key: apiKey, body: { retention_days } }),
        400,
      );
      expect(problem.errors?.map((error) => error.location)).toContain("body.retention_days");
    }
    const changed = await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: apiKey,
      body: { retention_days: 7 },
    });
    expect(changed).toMatchObject({ retention_days: 7 });
  });
});

describe("a closed session past its project's retention", () => {
  it("is erased by its object's alarm: every surface, D1 and the object's storage", async () => {
    const { apiKey, projectId, db, session, traces } = await closedSession(2 * DAY_MS);
    await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: apiKey,
      body: { retention_days: 1 },
    });
    expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
    await expectErased({ apiKey, projectId, db }, session, traces);
  });

  it("is erased by the sweep once its object retired, and retention is counted per project", async () => {
    const { apiKey, projectId, db, shard, session, traces } = await closedSession(
      RETIRE_AFTER_MS + 60_000,
    );
    // Kept for now (30 days): the object retires and the session stays listed, in its shard.
    expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
    expect(await storageOf(objectOf(session.id))).toEqual(NOTHING_STORED);
    const listed = async () =>
      (
        await callJson<{ items: { id: string }[] }>("/api/v1/ssh/collect/sessions/", 200, {
          key: apiKey,
        })
      ).items.map((item) => item.id);
    await sweepRetention(env, shard);
    expect(await listed()).toEqual([session.id]);
    // A year ago by another project's measure does not count here: this one keeps 30 days.
    await sweepRetention(env, shard, new Date(Date.now() + 29 * DAY_MS));
    expect(await listed()).toEqual([session.id]);
    // Thirty days on, the sweep erases it from its shard, in a batch, asking no object.
    await sweepRetention(env, shard, new Date(Date.now() + 31 * DAY_MS));
    await expectErased({ apiKey, projectId, db }, session, traces);
  });

  it("never touches an open session", async () => {
    const { apiKey, shard } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", { multi_connection: true });
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    await indexed(session.id);
    await sweepRetention(env, shard, new Date(Date.now() + 4000 * DAY_MS));
    const got = await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}`, 200, {
      key: apiKey,
    });
    expect(got.status).toBe("pending");
  });
});

describe("DELETE", () => {
  it("erases the session's events and delivery records too", async () => {
    const { apiKey, projectId, db, session } = await closedSession(0);
    const path = `/api/v1/ssh/collect/sessions/${session.id}`;
    expect((await call(path, { method: "DELETE", key: apiKey })).status).toBe(204);
    // Its object keeps no tombstone once D1 has the deletion (its push, a moment after the
    // answer).
    await expect
      .poll(() => storageOf(objectOf(session.id)), { timeout: 10_000 })
      .toEqual(NOTHING_STORED);
    await expectProblem(await call(path, { key: apiKey }), 404);
    const events = await callJson<{ items: unknown[] }>("/api/v1/events/", 200, { key: apiKey });
    expect(events.items).toEqual([]);
    // (The key itself is in an open session of the test before: only this session's own ids.)
    const after = await everythingInD1();
    for (const trace of [session.id, session.connection_identifier])
      expect(after).not.toContain(trace);
    expect(await deliveriesIn(db, projectId)).toBe(0);
  });
});

describe("what is not a session's", () => {
  it("expires and is swept: web sessions, invitations, test pings and their deliveries", async () => {
    const { projectId, apiKey, db } = await newProject();
    const webhook = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}/pings` },
    });
    const [member] = await directory()
      .select({ accountId: projectMembers.accountId })
      .from(projectMembers)
      .where(eq(projectMembers.projectId, projectId));
    const accountId = member?.accountId ?? "";
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
    const rows = {
      expiredWeb: randomBase32(40),
      liveWeb: randomBase32(40),
      oldInvitation: newId("inv"),
      newInvitation: newId("inv"),
      // (newId never goes back in time: an old id is made by hand.)
      oldPing: `evt_${encodeTime(now.getTime() - (PING_KEPT_DAYS + 1) * DAY_MS)}${randomBase32(16)}`,
      newPing: newId("evt"),
    };
    await directory().batch([
      directory()
        .insert(webSessions)
        .values([
          { id: rows.expiredWeb, accountId, createdAt: at(-31), expiresAt: at(-1) },
          { id: rows.liveWeb, accountId, createdAt: at(0), expiresAt: at(30) },
        ]),
      directory()
        .insert(projectInvitations)
        .values(
          [
            [rows.oldInvitation, at(-INVITATION_KEPT_DAYS - 8)],
            [rows.newInvitation, at(7)],
          ].map(([id, expiresAt]) => ({
            id: id ?? "",
            projectId,
            tokenHash: randomBase32(40),
            createdBy: accountId,
            createdAt: at(-40),
            expiresAt: expiresAt ?? "",
          })),
        ),
    ]);
    await db.batch([
      db.insert(eventRows).values(
        [rows.oldPing, rows.newPing].map((id) => ({
          id,
          projectId,
          sessionId: null,
          entity: "webhook" as const,
          events: [{ s: id.slice(-1), t: "ping" as const, p: {}, at: at(0) }],
        })),
      ),
      db.insert(webhookInvocations).values(
        [rows.oldPing, rows.newPing].map((eventId) => ({
          id: invocationIdOf(eventId, webhook.id),
          webhookId: webhook.id,
          projectId,
          eventId,
          status: "succeeded" as const,
          attempts: 1,
          createdAt: at(0),
          updatedAt: at(0),
        })),
      ),
    ]);
    expect(await sweepExpiredAccess(directory(), now)).toMatchObject({
      webSessions: 1,
      invitations: 1,
    });
    expect(await sweepExpiredPings(db, now)).toBe(1);
    const left = await everythingInD1();
    for (const gone of [rows.expiredWeb, rows.oldInvitation, rows.oldPing])
      expect(left).not.toContain(gone);
    for (const kept of [rows.liveWeb, rows.newInvitation, rows.newPing])
      expect(left).toContain(kept);
    // The old ping's delivery went with it; the new one's stays.
    const deliveries = await db
      .select({ eventId: webhookInvocations.eventId })
      .from(webhookInvocations)
      .where(eq(webhookInvocations.projectId, projectId));
    expect(deliveries).toEqual([{ eventId: rows.newPing }]);
  });
});
