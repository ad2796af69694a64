import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { connectionKeys, connections, sessions } from "../src/db/sessions.ts";
import { projectOverview } from "../src/domain/project-overview.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { callJson, contextOf, createSession, newProject } from "./helpers.ts";
import {
  changeHeldSession,
  expectRedactedConnectionRow,
  objectOf,
  storageOf,
} from "./session-objects.ts";

/**
 * A connection's row in the index holds the keys it proved (`connections.keys`), and
 * only security keys also have a key row (their counters are looked up by fingerprint). Every
 * reader finds the keys there: the object reading its session back, the event log, the overview
 * and redaction.
 */

const BASE = "/api/v1/ssh/collect/sessions/";
const DAY_MS = 86_400_000;
const [first, second] = env.TEST_KEYS.accepted.filter((key) =>
  ["ed25519", "ecdsa-256"].includes(key.label),
);

type Key = { public_key_ssh: string; public_key_sha256: string };
type Detail = {
  id: string;
  connection_identifier: string;
  connections: { id: string; ip_address: string; keys: Key[] }[];
};

/** A multi-connection collection with two connections, each proving one key, then completed. */
async function twoConnections() {
  const project = await newProject();
  const session = await createSession<Detail>(project.apiKey, "collect", {
    multi_connection: true,
    multi_key: true,
  });
  const one = await connectAndFinish(session.connection_identifier, {
    keys: [blobOf(first?.openssh ?? "")],
  });
  const two = await connectAndFinish(session.connection_identifier, {
    keys: [blobOf(second?.openssh ?? "")],
  });
  await callJson(`${BASE}${session.id}/complete/`, 200, { method: "POST", key: project.apiKey });
  return { project, session, connectionIds: [one.connectionId, two.connectionId] };
}

const detailOf = (apiKey: string, sessionId: string) =>
  callJson<Detail>(`${BASE}${sessionId}/`, 200, { key: apiKey });

describe("a session's connections in the index", () => {
  it("keeps each connection's keys inside its row, and no key rows but security keys", async () => {
    expect(first && second).toBeTruthy();
    const { project, session, connectionIds } = await twoConnections();
    const rows = await project.db
      .select()
      .from(connections)
      .where(eq(connections.sessionId, session.id))
      .orderBy(connections.id);
    expect(rows.map((row) => row.id)).toEqual(connectionIds);
    expect(rows.map((row) => row.keys.map((key) => key.publicKeySsh))).toEqual([
      [expect.stringContaining(blobOf(first?.openssh ?? ""))],
      [expect.stringContaining(blobOf(second?.openssh ?? ""))],
    ]);
    expect(
      await project.db
        .select()
        .from(connectionKeys)
        .where(eq(connectionKeys.sessionId, session.id)),
    ).toEqual([]);
  });

  it("gives every reader the keys: the read-back session, the event log and the overview", async () => {
    const { project, session } = await twoConnections();
    const before = await detailOf(project.apiKey, session.id);
    expect(before.connections).toHaveLength(2);

    // The object retires; a GET reads the session back from the index.
    const completedAt = new Date(Date.now() - DAY_MS).toISOString();
    await changeHeldSession(session.id, { completedAt });
    await project.db.update(sessions).set({ completedAt }).where(eq(sessions.id, session.id));
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(objectOf(session.id));
      expect((await storageOf(objectOf(session.id))).entries).toBe(0);
    }, 10_000);
    const after = await detailOf(project.apiKey, session.id);
    const byId = (detail: Detail) =>
      [...detail.connections]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((connection) => ({
          id: connection.id,
          keys: connection.keys.map((key) => key.public_key_sha256),
        }));
    expect(byId(after)).toEqual(byId(before));
    expect(byId(after).flatMap((connection) => connection.keys)).toEqual([
      first?.sha256,
      second?.sha256,
    ]);

    // The event log expands each key_collected's key from wherever its connection is.
    const log = await callJson<{ items: { type: string; payload: { key?: Key } }[] }>(
      `/api/v1/events/?session_id=${session.id}&type=key_collected`,
      200,
      { key: project.apiKey },
    );
    const logged = log.items.map((event) => event.payload.key?.public_key_ssh);
    expect(logged).toHaveLength(2);
    expect(logged).toEqual(
      expect.arrayContaining(
        [first, second].map((key) => expect.stringContaining(blobOf(key?.openssh ?? ""))),
      ),
    );

    // The overview counts both connections and both keys.
    const overview = await projectOverview(contextOf(project));
    expect(overview.connections).toEqual({ counted: 2, finished: 2 });
    expect(overview.keyTypes.reduce((sum, type) => sum + type.keys, 0)).toBe(2);
    expect(overview.days.reduce((sum, day) => sum + day.proofs, 0)).toBe(2);
  });

  it("redacts each connection's keys inside its row", async () => {
    const { project, session } = await twoConnections();
    await callJson(`${BASE}${session.id}/redact/`, 200, { method: "POST", key: project.apiKey });
    await vi.waitFor(async () => {
      const [row] = await project.db.select().from(sessions).where(eq(sessions.id, session.id));
      expect(row?.redactedAt).not.toBeNull();
      const rows = await project.db
        .select()
        .from(connections)
        .where(eq(connections.sessionId, session.id));
      expect(rows).toHaveLength(2);
      for (const connection of rows) expectRedactedConnectionRow(connection);
    }, 10_000);
  });
});
