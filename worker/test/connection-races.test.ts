import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardBinding } from "../src/db/databases.ts";
import { internal, reported } from "./bridge-calls.ts";
import { call, callJson, createSession, newProject } from "./helpers.ts";

const ED25519_BLOB =
  env.TEST_KEYS.accepted.find((key) => key.label === "ed25519")?.openssh.split(" ")[1] ?? "";

async function openedConnection(body: Record<string, unknown>) {
  const { apiKey, shard } = await newProject();
  const session = await createSession(apiKey, "collect", body);
  const opened = await internal<{ connection_id: string; session_id: string }>(
    "/internal/v1/connections",
    {
      connection_identifier: session.connection_identifier,
      ip_address: "127.0.0.1",
      client_version: "SSH-2.0-test",
    },
  );
  return { apiKey, shard, session, connectionId: opened.json.connection_id };
}

const finish = (sessionId: string, connectionId: string) =>
  internal<{ outcome: string }>(`/internal/v1/connections/${connectionId}/finish`, {
    session_id: sessionId,
    keys: reported([ED25519_BLOB]),
    keys_offered: 1,
    confirmed: null,
  });

describe("a connection racing API changes", () => {
  it.each(Array.from({ length: 5 }, (_, i) => i))(
    "complete vs finish leaves a consistent session (run %i)",
    async () => {
      const { apiKey, session, connectionId } = await openedConnection({ multi_connection: true });
      const [finished, completed] = await Promise.all([
        finish(session.id, connectionId),
        call(`/api/v1/ssh/collect/sessions/${session.id}/complete/`, {
          method: "POST",
          key: apiKey,
        }),
      ]);
      expect(completed.status).toBe(200);
      const after = await callJson<{
        status: string;
        connections: { outcome: string; keys: unknown[] }[];
      }>(`/api/v1/ssh/collect/sessions/${session.id}/`, 200, { key: apiKey });
      expect(after.status).toBe("completed");
      expect(after.connections[0]?.outcome).toBe(finished.json.outcome);
      expect(after.connections[0]?.keys.length).toBe(finished.json.outcome === "collected" ? 1 : 0);
    },
  );

  it("delete vs finish leaves nothing behind", async () => {
    const { apiKey, session, connectionId, shard } = await openedConnection({});
    const [finished, deleted] = await Promise.all([
      finish(session.id, connectionId),
      call(`/api/v1/ssh/collect/sessions/${session.id}/`, { method: "DELETE", key: apiKey }),
    ]);
    expect(deleted.status).toBe(204);
    expect([200, 404]).toContain(finished.status);
    const orphans = await shardBinding(env, shard)
      .prepare("SELECT count(*) AS n FROM connections WHERE session_id = ?")
      .bind(session.id)
      .first<{ n: number }>();
    expect(orphans?.n).toBe(0);
  });

  it("a finished connection cannot be finished twice: the same report again is told what was recorded", async () => {
    const { apiKey, session, connectionId } = await openedConnection({
      multi_connection: true,
      multi_key: true,
    });
    const first = await finish(session.id, connectionId);
    // The bridge never heard the answer (the Worker restarted) and reports again.
    const second = await finish(session.id, connectionId);
    expect(first.json.outcome).toBe("collected");
    expect(second.json).toEqual(first.json);
    const after = await callJson<{ connections: { keys: unknown[] }[] }>(
      `/api/v1/ssh/collect/sessions/${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(after.connections).toHaveLength(1);
    expect(after.connections[0]?.keys).toHaveLength(1);
  });
});
