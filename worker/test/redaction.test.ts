import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connections, sessions } from "../src/db/sessions.ts";
import { RETIRE_AFTER_MS } from "../src/domain/retention.ts";
import { blobOf, connectAndFinish, finishConnection, openConnection } from "./bridge-calls.ts";
import { freshAddress, freshEd25519, freshWord } from "./fresh-traces.ts";
import { call, callJson, createSession, deliveryAt, expectProblem, newProject } from "./helpers.ts";
import {
  changeHeldSession,
  everythingInD1,
  everythingInObject,
  expectRedactedConnectionRow,
  indexed,
  NOTHING_STORED,
  objectOf,
  storageOf,
} from "./session-objects.ts";

/** Redaction erases a closed session's personal data, not its outline. */

const fixture = (label: string) => env.TEST_KEYS.accepted.find((key) => key.label === label);
const ed25519 = fixture("ed25519");

interface Key {
  public_key_ssh: string;
  public_key_pem: string | null;
  public_key_md5: string;
  public_key_sha256: string;
  comment: string | null;
  name?: string | null;
  external_id?: string | null;
}
interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  external_id: string | null;
  return_url: string | null;
  ssh_message: string | null;
  redacted_at: string | null;
  completed_at: string | null;
  keys?: Key[];
  connections: { ip_address: string; client_version: string; keys: Key[] }[];
}

const COLLECT = "/api/v1/ssh/collect/sessions";
const VERIFY = "/api/v1/ssh/verify/sessions";

/** A collected session, closed, with a webhook that heard everything: what redaction must erase. */
async function collectedSession() {
  const { apiKey, db } = await newProject();
  // A receiver that echoes what it got: its answers, kept with each attempt, say it all again.
  const hookPath = `/echo/redaction-${crypto.randomUUID()}`;
  await callJson("/api/v1/webhooks/", 201, {
    method: "POST",
    key: apiKey,
    body: { url: `${env.RECEIVER_URL}${hookPath}` },
  });
  // A key, an address and words of its own: finding one anywhere means finding this session's.
  const word = freshWord();
  const created = await createSession<Detail>(apiKey, "collect", {
    external_id: `customer-${word}`,
    return_url: `https://shop.example/return-${word}`,
    ssh_message: `Thanks, Alice ${word}`,
  });
  const address = freshAddress();
  const opened = await openConnection(created.connection_identifier, address);
  const { outcome } = await finishConnection(opened, { keys: [blobOf(await freshEd25519())] });
  expect(outcome).toBe("collected");
  await indexed(created.id);
  const before = await callJson<Detail>(`${COLLECT}/${created.id}`, 200, { key: apiKey });
  const key = before.connections[0]?.keys[0];
  if (!key) throw new Error("no key collected");
  // What identifies the user, as the API showed it before.
  const traces = [
    key.public_key_sha256,
    key.public_key_md5,
    blobOf(key.public_key_ssh),
    `"${address}"`,
    `customer-${word}`,
    `shop.example/return-${word}`,
    `Alice ${word}`,
  ];
  for (const trace of traces) expect(await everythingInD1()).toContain(trace);
  return { apiKey, db, session: before, hookPath, traces };
}

