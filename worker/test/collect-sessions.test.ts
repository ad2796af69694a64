import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectionKeys, connections, sessions } from "../src/db/sessions.ts";
import { listSessionRows } from "../src/domain/session-views.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, contextOf, createSession, expectProblem, newProject } from "./helpers.ts";
import { changeHeldSession, indexed, objectOf } from "./session-objects.ts";

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519") ?? {
  openssh: "",
};

const BASE = "/api/v1/ssh/collect/sessions/";
type Session = Record<string, unknown> & { id: string; status: string };
type List = { items: Session[]; total: number; offset: number; limit: number; has_more: boolean };

async function create(key: string, body: Record<string, unknown> = {}) {
  return callJson<Session>(BASE, 201, { method: "POST", key, body });
}

/** A closed session refuses every change with 409. */
async function expectPatchRefused(apiKey: string, sessionId: string) {
  const patch = { method: "PATCH", key: apiKey, body: { multi_key: true } };
  await expectProblem(await call(`${BASE}${sessionId}/`, patch), 409);
}

describe("collection sessions: happy path", () => {
  it("creates a session with defaults, an identifier and the ssh command", async () => {
    const { apiKey } = await newProject();
    const before = Date.now();
    const session = await create(apiKey, { external_id: "user-42" });
    expect(session).toMatchObject({
      status: "pending",
      external_id: "user-42",
      multi_key: false,
      multi_connection: false,
      must_confirm: false,
      ssh_banner: null,
      ssh_message: null,
      completed_at: null,
      connections: [],
    });
    expect(session.id).toMatch(/^cs_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(session.connection_identifier).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(session.ssh_command).toBe(`ssh -p 2222 ${session.connection_identifier}@localhost`);
    const lifetime = Date.parse(session.expired_at as string) - before;
    expect(lifetime).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(3600_000 + 5000);
  });

  it("turns timeout into expired_at and keeps every option", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, {
      multi_key: true,
      multi_connection: true,
      must_confirm: true,
      ssh_banner: "Welcome",
      ssh_message: "Thanks!",
      timeout: 120,
    });
    expect(session).toMatchObject({
      multi_key: true,
      multi_connection: true,
      must_confirm: true,
      ssh_banner: "Welcome",
      ssh_message: "Thanks!",
    });
    const lifetime =
      Date.parse(session.expired_at as string) - Date.parse(session.created_at as string);
    expect(lifetime).toBe(120_000);
  });

  it("accepts an absolute expired_at", async () => {
    const { apiKey } = await newProject();
    const at = new Date(Date.now() + 600_000).toISOString();
    const session = await create(apiKey, { expired_at: at });
    expect(session.expired_at).toBe(at);
  });

  it("creates a session from an empty body without a content type", async () => {
    const { apiKey } = await newProject();
    const response = await call(BASE, { method: "POST", key: apiKey });
    expect(response.status).toBe(201);
  });

  it("gets one session, with or without the trailing slash", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey);
    const withSlash = await callJson<Session>(`${BASE}${session.id}/`, 200, { key: apiKey });
    const without = await callJson<Session>(`${BASE}${session.id}`, 200, { key: apiKey });
    expect(withSlash).toEqual(session);
    expect(without).toEqual(session);
  });

  it("lists newest first in the envelope, with filters and paging", async () => {
    const { apiKey } = await newProject();
    const first = await create(apiKey, { external_id: "a" });
    const second = await create(apiKey, { external_id: "b", multi_connection: true });
    const third = await create(apiKey, { external_id: "a" });
    await callJson(`${BASE}${second.id}/complete/`, 200, { method: "POST", key: apiKey });

    const all = await callJson<List>(BASE, 200, { key: apiKey });
    expect(all.items.map((s) => s.id)).toEqual([third.id, second.id, first.id]);
    expect(all).toMatchObject({ total: 3, offset: 0, limit: 100, has_more: false });
    expect(all.items[0]).not.toHaveProperty("connections");

    const page = await callJson<List>(`${BASE}?limit=1&offset=1`, 200, { key: apiKey });
    expect(page.items.map((s) => s.id)).toEqual([second.id]);
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 1, has_more: true });

    const byExternal = await callJson<List>(`${BASE}?external_id=a`, 200, { key: apiKey });
    expect(byExternal.items.map((s) => s.id)).toEqual([third.id, first.id]);

    const completed = await callJson<List>(`${BASE}?status=completed`, 200, { key: apiKey });
    expect(completed.items.map((s) => s.id)).toEqual([second.id]);
  });

  it("caps limit=500 to 100", async () => {
    const { apiKey } = await newProject();
    const list = await callJson<List>(`${BASE}?limit=500`, 200, { key: apiKey });
    expect(list.limit).toBe(100);
  });

  it("changes the options of an open session", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, { external_id: "x" });
    const patched = await callJson<Session>(`${BASE}${session.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      body: { external_id: null, multi_key: true, ssh_message: "bye", timeout: 300 },
    });
    expect(patched).toMatchObject({ external_id: null, multi_key: true, ssh_message: "bye" });
    expect(Date.parse(patched.expired_at as string)).toBeGreaterThan(Date.now() + 290_000);
    const fetched = await callJson<Session>(`${BASE}${session.id}/`, 200, { key: apiKey });
    expect(fetched).toEqual(patched);
  });
});

describe("collection sessions: completing", () => {
  it("refuses to complete a single-connection session with 409", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey);
    const problem = await expectProblem(
      await call(`${BASE}${session.id}/complete/`, { method: "POST", key: apiKey }),
      409,
    );
    expect(problem.detail).toMatch(/multi-connection/);
  });

  it("completes a multi-connection session once: 200 then 409", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, { multi_connection: true });
    const done = await callJson<Session>(`${BASE}${session.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(done.status).toBe("completed");
    expect(done.completed_at).not.toBeNull();
    await expectProblem(
      await call(`${BASE}${session.id}/complete/`, { method: "POST", key: apiKey }),
      409,
    );
    await expectPatchRefused(apiKey, session.id);
  });

  it("lets exactly one of ten concurrent completes succeed", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, { multi_connection: true });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(`${BASE}${session.id}/complete/`, { method: "POST", key: apiKey }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
  });
});

