import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { withD1 } from "../src/db/d1-calls.ts";
import { directoryDb } from "../src/db/databases.ts";
import { apiKeys, erasingProjects, projects } from "../src/db/directory.ts";
import { projectSettings } from "../src/db/project-settings.ts";
import { sessions } from "../src/db/sessions.ts";
import { eventRows, webhookInvocations } from "../src/db/webhooks.ts";
import { setD1Outage } from "../src/development/d1-simulation.ts";
import {
  deleteProject,
  deleteTestData,
  finishErasingProjects,
  sweepErasedProjects,
} from "../src/domain/project-erasure.ts";
import { RETIRE_AFTER_MS, sweepRetention } from "../src/domain/retention.ts";
import { createSession as createInDomain } from "../src/domain/sessions.ts";
import { sha256Hex } from "../src/lib/encoding.ts";
import { blobOf, connectAndFinish, internal } from "./bridge-calls.ts";
import { closedSession, type Detail, expectErased } from "./erasure-checks.ts";
import {
  call,
  callJson,
  contextOf,
  createSession,
  directory,
  expectProblem,
  newProject,
  type TestProject,
} from "./helpers.ts";
import { everythingInD1, indexed, NOTHING_STORED, objectOf, storageOf } from "./session-objects.ts";

/** Erasure is final in every order of events. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

afterEach(() => setD1Outage(false));

const openOver = (identifier: string) =>
  internal<{ accepted: boolean; reason: string }>("/internal/v1/connections", {
    connection_identifier: identifier,
    ip_address: "198.51.100.9",
    client_version: "SSH-2.0-OpenSSH_9.6",
  });

/** The Worker's bindings as its requests see them: D1 behind the simulation's outages. */
const served = withD1(env);

/** The project's deletion, as its owner makes it in the web app. */
const deleted = (project: TestProject) =>
  deleteProject(
    {
      env: served,
      directory: directoryDb(served),
      shard: project.shard,
      projectId: project.projectId,
      name: "Test project",
    },
    "Test project",
  );

/** A session created while its shard is away (201, its push pending), with a webhook to hear it. */
async function createdWhileShardAway(project: TestProject, key: string, idempotencyKey?: string) {
  await callJson("/api/v1/webhooks/", 201, {
    method: "POST",
    key,
    body: { url: `${env.RECEIVER_URL}/erased-pending` },
  });
  setD1Outage(true, [project.shard]);
  const session = await callJson<Detail>("/api/v1/ssh/collect/sessions/", 201, {
    method: "POST",
    key,
    body: { external_id: "pending-push" },
    headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
  });
  setD1Outage(false, [project.shard]);
  // D1 has none of it yet: the object's alarm is to push it.
  const [row] = await project.db.select().from(sessions).where(eq(sessions.id, session.id));
  expect(row).toBeUndefined();
  expect((await storageOf(objectOf(session.id))).alarm).not.toBeNull();
  return session;
}

/** The session is nowhere: its object holds nothing, D1 has no trace, ssh and its page know none. */
async function expectGone(session: Detail) {
  expect(await storageOf(objectOf(session.id))).toEqual(NOTHING_STORED);
  expect((await call(`/p/${session.connection_identifier}`)).status).toBe(404);
  expect((await openOver(session.connection_identifier)).json).toMatchObject({
    accepted: false,
    reason: "unknown",
  });
  const d1 = await everythingInD1();
  for (const trace of [session.id, session.connection_identifier, "pending-push"])
    expect(d1).not.toContain(trace);
}

