import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, createSession, expectProblem, locations, newProject } from "./helpers.ts";
import { changeHeldSession, indexed, objectOf } from "./session-objects.ts";

type Event = {
  id: string;
  type: string;
  session_id: string | null;
  entity: string;
  payload: Record<string, unknown>;
};
type Events = { items: Event[]; total: number };

const key = (label: string) =>
  env.TEST_KEYS.accepted.find((fixture) => fixture.label === label)?.openssh ?? "";

async function events(apiKey: string, query = "") {
  return callJson<Events>(`/api/v1/events/${query}`, 200, { key: apiKey });
}

describe("the event log", () => {
  it("records a collection in order: new_connection, key_collected, status_changed", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect", { external_id: "user-1" });
    const { connectionId } = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(key("ed25519"))],
    });
    const log = await events(apiKey, `?session_id=${session.id}`);
    expect(log.items.map((event) => event.type).reverse()).toEqual([
      "new_connection",
      "key_collected",
      "status_changed",
    ]);
    const [statusChanged, keyCollected, newConnection] = log.items;
    expect(newConnection?.payload).toMatchObject({
      collect_session_id: session.id,
      collect_session_external_id: "user-1",
      collect_session_connection_identifier: session.connection_identifier,
      collect_connection_id: connectionId,
      ip_address: "198.51.100.7",
      client_version: "SSH-2.0-OpenSSH_9.6",
    });
    expect(keyCollected?.payload).toMatchObject({
      collect_connection_id: connectionId,
      key: {
        public_key_sha256: env.TEST_KEYS.accepted.find((f) => f.label === "ed25519")?.sha256,
        public_key_algorithm: "ssh-ed25519",
      },
    });
    expect(statusChanged?.payload).toMatchObject({
      status: "completed",
      previous_status: "pending",
    });
    expect(statusChanged?.entity).toBe("collect_session");
  });

  it("records verified and failed_attempt for verification sessions", async () => {
    const { apiKey } = await newProject();
    const create = (body: unknown) =>
      callJson<{ id: string; connection_identifier: string }>("/api/v1/ssh/verify/sessions/", 201, {
        method: "POST",
        key: apiKey,
        body,
      });
    const good = await create({ keys: [{ public_key: key("ecdsa-256") }] });
    await connectAndFinish(good.connection_identifier, { keys: [blobOf(key("ecdsa-256"))] });
    const goodLog = await events(apiKey, `?session_id=${good.id}`);
    expect(goodLog.items.map((event) => event.type).reverse()).toEqual([
      "new_connection",
      "verified",
      "status_changed",
    ]);
    expect(goodLog.items[1]?.payload).toMatchObject({
      verify_session_id: good.id,
      keys: [{ public_key_algorithm: "ecdsa-sha2-nistp256" }],
    });

    const bad = await create({ keys: [{ public_key: key("ecdsa-256") }], max_attempts: 2 });
    await connectAndFinish(bad.connection_identifier, { keys: [blobOf(key("ed25519"))] });
    const badLog = await events(apiKey, `?session_id=${bad.id}&type=failed_attempt`);
    expect(badLog.items).toHaveLength(1);
    expect(badLog.items[0]?.payload).toMatchObject({
      outcome: "no_match",
      failed_attempts: 1,
      max_attempts: 2,
    });
  });

  it("records status_changed for complete and for expiry", async () => {
    const { apiKey } = await newProject();
    const multi = await callJson<{ id: string }>("/api/v1/ssh/collect/sessions/", 201, {
      method: "POST",
      key: apiKey,
      body: { multi_connection: true },
    });
    await callJson(`/api/v1/ssh/collect/sessions/${multi.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    const expiring = await callJson<{ id: string }>("/api/v1/ssh/collect/sessions/", 201, {
      method: "POST",
      key: apiKey,
    });
    await changeHeldSession(expiring.id, { expiredAt: new Date(Date.now() - 1000).toISOString() });
    await runDurableObjectAlarm(objectOf(expiring.id));
    await indexed(expiring.id);
    const changes = await events(apiKey, "?type=status_changed");
    const bySession = Object.fromEntries(
      changes.items.map((event) => [event.session_id, event.payload.status]),
    );
    expect(bySession).toEqual({ [multi.id]: "completed", [expiring.id]: "expired" });
  });

  it("pages, filters and stays within the project", async () => {
    const owner = await newProject();
    const other = await newProject();
    const session = await callJson<{ id: string; connection_identifier: string }>(
      "/api/v1/ssh/collect/sessions/",
      201,
      { method: "POST", key: owner.apiKey, body: { multi_connection: true } },
    );
    await connectAndFinish(session.connection_identifier, { keys: [] });
    await connectAndFinish(session.connection_identifier, { keys: [] });
    const page = await callJson<Events & { has_more: boolean; limit: number }>(
      "/api/v1/events/?limit=1",
      200,
      { key: owner.apiKey },
    );
    expect(page).toMatchObject({ total: 2, limit: 1, has_more: true });
    expect((await events(other.apiKey)).total).toBe(0);
    expect((await events(other.apiKey, `?session_id=${session.id}`)).total).toBe(0);
    const problem = await expectProblem(
      await call("/api/v1/events/?type=key", { key: owner.apiKey }),
      400,
    );
    expect(locations(problem)).toEqual(["query.type"]);
  });
});
