import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_PENDING, openBookmark, PENDING_FOR_MS } from "../src/api/bookmarks.ts";
import { withD1 } from "../src/db/d1-calls.ts";
import { setD1Outage } from "../src/development/d1-simulation.ts";
import { everyMinute } from "../src/domain/housekeeping.ts";
import { objectNameOfIdentifier } from "../src/domain/session-address.ts";
import { randomBase32 } from "../src/lib/ids.ts";
import { CONNECTION_LEASE_MS } from "../src/protocol/messages.ts";
import { UNAVAILABLE_MESSAGE } from "../src/protocol/terminal.ts";
import { blobOf, internal } from "./bridge-calls.ts";
import { call, callJson, createSession, expectProblem, newProject } from "./helpers.ts";
import {
  heldConnection,
  heldVersion,
  indexed,
  lapseConnections,
  NOTHING_STORED,
  objectOf,
  storageOf,
} from "./session-objects.ts";

/** What a session's object can answer is answered while D1 is away; the rest is a 503. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

afterEach(() => setD1Outage(false));

interface Detail {
  id: string;
  status: string;
  external_id: string | null;
  connections: { id: string; outcome: string; closed_at: string | null }[];
  webhooks: { id: string; url: string }[];
}

const base = (kind: "collect" | "verify") => `/api/v1/ssh/${kind}/sessions/`;

async function openOver(identifier: string) {
  const opened = await internal<{ accepted: boolean; connection_id: string; session_id: string }>(
    "/internal/v1/connections",
    {
      connection_identifier: identifier,
      ip_address: "198.51.100.7",
      client_version: "SSH-2.0-OpenSSH_9.6",
    },
  );
  expect(opened.status).toBe(200);
  return opened.json;
}

describe("while D1 is away", () => {
  it("answers one session from its object, with its webhooks, and saved writes as saved", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", {
      multi_connection: true,
      external_id: "before",
      webhooks: [{ url: `${env.RECEIVER_URL}/d1-away` }],
    });
    // The key was seen a moment ago: it keeps working through a short outage.
    await callJson(`${base("collect")}${session.id}`, 200, { key: apiKey });
    setD1Outage(true);

    const got = await callJson<Detail>(`${base("collect")}${session.id}`, 200, { key: apiKey });
    expect(got.external_id).toBe("before");
    expect(got.webhooks.map((hook) => hook.url)).toEqual([`${env.RECEIVER_URL}/d1-away`]);

    const patched = await call(`${base("collect")}${session.id}`, {
      method: "PATCH",
      key: apiKey,
      body: { external_id: "during" },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Detail).external_id).toBe("during");
    const bookmark = patched.headers.get("keyproof-bookmark") ?? "";
    expect(bookmark).not.toBe("first-unconstrained");

    const completed = await callJson<Detail>(`${base("collect")}${session.id}/complete`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(completed.status).toBe("completed");
    // Asked again, the saved change says what happened: already closed, not a 500.
    await expectProblem(
      await call(`${base("collect")}${session.id}/complete`, { method: "POST", key: apiKey }),
      409,
    );

    // What needs the index is a 503 with Retry-After, never a 500 — even with the bookmark.
    for (const path of [base("collect"), "/api/v1/events/", "/api/v1/webhooks/"]) {
      const response = await call(path, {
        key: apiKey,
        headers: { "keyproof-bookmark": bookmark },
      });
      await expectProblem(response.clone(), 503);
      expect(response.headers.get("retry-after")).toBe("5");
    }

    // D1 is back: the bookmark of the write made while it was away brings that write with it.
    setD1Outage(false);
    const listed = await callJson<{ items: Detail[] }>(
      `${base("collect")}?external_id=during`,
      200,
      { key: apiKey, headers: { "keyproof-bookmark": bookmark } },
    );
    expect(listed.items.map((item) => [item.id, item.status])).toEqual([[session.id, "completed"]]);
  });

  it("a DELETE made while D1 was away answers a bookmark that lists without it once D1 is back", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect", { external_id: "gone" });
    await callJson(`${base("collect")}${session.id}`, 200, { key: apiKey });
    setD1Outage(true);
    const deleted = await call(`${base("collect")}${session.id}`, {
      method: "DELETE",
      key: apiKey,
    });
    expect(deleted.status).toBe(204);
    const bookmark = deleted.headers.get("keyproof-bookmark") ?? "";
    await expectProblem(
      await call(base("collect"), { key: apiKey, headers: { "keyproof-bookmark": bookmark } }),
      503,
    );
    setD1Outage(false);
    // The object pushes the deletion, then keeps nothing; the bookmark still works after that.
    const list = () =>
      callJson<{ items: Detail[] }>(`${base("collect")}?external_id=gone`, 200, {
        key: apiKey,
        headers: { "keyproof-bookmark": bookmark },
      });
    expect((await list()).items).toEqual([]);
    await runDurableObjectAlarm(objectOf(session.id));
    const emptied = await runInDurableObject(objectOf(session.id), (_instance, state) => [
      ...state.storage.kv.list(),
    ]);
    expect(emptied).toEqual([]);
    expect((await list()).items).toEqual([]);
  });

  it("makes a bookmark name every write answered while D1 was away, refusing one more than it can hold", async () => {
    const { apiKey } = await newProject();
    await callJson("/api/v1/auth/info/", 200, { key: apiKey });
    const externalId = `many-${crypto.randomUUID()}`;
    let bookmark = "";
    const create = () =>
      call(base("collect"), {
        method: "POST",
        key: apiKey,
        body: { external_id: externalId },
        headers: bookmark ? { "keyproof-bookmark": bookmark } : {},
      });
    setD1Outage(true);
    for (let n = 0; n < MAX_PENDING; n++) {
      const created = await create();
      expect(created.status).toBe(201);
      bookmark = created.headers.get("keyproof-bookmark") ?? "";
    }
    // One more would leave a bookmark that cannot name it: refused, before anything changed.
    const refused = await create();
    await expectProblem(refused.clone(), 503);
    expect(refused.headers.get("keyproof-bookmark")).toBe(bookmark);
    setD1Outage(false);
    const listed = await callJson<{ items: Detail[]; total: number }>(
      `${base("collect")}?external_id=${externalId}&limit=100`,
      200,
      { key: apiKey, headers: { "keyproof-bookmark": bookmark } },
    );
    expect(listed.total).toBe(MAX_PENDING);
    expect(listed.items).toHaveLength(MAX_PENDING);
    // D1 back: the same write goes through, its earlier ones pushed first.
    expect((await create()).status).toBe(201);
  });

  it("waits for a bookmark's pending writes for a bounded time, then asks no object", async () => {
    const { apiKey, projectId } = await newProject();
    await callJson("/api/v1/auth/info/", 200, { key: apiKey });
    setD1Outage(true);
    const created = await call(base("collect"), { method: "POST", key: apiKey, body: {} });
    const { id } = (await created.json()) as Detail;
    const bookmark = created.headers.get("keyproof-bookmark") ?? "";
    setD1Outage(false);
    const now = Date.now();
    expect((await openBookmark(env, projectId, bookmark, now))?.pending).toEqual([id]);
    expect(
      (await openBookmark(env, projectId, bookmark, now + PENDING_FOR_MS + 60_000))?.pending,
    ).toEqual([]);
  });

  it("refuses a key it has not seen with a 503, not a 401 or a 500", async () => {
    const { apiKey } = await newProject();
    setD1Outage(true);
    const response = await call(base("collect"), { key: apiKey });
    await expectProblem(response.clone(), 503);
    expect(response.headers.get("retry-after")).toBe("5");
  });

  it("records an SSH proof, and the index has it once D1 is back (no call from anyone)", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail & { connection_identifier: string }>(
      apiKey,
      "collect",
    );
    setD1Outage(true);
    const opened = await openOver(session.connection_identifier);
    expect(opened.accepted).toBe(true);
    const finished = await internal<{ outcome: string }>(
      `/internal/v1/connections/${opened.connection_id}/finish`,
      {
        session_id: session.id,
        keys: [{ key: blobOf(ed25519?.openssh ?? ""), security_key: null }],
        keys_offered: 1,
        refusals: [],
        confirmed: null,
      },
    );
    expect(finished.json.outcome).toBe("collected");
    const got = await callJson<Detail>(`${base("collect")}${session.id}`, 200, { key: apiKey });
    expect(got.status).toBe("completed");
    expect(await objectOf(session.id).indexed()).toBeNull();

    // D1 returns; the object's alarm pushes again (every 5 s) with nobody asking.
    setD1Outage(false);
    const deadline = Date.now() + 30_000;
    let listed: Detail[] = [];
    while (Date.now() < deadline) {
      listed = (
        await callJson<{ items: Detail[] }>(`${base("collect")}?status=completed`, 200, {
          key: apiKey,
        })
      ).items;
      if (listed.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(listed.map((item) => item.id)).toEqual([session.id]);
  }, 40_000);
});

describe("the cron while one database is away", () => {
  it("names the database that is away, and only it", async () => {
    const warned: Record<string, unknown>[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((line: unknown) => {
      try {
        warned.push(JSON.parse(String(line)) as Record<string, unknown>);
      } catch {
        // not one of ours
      }
    });
    setD1Outage(true, ["DIRECTORY"]);
    try {
      await everyMinute(withD1(env), new Date("2026-11-27T12:30:00Z"));
    } finally {
      setD1Outage(false);
      spy.mockRestore();
    }
    const away = warned.filter((line) => String(line.msg).startsWith("D1 away"));
    expect(away.length).toBeGreaterThan(0);
    expect(new Set(away.map((line) => line.database))).toEqual(new Set(["DIRECTORY"]));
  });
});

describe("a connection whose bridge went quiet", () => {
  it("keeps its place while the bridge renews it, for at most a minute after it stops", async () => {
    // The user is told "try again in a minute" after a crash: the lease makes that true.
    expect(UNAVAILABLE_MESSAGE).toContain("in a minute");
    expect(CONNECTION_LEASE_MS).toBeLessThanOrEqual(60_000);
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; connection_identifier: string }>(
      apiKey,
      "collect",
    );
    const opened = await openOver(session.connection_identifier);
    const leaseOf = async () =>
      Number((await heldConnection(session.id, opened.connection_id)).leaseUntil);
    const first = await leaseOf();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renewed = await internal(`/internal/v1/connections/${opened.connection_id}/progress`, {
      session_id: session.id,
    });
    expect(renewed.status).toBe(200);
    expect(await leaseOf()).toBeGreaterThan(first);
    // Another connection meanwhile is turned away as busy.
    const busy = await openOver(session.connection_identifier);
    expect(busy).toMatchObject({ accepted: false, reason: "busy" });
  });

  it("is closed by the alarm at its lease's end, as disconnected, with its event", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; connection_identifier: string }>(
      apiKey,
      "collect",
      { multi_connection: true },
    );
    const opened = await openOver(session.connection_identifier);
    await lapseConnections(session.id);
    const leaseEnd = Number((await heldConnection(session.id, opened.connection_id)).leaseUntil);
    // Nobody connects again: the alarm alone closes it.
    expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
    const got = await callJson<Detail>(`${base("collect")}${session.id}`, 200, { key: apiKey });
    expect(got.status).toBe("pending");
    expect(got.connections).toEqual([
      expect.objectContaining({
        id: opened.connection_id,
        outcome: "disconnected",
        closed_at: new Date(leaseEnd).toISOString(),
      }),
    ]);
    await indexed(session.id);
    const events = await callJson<{ items: { type: string; payload: { reason?: string } }[] }>(
      `/api/v1/events/?session_id=${session.id}`,
      200,
      { key: apiKey },
    );
    expect(events.items.map((event) => [event.type, event.payload.reason])).toContainEqual([
      "connection_interrupted",
      "disconnected",
    ]);
    // The session's place is free again.
    expect((await openOver(session.connection_identifier)).accepted).toBe(true);
  });

  it("refused connections leave the object's version where it was", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; connection_identifier: string }>(
      apiKey,
      "collect",
    );
    await openOver(session.connection_identifier);
    await indexed(session.id);
    const versionOf = () => heldVersion(session.id);
    const before = await versionOf();
    for (let i = 0; i < 3; i++)
      expect(await openOver(session.connection_identifier)).toMatchObject({ reason: "busy" });
    expect(await versionOf()).toBe(before);
  });
});

describe("a lookup that finds nothing", () => {
  it("leaves no table, entry or alarm in the object it asked", async () => {
    const identifier = randomBase32(26);
    expect((await call(`/p/${identifier}`)).status).toBe(404);
    expect((await call(`/p/${identifier}/status`)).status).toBe(404);
    const refused = await openOver(identifier);
    expect(refused).toMatchObject({ accepted: false, reason: "unknown" });
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(objectNameOfIdentifier(identifier)));
    expect(await storageOf(stub)).toEqual(NOTHING_STORED);
  });
});
