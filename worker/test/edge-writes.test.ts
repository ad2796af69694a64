import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { setPrimaryGate } from "../src/development/d1-simulation.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, newProject } from "./helpers.ts";
import { holdPrimary } from "./primary-gate.ts";
import { objectOf, storageOf } from "./session-objects.ts";

/**
 * An API write answers once the session's object has committed
 * it, not after D1 has; its bookmark names what D1 does not have yet, so a read sent it sees the
 * write, every time.
 */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

afterEach(() => setPrimaryGate(null));

interface Detail {
  id: string;
  status: string;
  external_id: string | null;
  connection_identifier: string;
  expired_at: string;
}

/** A client that keeps the newest bookmark and sends it back, as docs/decisions.md asks. */
function client(key: string) {
  let bookmark: string | undefined;
  return async <T>(method: string, path: string, body?: unknown): Promise<[number, T]> => {
    const response = await call(path, {
      method,
      key,
      body,
      headers: bookmark ? { "keyproof-bookmark": bookmark } : {},
    });
    bookmark = response.headers.get("keyproof-bookmark") ?? bookmark;
    const text = await response.text();
    return [response.status, (text ? JSON.parse(text) : null) as T];
  };
}

describe("writes answered at the edge", () => {
  it("answers create, PATCH, complete, redact and DELETE while D1's primary does not answer", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    // The key is known to this isolate (a first call): no directory read is on the writes' path.
    await api("GET", "/api/v1/auth/info/");
    const primary = holdPrimary();
    try {
      const base = "/api/v1/ssh/collect/sessions";
      const [made, created] = await api<Detail>("POST", `${base}/`, { multi_connection: true });
      expect(made).toBe(201);
      // Its alarm is set before the answer, for just after the push: a push lost with the
      // process (a crash, a deploy) is made within seconds, not at the session's expiry.
      const alarm = (await storageOf(objectOf(created.id))).alarm ?? Number.POSITIVE_INFINITY;
      expect(alarm).toBeLessThanOrEqual(Date.now() + 3_000);
      const path = `${base}/${created.id}/`;
      expect((await api("PATCH", path, { external_id: "edge" }))[0]).toBe(200);
      expect((await api<Detail>("POST", `${path}complete/`))[1].status).toBe("completed");
      expect((await api("POST", `${path}redact/`))[0]).toBe(200);
      expect((await api("DELETE", path))[0]).toBe(204);
      expect(primary.reached).toBeGreaterThan(0);
    } finally {
      primary.release();
    }
  });

  it("shows each write to a read sent its bookmark, every time, back to back", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    const base = "/api/v1/ssh/collect/sessions";
    for (let i = 0; i < 5; i++) {
      const [, created] = await api<Detail>("POST", `${base}/`, { external_id: `first-${i}` });
      const [, listed] = await api<{ items: Detail[] }>("GET", `${base}/?external_id=first-${i}`);
      expect(listed.items.map((item) => item.id)).toEqual([created.id]);
      await api("PATCH", `${base}/${created.id}/`, { external_id: `then-${i}` });
      const [, patched] = await api<{ items: Detail[] }>("GET", `${base}/?external_id=then-${i}`);
      expect(patched.items.map((item) => item.id)).toEqual([created.id]);
      // A proof from the bridge, then the integrator completes nothing: the event log has it all.
      const { outcome } = await connectAndFinish(created.connection_identifier, {
        keys: [blobOf(ed25519?.openssh ?? "")],
      });
      expect(outcome).toBe("collected");
      await api("DELETE", `${base}/${created.id}/`);
      const [, after] = await api<{ items: Detail[] }>("GET", `${base}/?external_id=then-${i}`);
      expect(after.items).toEqual([]);
    }
  });

  it("keeps the order of a session's events through edge writes", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    const base = "/api/v1/ssh/collect/sessions";
    const [, created] = await api<Detail>("POST", `${base}/`, { multi_connection: true });
    await connectAndFinish(created.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    await api("POST", `${base}/${created.id}/complete/`);
    const [, log] = await api<{ items: { type: string }[] }>(
      "GET",
      `/api/v1/events/?session_id=${created.id}`,
    );
    // Newest first: the completion after the proof's events.
    expect(log.items.map((event) => event.type)).toEqual([
      "status_changed",
      "key_collected",
      "new_connection",
    ]);
  });

  it("makes a read sent the bookmark of a write D1 could not take yet wait, then show it", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    await api("GET", "/api/v1/auth/info/");
    const primary = holdPrimary();
    const [, created] = await api<Detail>("POST", "/api/v1/ssh/collect/sessions/", {
      external_id: "waited",
    });
    const listing = api<{ items: Detail[] }>(
      "GET",
      "/api/v1/ssh/collect/sessions/?external_id=waited",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    primary.release();
    const [status, listed] = await listing;
    expect(status).toBe(200);
    expect(listed.items.map((item) => item.id)).toEqual([created.id]);
    // Unchanged while it waited, a call of ours that reads nothing is answered at once.
    expect((await call("/api/v1/auth/info/", { key: apiKey })).status).toBe(200);
  });
});