describe("a push pending when its project's data is deleted", () => {
  it("is refused once the project is deleted, and its object erases itself", async () => {
    const project = await newProject();
    const session = await createdWhileShardAway(project, project.apiKey);
    await deleted(project);
    // The object's retry comes after the deletion: refused, the object lets the session go.
    await runDurableObjectAlarm(objectOf(session.id));
    await expectGone(session);
    const [tombstone] = await project.db
      .select()
      .from(projectSettings)
      .where(eq(projectSettings.projectId, project.projectId));
    expect(tombstone?.deletedAt).not.toBeNull();
    expect(
      (await directory().select().from(projects).where(eq(projects.id, project.projectId))).length,
    ).toBe(0);
  });

  it("refuses a create an isolate still allows with a key of the deleted project", async () => {
    const project = await newProject();
    await deleted(project);
    // Another isolate knows the key for up to 10 s: the create reaches the object, not D1.
    const made = await createInDomain(contextOf(project), "collect", {
      external_id: "pending-push",
    });
    // Its push, made after the answer, is refused; the object then forgets the session.
    await indexed(made.session.id);
    await expectGone({
      id: made.session.id,
      connection_identifier: made.session.connectionIdentifier,
    } as Detail);
  });

  it("is refused once the test data is deleted, and live data stays", async () => {
    const project = await newProject();
    const live = await createSession<Detail>(project.apiKey, "collect");
    const test = await createdWhileShardAway(project, project.testKey, "made-before-the-deletion");
    await deleteTestData({
      env,
      directory: directory(),
      shard: project.shard,
      projectId: project.projectId,
    });
    await runDurableObjectAlarm(objectOf(test.id));
    await expectGone(test);
    // Its create's answer is not replayed: a repeat of it is told the session is gone.
    const repeat = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: project.testKey,
      body: { external_id: "pending-push" },
      headers: { "idempotency-key": "made-before-the-deletion" },
    });
    await expectProblem(repeat, 410);
    // A test session made after the deletion is kept, as is the live one.
    const later = await createSession<Detail>(project.testKey, "collect");
    for (const [key, session] of [
      [project.apiKey, live],
      [project.testKey, later],
    ] as const)
      expect(
        await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}`, 200, { key }),
      ).toMatchObject({ id: session.id });
  });

  it("never replays a create that was still running when the test data was deleted", async () => {
    const project = await newProject();
    const records = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(project.projectId));
    // A create with an Idempotency-Key, as its middleware runs it: admitted, the session made...
    const print = await sha256Hex("POST /api/v1/ssh/collect/sessions\n{}");
    expect(await records.admit("test:racing", print)).toMatchObject({ kind: "run" });
    const made = await createInDomain(contextOf(project, false), "collect", {
      external_id: "racing",
    });
    // ... "Delete all test data" meanwhile, and only then the create's answer kept.
    await deleteTestData({
      env,
      directory: directory(),
      shard: project.shard,
      projectId: project.projectId,
    });
    await records.settle("test:racing", {
      status: 201,
      headers: {},
      body: JSON.stringify({ id: made.session.id, external_id: "racing" }),
    });
    await indexed(made.session.id);
    const repeat = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: project.testKey,
      body: {},
      headers: { "idempotency-key": "racing" },
    });
    const problem = await expectProblem(repeat, 410);
    expect(JSON.stringify(problem)).not.toContain(made.session.id);
    expect(JSON.stringify(problem)).not.toContain("racing");
  });

  it("sweeps rows a deleted project still has in its shard", async () => {
    const project = await newProject();
    const session = await createSession<Detail>(project.apiKey, "collect", {
      external_id: "pending-push",
    });
    await deleted(project);
    // Put back as a race could have: the cron's sweep finds it by the project's tombstone.
    await project.db.insert(eventRows).values({
      id: `evt_${session.id.slice(3)}`,
      projectId: project.projectId,
      sessionId: null,
      entity: "webhook",
      events: [{ s: "0", t: "ping", p: { marker: "pending-push" }, at: new Date().toISOString() }],
    });
    expect(await everythingInD1()).toContain("pending-push");
    await sweepErasedProjects(env, project.shard);
    expect(await everythingInD1()).not.toContain("pending-push");
  });
});

describe("retention that meets a live object", () => {
  it("erases a session its object still holds through the object: 404 everywhere at once", async () => {
    const closed = await closedSession(5_000);
    await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: closed.apiKey,
      body: { retention_days: 1 },
    });
    // A development day of one second: the sweep finds it past its retention, its object holding it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sweepRetention({ ...env, RETENTION_DAY_SECONDS: "1" }, closed.shard);
    await expectErased(closed, closed.session, closed.traces);
  });

  it("never pushes back a session the sweep erased while its object held it", async () => {
    const closed = await closedSession(2 * 86_400_000);
    await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: closed.apiKey,
      body: { retention_days: 1 },
    });
    // The sweep erases it from D1 alone: by the object's clock it closed long ago, so it is not
    // one the object could still hold — but this one does.
    await sweepRetention(env, closed.shard, new Date(Date.now() + 2 * 86_400_000));
    // A change it pushes (answered at the object) is past its retention: the push is
    // refused, and the object lets it go.
    const path = `/api/v1/ssh/collect/sessions/${closed.session.id}`;
    expect((await call(`${path}/redact/`, { method: "POST", key: closed.apiKey })).status).toBe(
      200,
    );
    await indexed(closed.session.id);
    await expectErased(closed, closed.session, closed.traces);
  });
});

describe("a retired session's object", () => {
  it("reads nothing back for another project's key, nor for the other mode's", async () => {
    const closed = await closedSession(RETIRE_AFTER_MS + 60_000);
    expect(await runDurableObjectAlarm(objectOf(closed.session.id))).toBe(true);
    expect(await storageOf(objectOf(closed.session.id))).toEqual(NOTHING_STORED);
    const other = await newProject({ shard: closed.shard });
    const path = `/api/v1/ssh/collect/sessions/${closed.session.id}`;
    for (const key of [other.apiKey, other.testKey]) {
      await expectProblem(await call(path, { key }), 404);
      expect(await storageOf(objectOf(closed.session.id))).toEqual(NOTHING_STORED);
    }
    // Its own project's key reads it back, as before.
    expect(await callJson<Detail>(path, 200, { key: closed.apiKey })).toMatchObject({
      id: closed.session.id,
    });
  });
});

describe("a DELETE that races its session's push", () => {
  it("leaves no event and no delivery of the session, with a webhook listening", async () => {
    const { apiKey, projectId, db } = await newProject();
    await callJson("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}/raced-delete` },
    });
    const session = await createSession<Detail>(apiKey, "collect");
    const { outcome } = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    expect(outcome).toBe("collected");
    // Inside the 300 ms the bridge's push waits: the proof's events are still only in the object.
    const path = `/api/v1/ssh/collect/sessions/${session.id}`;
    expect((await call(path, { method: "DELETE", key: apiKey })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const log = await callJson<{ items: unknown[] }>(
      `/api/v1/events/?session_id=${session.id}`,
      200,
      { key: apiKey },
    );
    expect(log.items).toEqual([]);
    const rows = await db.select().from(eventRows).where(eq(eventRows.projectId, projectId));
    expect(rows.filter((row) => row.sessionId === session.id)).toEqual([]);
    const deliveries = await db
      .select()
      .from(webhookInvocations)
      .where(eq(webhookInvocations.projectId, projectId));
    expect(deliveries).toEqual([]);
  });
});

