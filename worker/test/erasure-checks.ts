import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "../src/db/client.ts";
import { sessions } from "../src/db/sessions.ts";
import { webhookInvocations } from "../src/db/webhooks.ts";
import { PUSH_DELAY_MS } from "../src/session-object/index-feed.ts";
import { blobOf, finishConnection, internal, openConnection } from "./bridge-calls.ts";
import { freshAddress, freshEd25519, freshWord } from "./fresh-traces.ts";
import { call, callJson, createSession, expectProblem, newProject } from "./helpers.ts";
import {
  changeHeldSession,
  everythingInD1,
  indexed,
  NOTHING_STORED,
  objectOf,
  storageOf,
} from "./session-objects.ts";

/** A session made and erased as retention and its checks see it, for every test of it. */

export interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  connections: { ip_address: string; keys: { public_key_sha256: string }[] }[];
}

/**
 * A collected session (a key, an address, events, a webhook delivery) that closed `ago` ms ago,
 * with a key, an address and an external id of its own.
 */
export async function closedSession(ago: number) {
  const { apiKey, projectId, db, shard } = await newProject();
  await callJson("/api/v1/webhooks/", 201, {
    method: "POST",
    key: apiKey,
    body: { url: `${env.RECEIVER_URL}/retention` },
  });
  const externalId = `user-${freshWord()}`;
  const session = await createSession<Detail>(apiKey, "collect", { external_id: externalId });
  const address = freshAddress();
  const opened = await openConnection(session.connection_identifier, address);
  const { outcome } = await finishConnection(opened, { keys: [blobOf(await freshEd25519())] });
  expect(outcome).toBe("collected");
  await indexed(session.id);
  // The push the bridge's change asked for (300 ms on) is made, and its alarm set, before the
  // session is made older: else the alarm it sets for an older session comes at once.
  await new Promise((resolve) => setTimeout(resolve, PUSH_DELAY_MS + 100));
  const completedAt = new Date(Date.now() - ago).toISOString();
  await changeHeldSession(session.id, { completedAt });
  await db.update(sessions).set({ completedAt }).where(eq(sessions.id, session.id));
  const detail = await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}`, 200, {
    key: apiKey,
  });
  const fingerprint = detail.connections[0]?.keys[0]?.public_key_sha256 ?? "";
  expect(fingerprint).not.toBe("");
  // Before: D1 holds it, its events and its delivery.
  const before = await everythingInD1();
  const traces = [session.id, session.connection_identifier, fingerprint, address, externalId];
  for (const trace of traces) expect(before).toContain(trace);
  expect(await deliveriesIn(db, projectId)).toBeGreaterThan(0);
  return { apiKey, projectId, db, shard, session, fingerprint, traces };
}

/** Delivery records in D1 of the project's events (an invocation names no session itself). */
export async function deliveriesIn(db: Database, projectId: string) {
  const rows = await db
    .select({ id: webhookInvocations.id })
    .from(webhookInvocations)
    .where(eq(webhookInvocations.projectId, projectId));
  return rows.length;
}

/** After erasure: unknown on every surface, and nothing of it in D1 or in its object. */
export async function expectErased(
  { apiKey, projectId, db }: { apiKey: string; projectId: string; db: Database },
  session: Detail,
  traces: string[],
) {
  await expectProblem(
    await call(`/api/v1/ssh/collect/sessions/${session.id}`, { key: apiKey }),
    404,
  );
  expect((await call(`/p/${session.connection_identifier}`)).status).toBe(404);
  const opened = await internal<{ accepted: boolean; reason: string }>("/internal/v1/connections", {
    connection_identifier: session.connection_identifier,
    ip_address: "198.51.100.7",
    client_version: "SSH-2.0-OpenSSH_9.6",
  });
  expect(opened.json).toMatchObject({ accepted: false, reason: "unknown" });
  const list = await callJson<{ total: number }>("/api/v1/ssh/collect/sessions/", 200, {
    key: apiKey,
  });
  expect(list.total).toBe(0);
  const events = await callJson<{ items: unknown[] }>("/api/v1/events/", 200, { key: apiKey });
  expect(events.items).toEqual([]);
  const after = await everythingInD1();
  for (const trace of traces) expect(after).not.toContain(trace);
  expect(await storageOf(objectOf(session.id))).toEqual(NOTHING_STORED);
  expect(await deliveriesIn(db, projectId)).toBe(0);
}
