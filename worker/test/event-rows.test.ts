import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { sessions } from "../src/db/sessions.ts";
import { EVENT_SERIES_LENGTH, eventAt, eventRows, events } from "../src/db/webhooks.ts";
import { encodeTime, randomBase32 } from "../src/lib/ids.ts";
import { blobOf, connectAndFinish, internal, reported } from "./bridge-calls.ts";
import { call, callJson, createSession, newProject, type TestProject } from "./helpers.ts";
import { changeHeldSession, indexed } from "./session-objects.ts";

/**
 * The events one push carries are one row of `event_rows` (one row written, one deleted
 * at erasure), their ids one series; every reader sees them one by one, through the `events`
 * view, each found from its id alone.
 */

const BASE = "/api/v1/ssh/collect/sessions/";
const [key] = env.TEST_KEYS.accepted;

type Session = { id: string; connection_identifier: string };
type LoggedEvent = { id: string; type: string; session_id: string | null; payload: object };

/** A connection opened and finished at once, as a fast `ssh` login: one push carries both. */
async function proveAtOnce(identifier: string) {
  const opened = await internal<{ connection_id: string; session_id: string }>(
    "/internal/v1/connections",
    {
      connection_identifier: identifier,
      ip_address: "198.51.100.7",
      client_version: "SSH-2.0-OpenSSH_9.6",
    },
  );
  await internal(`/internal/v1/connections/${opened.json.connection_id}/finish`, {
    session_id: opened.json.session_id,
    keys: reported([blobOf(key?.openssh ?? "")]),
    keys_offered: 1,
    confirmed: null,
  });
  await indexed(opened.json.session_id);
}

const rowsOf = (project: TestProject, sessionId: string) =>
  project.db
    .select()
    .from(eventRows)
    .where(and(eq(eventRows.projectId, project.projectId), eq(eventRows.sessionId, sessionId)))
    .orderBy(eventRows.id);

const logOf = (project: TestProject, sessionId: string) =>
  callJson<{ items: LoggedEvent[]; total: number }>(
    `/api/v1/events/?session_id=${sessionId}`,
    200,
    { key: project.apiKey },
  );

