import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { projects } from "../src/db/directory.ts";
import { connections, sessions } from "../src/db/sessions.ts";
import { events, webhookInvocations } from "../src/db/webhooks.ts";
import {
  primaryCalls,
  sessionsOpened,
  setD1Outage,
  setPrimaryGate,
} from "../src/development/d1-simulation.ts";
import { deleteTestData } from "../src/domain/project-erasure.ts";
import { idempotentSessionIds } from "../src/domain/session-address.ts";
import { metricCounts } from "../src/lib/metrics.ts";
import { asIndexError, isD1KnownAway, isIndexUnavailable } from "../src/lib/unavailable.ts";
import { writePushes } from "../src/session-object/index-push.ts";
import { blobOf, connectAndFinish, finishConnection, openConnection } from "./bridge-calls.ts";
import {
  call,
  callJson,
  contextOf,
  createSession,
  directory,
  expectProblem,
  newProject,
} from "./helpers.ts";
import { changeHeldSession, indexed, objectOf, storageOf } from "./session-objects.ts";
import { browserWithProject, signedUpBrowser } from "./web-client.ts";

/** Test and live never mix, erasure reaches every copy, and the smaller items. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const DAY_MS = 86_400_000;

interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  connections: { id: string; outcome: string }[];
}

afterEach(() => {
  setD1Outage(false);
  setPrimaryGate(null);
  vi.restoreAllMocks();
});

const createWithKey = (apiKey: string, key: string, body: Record<string, unknown> = {}) =>
  call("/api/v1/ssh/collect/sessions/", {
    method: "POST",
    key: apiKey,
    body,
    headers: { "idempotency-key": key },
  });

describe("modes never mix", () => {
  it("lets a test key read the project's settings but not change them; a live key changes them", async () => {
    const { apiKey, testKey } = await newProject();
    const read = await callJson<{ retention_days: number }>("/api/v1/project", 200, {
      key: testKey,
    });
    expect(read.retention_days).toBe(30);
    for (const days of [1, 3650]) {
      const refused = await call("/api/v1/project", {
        method: "PATCH",
        key: testKey,
        body: { retention_days: days },
      });
      expect((await expectProblem(refused, 403)).detail).toContain("test key");
    }
    expect(await callJson("/api/v1/project", 200, { key: apiKey })).toMatchObject({
      retention_days: 30,
    });
    expect(
      await callJson("/api/v1/project", 200, {
        method: "PATCH",
        key: apiKey,
        body: { retention_days: 7 },
      }),
    ).toMatchObject({ retention_days: 7 });
  });

  it("keeps each mode's Idempotency-Keys apart, whatever a key looks like", async () => {
    const { apiKey, testKey } = await newProject();
    const test = await createWithKey(testKey, "K");
    expect(test.status).toBe(201);
    const live = await createWithKey(apiKey, "test:K");
    expect(live.status).toBe(201);
    expect(live.headers.get("idempotent-replayed")).toBeNull();
    expect(await live.json()).toMatchObject({ livemode: true });
    const testAgain = await createWithKey(testKey, "K");
    expect(testAgain.headers.get("idempotent-replayed")).toBe("true");
  });

  it("gives test traffic a rate-limit bucket of its own", async () => {
    const { apiKey, testKey } = await newProject();
    const limit = 600;
    let refused = 0;
    for (let i = 0; i < limit + 20; i += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call("/api/v1/auth/info/", { key: testKey })),
      );
      refused += answers.filter((answer) => answer.status === 429).length;
    }
    expect(refused).toBeGreaterThan(0);
    expect((await call("/api/v1/auth/info/", { key: apiKey })).status).toBe(200);
  });
});

describe("bookmarks", () => {
  it("are read only once the API key is known, and only for the project they were sealed for", async () => {
    const a = await newProject();
    const b = await newProject();
    const session = await createSession<Detail>(a.apiKey, "collect");
    const created = await call(`/api/v1/ssh/collect/sessions/${session.id}/`, {
      method: "PATCH",
      key: a.apiKey,
      body: { external_id: "x" },
    });
    const bookmark = created.headers.get("keyproof-bookmark") ?? "";
    expect(bookmark).toMatch(/\.[A-Za-z0-9_-]{22}$/);
    // Another project's key sending it: not opened, not answered back; the primary is read, as
    // for any value of the documented form the Worker did not make.
    const other = await call("/api/v1/ssh/collect/sessions/", {
      key: b.apiKey,
      headers: { "keyproof-bookmark": bookmark },
    });
    expect(other.status).toBe(200);
    expect(sessionsOpened.at(-1)).toBe("first-primary");
    expect(other.headers.get("keyproof-bookmark")).not.toBe(bookmark);
    // No key at all: 401, and nothing a bookmark names is acted on.
    const before = primaryCalls.length;
    const anonymous = await call("/api/v1/ssh/collect/sessions/", {
      headers: { "keyproof-bookmark": bookmark },
    });
    await expectProblem(anonymous, 401);
    expect(anonymous.headers.get("keyproof-bookmark")).toBeNull();
    expect(primaryCalls.length).toBe(before);
    // Its own project reads with it, and every bookmark given has the documented form.
    const own = await call("/api/v1/ssh/collect/sessions/", {
      key: a.apiKey,
      headers: { "keyproof-bookmark": bookmark },
    });
    expect(own.status).toBe(200);
    const doc = await callJson<{
      components: { parameters: { Bookmark: { schema: { pattern: string; maxLength: number } } } };
    }>("/api/v1/openapi.json", 200);
    const form = doc.components.parameters.Bookmark.schema;
    for (const given of [bookmark, own.headers.get("keyproof-bookmark") ?? ""]) {
      expect(given).toMatch(new RegExp(form.pattern));
      expect(given.length).toBeLessThanOrEqual(form.maxLength);
    }
  });
});

describe("erasure forgets idempotent answers", () => {
  it("answers 410 for a create whose session retention erased", async () => {
    const { apiKey } = await newProject();
    const first = await createWithKey(apiKey, "made-then-erased", { external_id: "user-9" });
    const session = (await first.json()) as Detail;
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    await callJson("/api/v1/project", 200, {
      method: "PATCH",
      key: apiKey,
      body: { retention_days: 1 },
    });
    const completedAt = new Date(Date.now() - 2 * DAY_MS).toISOString();
    await changeHeldSession(session.id, { completedAt });
    expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
    expect(
      (await call(`/api/v1/ssh/collect/sessions/${session.id}/`, { key: apiKey })).status,
    ).toBe(404);
    const replay = await createWithKey(apiKey, "made-then-erased", { external_id: "user-9" });
    const problem = await expectProblem(replay, 410);
    expect(JSON.stringify(problem)).not.toContain("user-9");
    expect(problem.detail).toContain("erased at the end of its retention");
  });

  it("answers 410 for a test create after Delete all test data", async () => {
    const project = await newProject();
    const { testKey, apiKey } = project;
    expect((await createWithKey(testKey, "test-create")).status).toBe(201);
    expect((await createWithKey(apiKey, "live-create")).status).toBe(201);
    // The owner's action, through the domain function the settings page calls.
    await deleteTestData(contextOf(project));
    await expectProblem(await createWithKey(testKey, "test-create"), 410);
    // Live answers stay.
    const live = await createWithKey(apiKey, "live-create");
    expect(live.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("idempotent ids never come back", () => {
  it("derives another session from the same key and body once the record is new", () => {
    const request = { key: "live:K", fingerprint: "f".repeat(64) };
    const first = idempotentSessionIds("collect", "secret", "prj_x", "INDEX_0", {
      ...request,
      firstAt: 1_000,
    });
    const same = idempotentSessionIds("collect", "secret", "prj_x", "INDEX_0", {
      ...request,
      firstAt: 1_000,
    });
    const later = idempotentSessionIds("collect", "secret", "prj_x", "INDEX_0", {
      ...request,
      firstAt: 1_000 + DAY_MS + 1,
    });
    expect(same).toEqual(first);
    expect(later.identifier).not.toBe(first.identifier);
    expect(later.id).not.toBe(first.id);
  });

  it("logs and counts a push D1 refuses on its merits, stops retrying it, and keeps reads going", async () => {
    const { apiKey, projectId, db, shard } = await newProject();
    // Made while its shard was away: D1 never had it, so its next push inserts it.
    setD1Outage(true, [shard]);
    const session = await createSession<Detail>(apiKey, "collect");
    setD1Outage(false, [shard]);
    // D1 now holds another session under this one's identifier: its next push (an insert) breaks
    // the identifier's uniqueness, whatever is tried.
    await db.insert(sessions).values({
      id: "cs_00000000000000000000000000",
      projectId,
      kind: "collect",
      connectionIdentifier: session.connection_identifier,
      status: "pending",
      externalId: null,
      multiKey: false,
      multiConnection: false,
      mustConfirm: false,
      sshBanner: null,
      sshMessage: null,
      matchAllKeys: false,
      maxAttempts: 1,
      failedAttempts: 0,
      expiredAt: new Date(Date.now() + DAY_MS).toISOString(),
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    const errors = vi.spyOn(console, "error");
    const refusedBefore = metricCounts().index_push_refused ?? 0;
    const patched = await call(`/api/v1/ssh/collect/sessions/${session.id}/`, {
      method: "PATCH",
      key: apiKey,
      body: { external_id: "after" },
    });
    expect(patched.status).toBe(200);
    expect(metricCounts().index_push_refused).toBe(refusedBefore + 1);
    expect(errors.mock.calls.map((args) => String(args[0])).join("\n")).toContain(
      "D1 refused a session's push",
    );
    // A read sent the write's bookmark is not held up by what D1 will never take.
    const list = await call("/api/v1/ssh/collect/sessions/", {
      key: apiKey,
      headers: { "keyproof-bookmark": patched.headers.get("keyproof-bookmark") ?? "" },
    });
    expect(list.status).toBe(200);
    // And the alarm does not try it again and again.
    const held = await storageOf(objectOf(session.id));
    expect(held.alarm === null || held.alarm > Date.now() + 60_000).toBe(true);
  });
});

describe("test attestations fail the documented jose recipe", () => {
  it("have their own issuer and audience", async () => {
    const { projectId, testKey } = await newProject();
    const session = await createSession<Detail>(testKey, "collect");
    await callJson(`/api/v1/test_helpers/ssh/collect/sessions/${session.id}/simulate/`, 200, {
      method: "POST",
      key: testKey,
      body: { action: "prove" },
    });
    const { token } = await callJson<{ token: string }>(
      `/api/v1/ssh/collect/sessions/${session.id}/attestation/`,
      200,
      { key: testKey },
    );
    const jwks = createLocalJWKSet(await callJson<JSONWebKeySet>("/.well-known/jwks.json", 200));
    const issuer = env.PUBLIC_URL.replace(/\/+$/, "");
    const recipe = { audience: projectId, issuer, typ: "keyproof-attestation+jwt" };
    await expect(jwtVerify(token, jwks, recipe)).rejects.toThrow();
    await expect(jwtVerify(token, jwks, { audience: projectId })).rejects.toThrow();
    await expect(jwtVerify(token, jwks, { issuer })).rejects.toThrow();
  });
});

describe("D1's errors told apart", () => {
  it("takes D1's own words for being away, a query's fault for its own, and the rest as unknown", () => {
    const away = asIndexError(
      new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued."),
    );
    expect(isIndexUnavailable(away)).toBe(true);
    expect(isD1KnownAway(away)).toBe(true);
    const merits = asIndexError(new Error("D1_ERROR: UNIQUE constraint failed: sessions.id"));
    expect(isIndexUnavailable(merits)).toBe(false);
    const unknown = asIndexError(new Error("D1_ERROR: something new"));
    expect(isIndexUnavailable(unknown)).toBe(true);
    expect(isD1KnownAway(unknown)).toBe(false);
  });
});

describe("redaction delivers only `redacted` to webhooks made after", () => {
  it("fans a session's old events out to no webhook made since, pushed again or not", async () => {
    const { apiKey, projectId, db, shard } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    await indexed(session.id);
    const later = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}/made-later` },
    });
    // An object that lost what D1 acknowledged pushes its old events again with the redaction.
    const old = await db
      .select()
      .from(events)
      .where(and(eq(events.projectId, projectId), eq(events.sessionId, session.id)));
    expect(old.length).toBeGreaterThan(0);
    await writePushes(env, shard, [
      {
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
          version: 1,
          session: undefined,
          keys: [],
          authorities: [],
          connections: [],
          connectionKeys: [],
          events: old.map((event) => ({
            id: event.id,
            type: event.type,
            payload: event.payload,
            createdAt: event.createdAt,
          })),
        },
        newWebhooks: [],
      },
    ]);
    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/redact/`, 200, {
      method: "POST",
      key: apiKey,
    });
    await indexed(session.id);
    const heard = await db
      .select({ type: events.type })
      .from(webhookInvocations)
      .innerJoin(
        events,
        and(
          eq(events.projectId, webhookInvocations.projectId),
          eq(events.id, webhookInvocations.eventId),
        ),
      )
      .where(eq(webhookInvocations.webhookId, later.id));
    expect(heard.map((row) => row.type)).toEqual(["redacted"]);
  });
});

describe("a session read back from D1 with a connection in progress", () => {
  it("answers, closes the connection at its alarm, and never sets an alarm at 0", async () => {
    const { apiKey, db } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", {
      multi_connection: true,
      must_confirm: true,
    });
    const opened = await openConnection(session.connection_identifier);
    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    // The user still at the prompt keeps the object, however long ago the session closed.
    const completedAt = new Date(Date.now() - DAY_MS).toISOString();
    await changeHeldSession(session.id, { completedAt });
    await db.update(sessions).set({ completedAt }).where(eq(sessions.id, session.id));
    await runDurableObjectAlarm(objectOf(session.id));
    expect((await storageOf(objectOf(session.id))).entries).toBeGreaterThan(0);
    // Once it has retired, D1 still says the connection is in progress (a report lost).
    await finishConnection(opened, { keys: [], keys_offered: 0 });
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(objectOf(session.id));
      expect((await storageOf(objectOf(session.id))).entries).toBe(0);
    }, 10_000);
    await db
      .update(connections)
      .set({ outcome: "in_progress", closedAt: null })
      .where(eq(connections.sessionId, session.id));
    const read = await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}/`, 200, {
      key: apiKey,
    });
    expect(read.connections[0]?.outcome).toBe("in_progress");
    // Its alarm (set for now, never for 0) closes the connection: soon, whoever runs it.
    const closed = await vi.waitFor(async () => {
      await runDurableObjectAlarm(objectOf(session.id));
      const now = await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}/`, 200, {
        key: apiKey,
      });
      expect(now.connections[0]?.outcome).not.toBe("in_progress");
      return now;
    }, 10_000);
    expect(closed.connections[0]?.outcome).toBe("disconnected");
    expect(
      (
        await call(`/api/v1/ssh/collect/sessions/${session.id}/redact/`, {
          method: "POST",
          key: apiKey,
        })
      ).status,
    ).toBe(200);
  });
});

describe("a connection that offers no key", () => {
  it("is not a verification session's attempt", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail & { failed_attempts: number }>(apiKey, "verify", {
      keys: [{ public_key: ed25519?.openssh }],
    });
    const opened = await openConnection(session.connection_identifier);
    const finished = await finishConnection(opened, { keys: [], keys_offered: 0 });
    expect(finished.outcome).toBe("no_key");
    const after = await callJson<{ status: string; failed_attempts: number }>(
      `/api/v1/ssh/verify/sessions/${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(after).toMatchObject({ status: "pending", failed_attempts: 0 });
    // A key that is offered and not expected still counts, as before.
    const wrong = await openConnection(session.connection_identifier);
    expect((await finishConnection(wrong, { keys: [], keys_offered: 1 })).outcome).toBe("no_match");
    expect(
      await callJson(`/api/v1/ssh/verify/sessions/${session.id}/`, 200, { key: apiKey }),
    ).toMatchObject({ status: "failed", failed_attempts: 1 });
  });
});

describe("the cron while D1 is away", () => {
  it("writes one line per duty, no stack, and does not throw", async () => {
    const warnings = vi.spyOn(console, "warn");
    const errors = vi.spyOn(console, "error");
    setD1Outage(true);
    const worker = (await import("../src/index.ts")).default;
    await worker.scheduled?.(
      {
        cron: "* * * * *",
        scheduledTime: Date.now(),
        noRetry: () => undefined,
      } as ScheduledController,
      env,
    );
    const lines = warnings.mock.calls.map((args) => String(args[0]));
    expect(lines.some((line) => line.includes("D1 away; the cron tries again next minute"))).toBe(
      true,
    );
    expect(lines.join("\n")).not.toContain('"stack"');
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("back-to-back writes", () => {
  it("each reach the primary at once, not behind the transaction in flight", async () => {
    const { apiKey } = await newProject();
    const one = await createSession<Detail>(apiKey, "collect");
    const two = await createSession<Detail>(apiKey, "collect");
    await indexed(one.id);
    await indexed(two.id);
    // The primary takes each session write 400 ms (in the writer's own context: a timer).
    const entered: number[] = [];
    const left: number[] = [];
    setPrimaryGate(async (sql) => {
      if (!/insert into "sessions"/i.test(sql)) return;
      entered.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 400));
      left.push(Date.now());
    });
    const patch = (id: string) =>
      call(`/api/v1/ssh/collect/sessions/${id}/`, {
        method: "PATCH",
        key: apiKey,
        body: { external_id: id },
      });
    // Each is answered at its object; their pushes follow.
    expect((await patch(one.id)).status).toBe(200);
    await vi.waitFor(() => expect(entered.length).toBe(1), 10_000);
    expect((await patch(two.id)).status).toBe(200);
    // The second push's transaction reached the primary while the first was still there.
    await vi.waitFor(() => expect(entered.length).toBe(2), 10_000);
    expect(entered[1] ?? 0).toBeLessThan(left[0] ?? Number.POSITIVE_INFINITY);
    await indexed(one.id);
    await indexed(two.id);
  });
});

describe("the OpenAPI document's operations", () => {
  it("each have a stable, distinct operationId", async () => {
    const doc = await callJson<{ paths: Record<string, Record<string, { operationId?: string }>> }>(
      "/api/v1/openapi.json",
      200,
    );
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids.length).toBeGreaterThanOrEqual(45);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["createCollectSession", "listWebhookDeliveries"]));
  });
});

describe("the hosted page's continue step", () => {
  it("lets each browser that watched continue once; another's use takes nothing from the user's", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", {
      return_url: "https://app.example.com/back?state=s1",
    });
    const watch = async () => {
      const page = await call(`/p/${session.connection_identifier}`);
      expect(page.status).toBe(200);
      return (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    };
    const early = await watch();
    const user = await watch();
    expect(early).not.toBe(user);
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const go = (cookie: string) =>
      call(`/p/${session.connection_identifier}/continue`, { headers: { cookie } });
    expect((await go(early)).status).toBe(303);
    expect((await go(early)).status).toBe(409);
    const back = await go(user);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toContain("state=s1");
  });
});

describe("the web app's owners-only and who made a key", () => {
  it("keeps retention for owners and shows each key's author, also once they left", async () => {
    const owner = await browserWithProject();
    const base = `/projects/${owner.projectId}`;
    const invited = await owner.browser.follow(await owner.browser.post(`${base}/invitations`));
    const link = invited.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    const member = await signedUpBrowser();
    const path = new URL(link).pathname;
    await member.browser.follow(await member.browser.post(path));
    // A member sees retention but cannot change it.
    const settings = await member.browser.get(`${base}/settings`);
    expect(settings.html).toContain("Only an owner can change this.");
    expect(settings.html).not.toContain(`action="${base}/retention"`);
    const refused = await member.browser.follow(
      await member.browser.post(`${base}/retention`, { retention_days: "1" }),
    );
    expect(refused.html).toContain("Only an owner can change retention.");
    const [project] = await directory()
      .select()
      .from(projects)
      .where(eq(projects.id, owner.projectId));
    expect(project?.retentionDays).toBe(30);
    // The member makes a key; the owner sees who, and after removing them, that they left.
    await member.browser.post(`${base}/api-keys`, { name: "member key", expires_on: "" });
    const memberId = (await owner.browser.get(`${base}/settings`)).html.match(
      /members\/(acc_[0-9a-z]+)\/remove/,
    )?.[1];
    const listed = await owner.browser.get(`${base}/settings`);
    expect(listed.html).toContain(member.email);
    const removed = await owner.browser.follow(
      await owner.browser.post(`${base}/members/${memberId}/remove`),
    );
    expect(removed.html).toContain("An API key they created still works");
    expect(removed.html).toContain("(no longer a member)");
  });
});

describe("a forge that cannot be reached, in the web form", () => {
  it("is said above the form, blaming no field and showing no internal reference", async () => {
    const { browser, projectId } = await browserWithProject();
    const page = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "verify",
      keys_from: "closed:alice",
    });
    expect(page.status).toBe(400);
    expect(page.html).toContain("could not be reached");
    expect(page.html).not.toContain('id="keys_from-error"');
    expect(page.html).not.toMatch(/reference\s*=/);
  });
});