describe("collection sessions: expiry and deletion", () => {
  it("expires by the Durable Object alarm", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, { timeout: 60 });
    await changeHeldSession(session.id, { expiredAt: new Date(Date.now() - 1000).toISOString() });
    expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
    const expired = await callJson<Session>(`${BASE}${session.id}/`, 200, { key: apiKey });
    expect(expired.status).toBe("expired");
    expect(expired.completed_at).not.toBeNull();
    await expectPatchRefused(apiKey, session.id);
  });

  it("does not expire early when the expiry was moved later", async () => {
    const { apiKey } = await newProject();
    const session = await create(apiKey, { timeout: 60 });
    await callJson(`${BASE}${session.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      body: { timeout: 3600 },
    });
    await runDurableObjectAlarm(objectOf(session.id));
    const still = await callJson<Session>(`${BASE}${session.id}/`, 200, { key: apiKey });
    expect(still.status).toBe("pending");
  });

  it("deletes the session with its connections and keys", async () => {
    const { apiKey, db } = await newProject();
    const session = await create(apiKey);
    await connectAndFinish(String(session.connection_identifier), {
      keys: [blobOf(ed25519.openssh)],
    });
    await indexed(session.id);
    const inIndex = () =>
      db.select().from(connections).where(eq(connections.sessionId, session.id));
    const [row] = await inIndex();
    // The connection's row holds its key: no row of its own for a key that is not a
    // security key.
    expect(row?.keys.map((key) => key.publicKeySsh.split(" ")[1])).toEqual([
      ed25519.openssh.split(" ")[1],
    ]);
    expect(
      await db.select().from(connectionKeys).where(eq(connectionKeys.sessionId, session.id)),
    ).toEqual([]);
    const detail = await callJson<{ connections: { keys: unknown[] }[] }>(
      `${BASE}${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(detail.connections).toHaveLength(1);
    expect(detail.connections[0]?.keys).toHaveLength(1);

    const response = await call(`${BASE}${session.id}/`, { method: "DELETE", key: apiKey });
    expect(response.status).toBe(204);
    await expectProblem(await call(`${BASE}${session.id}/`, { key: apiKey }), 404);
    expect(await inIndex()).toEqual([]);
    expect(
      await db.select().from(connectionKeys).where(eq(connectionKeys.sessionId, session.id)),
    ).toEqual([]);
    await expectProblem(
      await call(`${BASE}${session.id}/`, { method: "DELETE", key: apiKey }),
      404,
    );
  });
});

describe("lists of both kinds", () => {
  it("are newest first across kinds and statuses, page by page, from one index's parts", async () => {
    const project = await newProject();
    const { apiKey, db } = project;
    const statuses = ["pending", "completed", "failed", "expired", "verified"] as const;
    const made: string[] = [];
    for (let i = 0; i < 9; i++) {
      const kind = i % 3 === 0 ? "verify" : "collect";
      const body = kind === "verify" ? { keys: [{ public_key: ed25519.openssh }] } : {};
      const { id } = await createSession(apiKey, kind, body);
      // A create answers before D1 has it: each is in D1 before it is changed there.
      await indexed(id);
      // Each in a status of its own, as D1's index has it: the list reads D1.
      await db
        .update(sessions)
        .set({ status: statuses[i % statuses.length] })
        .where(eq(sessions.id, id));
      made.push(id);
    }
    const ctx = contextOf(project);
    const pages: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) {
      const { rows, page } = await listSessionRows(ctx, undefined, { offset, limit: 2 });
      expect(page.total).toBe(9);
      pages.push(...rows.map((row) => row.id));
    }
    expect(pages).toEqual([...made].reverse());
    const collect = await listSessionRows(ctx, "collect", { offset: 1, limit: 3 });
    expect(collect.rows.map((row) => row.id)).toEqual(
      made
        .filter((id) => id.startsWith("cs_"))
        .reverse()
        .slice(1, 4),
    );
    const failed = await listSessionRows(ctx, undefined, {
      offset: 0,
      limit: 10,
      status: "failed",
    });
    expect(failed.rows.map((row) => row.id)).toEqual([made[7], made[2]]);
  });
});