describe("redacting a session", () => {
  it("erases its personal data from the API, D1, its object, the event log and deliveries, and keeps its outline", async () => {
    const { apiKey, db, session, hookPath, traces } = await collectedSession();
    await deliveryAt(hookPath, "collect_session.status_changed");

    const redacted = await callJson<Detail>(`${COLLECT}/${session.id}/redact/`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(redacted).toMatchObject({
      id: session.id,
      status: "completed",
      completed_at: session.completed_at,
      external_id: null,
      return_url: null,
      ssh_message: null,
    });
    expect(redacted.redacted_at).toEqual(expect.any(String));
    // The outline: one connection, one key, each with nothing that identifies anyone.
    expect(redacted.connections).toHaveLength(1);
    expect(redacted.connections[0]).toMatchObject({
      ip_address: "[redacted]",
      client_version: "[redacted]",
    });
    expect(redacted.connections[0]?.keys).toHaveLength(1);
    expect(redacted.connections[0]?.keys[0]).toMatchObject({
      public_key_ssh: "[redacted]",
      public_key_pem: null,
      public_key_md5: "[redacted]",
      public_key_sha256: "[redacted]",
      comment: null,
      public_key_algorithm: "ssh-ed25519",
    });

    // Idempotent: the same answer again, and no second event.
    const again = await callJson<Detail>(`${COLLECT}/${session.id}/redact`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(again).toEqual(redacted);
    expect(await callJson(`${COLLECT}/${session.id}`, 200, { key: apiKey })).toEqual(redacted);

    const attestation = await call(`${COLLECT}/${session.id}/attestation`, { key: apiKey });
    expect((await expectProblem(attestation, 410)).detail).toContain("redacted");

    // The event log keeps the events, without what they said about the user; one `redacted`.
    const log = await callJson<{ items: { type: string; payload: Record<string, unknown> }[] }>(
      `/api/v1/events/?session_id=${session.id}`,
      200,
      { key: apiKey },
    );
    expect(log.items.map((event) => event.type).sort()).toEqual([
      "key_collected",
      "new_connection",
      "redacted",
      "status_changed",
    ]);
    expect(log.items.find((event) => event.type === "redacted")?.payload).toEqual({
      collect_session_id: session.id,
      collect_session_external_id: null,
      collect_session_connection_identifier: session.connection_identifier,
      redacted_at: redacted.redacted_at,
    });
    const ending = log.items.find((event) => event.type === "status_changed")?.payload;
    expect(ending?.attestation ?? null).toBeNull();

    const delivered = await deliveryAt(hookPath, "collect_session.redacted");
    expect(delivered.payload).toMatchObject({ redacted_at: redacted.redacted_at });

    // Nowhere stored: not in any D1 row (events, deliveries and attempts included), not in the object.
    const [connection] = await db
      .select()
      .from(connections)
      .where(eq(connections.sessionId, session.id));
    expectRedactedConnectionRow(connection);
    const d1 = await everythingInD1();
    const object = await everythingInObject(objectOf(session.id));
    for (const trace of traces) {
      expect(d1).not.toContain(trace);
      expect(object).not.toContain(trace);
    }
    // The dashboard's list and the API's list show the outline.
    const list = await callJson<{ items: Detail[] }>(`${COLLECT}/`, 200, { key: apiKey });
    expect(list.items[0]).toMatchObject({ id: session.id, redacted_at: redacted.redacted_at });
  }, 30_000);

  it("is refused with 409 while the session accepts connections", async () => {
    const { apiKey } = await newProject();
    const open = await createSession<Detail>(apiKey, "collect", { external_id: "kept" });
    const refused = await call(`${COLLECT}/${open.id}/redact/`, { method: "POST", key: apiKey });
    const problem = await expectProblem(refused, 409);
    expect(problem.detail).toContain("still accepts connections");
    expect(problem.detail).toContain("complete it");
    const still = await callJson<Detail>(`${COLLECT}/${open.id}`, 200, { key: apiKey });
    expect(still).toMatchObject({ external_id: "kept", redacted_at: null });
    // Another project's key finds no such session.
    const other = await newProject();
    await expectProblem(
      await call(`${COLLECT}/${open.id}/redact/`, { method: "POST", key: other.apiKey }),
      404,
    );
  });

  it("erases a verification session's configured keys, their names and references", async () => {
    const [first, second, word] = [await freshEd25519(), await freshEd25519(), freshWord()];
    const { apiKey } = await newProject();
    const created = await createSession<Detail>(apiKey, "verify", {
      external_id: `employee-${word}`,
      keys: [
        { public_key: first, name: `Alice's laptop ${word}`, external_id: `key-${word}` },
        { public_key: second, name: `Alice's phone ${word}` },
      ],
    });
    const { outcome } = await connectAndFinish(created.connection_identifier, {
      keys: [blobOf(first)],
    });
    expect(outcome).toBe("verified");
    const before = await callJson<Detail>(`${VERIFY}/${created.id}`, 200, { key: apiKey });
    // The second key is this test's alone: finding it anywhere means finding this session's.
    const secondFingerprint = before.keys?.[1]?.public_key_sha256 ?? "";
    await indexed(created.id);
    expect(await everythingInD1()).toContain(secondFingerprint);
    const redacted = await callJson<Detail>(`${VERIFY}/${created.id}/redact/`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(redacted.status).toBe("verified");
    expect(redacted.keys).toHaveLength(2);
    for (const key of redacted.keys ?? [])
      expect(key).toMatchObject({
        public_key_sha256: "[redacted]",
        name: null,
        external_id: null,
        comment: null,
      });
    // The redaction reaches D1 with its push, a moment after the answer.
    await indexed(created.id);
    const d1 = await everythingInD1();
    for (const trace of [secondFingerprint, blobOf(second), word]) expect(d1).not.toContain(trace);
  });

  it("reads back redacted once its object has retired, and a repeated create is told the answer is gone", async () => {
    const { apiKey, db } = await newProject();
    const idempotencyKey = crypto.randomUUID();
    const body = { external_id: "once-only" };
    const createdResponse = await call(`${COLLECT}/`, {
      method: "POST",
      key: apiKey,
      body,
      headers: { "idempotency-key": idempotencyKey },
    });
    expect(createdResponse.status).toBe(201);
    const created = (await createdResponse.json()) as Detail;
    await connectAndFinish(created.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const redacted = await callJson<Detail>(`${COLLECT}/${created.id}/redact/`, 200, {
      method: "POST",
      key: apiKey,
    });
    await indexed(created.id);

    const repeat = await call(`${COLLECT}/`, {
      method: "POST",
      key: apiKey,
      body,
      headers: { "idempotency-key": idempotencyKey },
    });
    const gone = await expectProblem(repeat, 410);
    expect(gone.detail).toContain("redacted");
    expect(gone.detail).not.toContain("once-only");

    // A deleted session's create answer is not replayed either.
    const deletedKey = crypto.randomUUID();
    const made = await call(`${COLLECT}/`, {
      method: "POST",
      key: apiKey,
      body: { external_id: "then-deleted" },
      headers: { "idempotency-key": deletedKey },
    });
    const deleted = (await made.json()) as Detail;
    expect((await call(`${COLLECT}/${deleted.id}`, { method: "DELETE", key: apiKey })).status).toBe(
      204,
    );
    const again = await call(`${COLLECT}/`, {
      method: "POST",
      key: apiKey,
      body: { external_id: "then-deleted" },
      headers: { "idempotency-key": deletedKey },
    });
    expect((await expectProblem(again, 410)).detail).toContain("deleted");

    // The object retires; the session, read back from D1, is the redacted one.
    const completedAt = new Date(Date.now() - RETIRE_AFTER_MS - 1_000).toISOString();
    await changeHeldSession(created.id, { completedAt });
    await db.update(sessions).set({ completedAt }).where(eq(sessions.id, created.id));
    expect(await runDurableObjectAlarm(objectOf(created.id))).toBe(true);
    expect(await storageOf(objectOf(created.id))).toEqual(NOTHING_STORED);
    const readBack = await callJson<Detail>(`${COLLECT}/${created.id}`, 200, { key: apiKey });
    expect(readBack).toEqual({ ...redacted, completed_at: completedAt });
  });
});