describe("a project's deletion that cannot finish (its shard away)", () => {
  it("is whole at once for everyone, and the cron erases what it left", async () => {
    const project = await newProject();
    const session = await createSession<Detail>(project.apiKey, "collect", {
      external_id: "left-behind",
    });
    await indexed(session.id);
    setD1Outage(true, [project.shard]);
    const { erasedNow } = await deleted(project);
    expect(erasedNow).toBe(false);
    // Deleted for everyone already: not listed, no key, no new key, no member.
    expect(
      await directory().select().from(projects).where(eq(projects.id, project.projectId)),
    ).toEqual([]);
    expect(
      await directory().select().from(apiKeys).where(eq(apiKeys.projectId, project.projectId)),
    ).toEqual([]);
    await expectProblem(await call("/api/v1/auth/info/", { key: project.apiKey }), 401);
    // What is left, its note says: the cron goes on with it once the shard answers.
    const noted = () =>
      directory()
        .select()
        .from(erasingProjects)
        .where(eq(erasingProjects.projectId, project.projectId));
    expect(await noted()).toHaveLength(1);
    await finishErasingProjects(served, directoryDb(served));
    expect(await noted()).toHaveLength(1);
    setD1Outage(false, [project.shard]);
    await finishErasingProjects(served, directoryDb(served));
    expect(await noted()).toEqual([]);
    await expectGone(session);
  });

  it("changes nothing when the directory is away, and says so", async () => {
    const project = await newProject();
    setD1Outage(true, ["DIRECTORY"]);
    const refused = await deleted(project).catch((error: Error) => error);
    setD1Outage(false, ["DIRECTORY"]);
    expect((refused as Error).message).toContain("the project was not deleted");
    expect(
      await directory().select().from(projects).where(eq(projects.id, project.projectId)),
    ).toHaveLength(1);
    expect((await call("/api/v1/auth/info/", { key: project.apiKey })).status).toBe(200);
  });
});

describe("a retention change", () => {
  const retentionIn = async (project: TestProject) => {
    const [row] = await project.db
      .select()
      .from(projectSettings)
      .where(eq(projectSettings.projectId, project.projectId));
    return row?.retentionDays;
  };

  it("that answers 503 changed nothing, whichever database was away", async () => {
    const project = await newProject();
    // The key is known to this isolate: the API answers while the directory is away.
    await callJson("/api/v1/project", 200, { key: project.apiKey });
    for (const away of ["DIRECTORY", project.shard]) {
      setD1Outage(true, [away]);
      const answer = await call("/api/v1/project", {
        method: "PATCH",
        key: project.apiKey,
        body: { retention_days: 1 },
      });
      setD1Outage(false, [away]);
      expect((await expectProblem(answer, 503)).detail).toContain("cannot be reached just now");
      expect(await retentionIn(project)).toBe(30);
      expect(await callJson("/api/v1/project", 200, { key: project.apiKey })).toMatchObject({
        retention_days: 30,
      });
    }
    await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: project.apiKey,
      body: { retention_days: 2 },
    });
    expect(await retentionIn(project)).toBe(2);
  });
});