describe("a push's events in one row", () => {
  it("keeps a proof's open and finish in one row, each event found by its id", async () => {
    const project = await newProject();
    const session = await createSession<Session>(project.apiKey, "collect", {});
    await proveAtOnce(session.connection_identifier);

    const rows = await rowsOf(project, session.id);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.events.map((event) => event.t)).toEqual([
      "new_connection",
      "key_collected",
      "status_changed",
    ]);

    // What every payload starts with, alike, is kept once: the session's fields.
    expect(row?.common).toEqual({
      collect_session_id: session.id,
      collect_session_external_id: null,
      collect_session_connection_identifier: session.connection_identifier,
    });
    expect(row?.events.map((event) => Object.keys(event.p)[0])).not.toContain("collect_session_id");

    // The log shows them one by one, newest first, whole; their ids are the row's series.
    const log = await logOf(project, session.id);
    expect(log.total).toBe(3);
    expect(log.items.map((event) => event.type)).toEqual([
      "status_changed",
      "key_collected",
      "new_connection",
    ]);
    for (const event of log.items)
      expect(Object.entries(event.payload).slice(0, 3)).toEqual([
        ["collect_session_id", session.id],
        ["collect_session_external_id", null],
        ["collect_session_connection_identifier", session.connection_identifier],
      ]);
    const ids = log.items.map((event) => event.id).reverse();
    expect(ids[0]).toBe(row?.id);
    for (const id of ids) expect(id.slice(0, EVENT_SERIES_LENGTH)).toBe(row?.id.slice(0, -1));
    expect(new Set(ids).size).toBe(3);
    const [listed] = await project.db
      .select({ eventIds: sessions.eventIds })
      .from(sessions)
      .where(eq(sessions.id, session.id));
    expect(listed?.eventIds).toEqual(ids);

    // Each is found from its id alone: the row's key range, then the event.
    for (const [i, id] of ids.entries()) {
      const found = await project.db.select().from(events).where(eventAt(project.projectId, id));
      expect(found.map((event) => [event.id, event.position])).toEqual([[id, i]]);
    }
    // The key the event names is expanded from its connection's row, as before.
    const collected = log.items.find((event) => event.type === "key_collected");
    expect(JSON.stringify(collected?.payload)).toContain(blobOf(key?.openssh ?? ""));
  });

  it("starts a new row once a push carried the last, and never adds to one D1 has", async () => {
    const project = await newProject();
    const session = await createSession<Session>(project.apiKey, "collect", {
      multi_connection: true,
    });
    // Each helper waits for D1: every connection's events are pushed before the next.
    await connectAndFinish(session.connection_identifier, { keys: [blobOf(key?.openssh ?? "")] });
    const first = await rowsOf(project, session.id);
    await connectAndFinish(session.connection_identifier, { keys: [] });
    await callJson(`${BASE}${session.id}/complete/`, 200, { method: "POST", key: project.apiKey });
    await indexed(session.id);

    const rows = await rowsOf(project, session.id);
    // The first connection's open, its finish, the second's open (a finish proving nothing in a
    // multi-connection session makes no event), the completion: four pushes, four rows.
    expect(rows.map((row) => row.events.map((event) => event.t))).toEqual([
      ["new_connection"],
      ["key_collected"],
      ["new_connection"],
      ["status_changed"],
    ]);
    expect(rows.slice(0, first.length)).toEqual(first);
    const log = await logOf(project, session.id);
    expect(log.items.map((event) => event.type)).toEqual([
      "status_changed",
      "new_connection",
      "key_collected",
      "new_connection",
    ]);
    // The log's order is the ids' order.
    const ids = log.items.map((event) => event.id);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("finds, redacts and erases an event kept before series, in a row of its own", async () => {
    const project = await newProject();
    const session = await createSession<Session>(project.apiKey, "collect", {
      external_id: "user-to-redact",
    });
    await proveAtOnce(session.connection_identifier);
    // An event as migration index/0004 keeps one made before: keyed by its own id.
    const old = `evt_${encodeTime(Date.now() - 60_000)}${randomBase32(16)}`;
    await project.db.insert(eventRows).values({
      id: old,
      projectId: project.projectId,
      sessionId: session.id,
      entity: "collect_session",
      livemode: true,
      events: [
        {
          s: old.slice(-1),
          t: "new_connection",
          p: { collect_session_id: session.id, ip_address: "203.0.113.9" },
          at: new Date(Date.now() - 60_000).toISOString(),
        },
      ],
    });
    // Its session lists it, in D1 and in the object (whose pushes write the list).
    const [listed] = await project.db
      .select({ eventIds: sessions.eventIds })
      .from(sessions)
      .where(eq(sessions.id, session.id));
    const eventIds = [old, ...(listed?.eventIds ?? [])];
    await changeHeldSession(session.id, { eventIds });
    await project.db.update(sessions).set({ eventIds }).where(eq(sessions.id, session.id));

    const log = await logOf(project, session.id);
    expect(log.items.map((event) => event.id).at(-1)).toBe(old);
    expect(log.total).toBe(4);

    await callJson(`${BASE}${session.id}/redact/`, 200, { method: "POST", key: project.apiKey });
    await indexed(session.id);
    const [redacted] = await project.db
      .select()
      .from(events)
      .where(eventAt(project.projectId, old));
    expect(JSON.stringify(redacted?.payload)).not.toContain("203.0.113.9");
    // In the rows themselves too: the fields kept once (`common`) and each event's own.
    const stored = JSON.stringify(await rowsOf(project, session.id));
    for (const personal of ["user-to-redact", "203.0.113.9", "198.51.100.7"])
      expect(stored).not.toContain(personal);
    // The old row, the proof's (one push, or two when its open and finish were pushed apart on
    // a busy machine), and the redaction's own event.
    const rows = (await rowsOf(project, session.id)).map((row) => row.events.map((e) => e.t));
    expect(rows[0]).toEqual(["new_connection"]);
    expect(rows.at(-1)).toEqual(["redacted"]);
    expect(rows.slice(1, -1).flat()[0]).toBe("new_connection");
    expect(rows.slice(1, -1).flat()).toContain("key_collected");

    const deleted = await call(`${BASE}${session.id}/`, { method: "DELETE", key: project.apiKey });
    expect(deleted.status).toBe(204);
    await vi.waitFor(async () => expect(await rowsOf(project, session.id)).toEqual([]), 10_000);
  });
});
