import { env } from "cloudflare:workers";
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { describe, expect, it, vi } from "vitest";
import { verifyAttestation } from "../../client/src/index.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, createSession, deliveryAt, expectProblem, newProject } from "./helpers.ts";

/** Test mode — keys by mode, data never mixed, test helpers. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const ecdsa = env.TEST_KEYS.accepted.find((key) => key.label === "ecdsa-256");

interface Detail {
  id: string;
  status: string;
  livemode: boolean;
  connection_identifier: string;
  failed_attempts?: number;
  keys?: { public_key_sha256: string; verified_at: string | null }[];
  connections: {
    outcome: string;
    confirmed: boolean | null;
    client_version: string;
    keys: { public_key_algorithm: string; security_key: { user_present: boolean | null } | null }[];
  }[];
}

const simulate = (key: string, kind: "collect" | "verify", id: string, body: unknown) =>
  call(`/api/v1/test_helpers/ssh/${kind}/sessions/${id}/simulate/`, {
    method: "POST",
    key,
    body,
  });

/** The bookmark of each key's last simulation: the event log sent it reads what that wrote. */
const bookmarks = new Map<string, string>();

const simulated = async (key: string, kind: "collect" | "verify", id: string, body: unknown) => {
  const response = await simulate(key, kind, id, body);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  bookmarks.set(key, response.headers.get("keyproof-bookmark") ?? "");
  return JSON.parse(text) as Detail;
};

const events = (key: string, sessionId: string) =>
  callJson<{ items: { type: string; livemode: boolean }[] }>(
    `/api/v1/events/?session_id=${sessionId}`,
    200,
    { key, headers: bookmarks.has(key) ? { "keyproof-bookmark": bookmarks.get(key) ?? "" } : {} },
  );

describe("keys and data by mode", () => {
  it("keeps live and test sessions, lists, events and webhooks apart: the other mode's are 404", async () => {
    const { apiKey, testKey } = await newProject();
    expect(apiKey).toMatch(/^kp_live_/);
    expect(testKey).toMatch(/^kp_test_/);
    const live = await createSession<Detail>(apiKey, "collect");
    const test = await createSession<Detail>(testKey, "collect");
    expect([live.livemode, test.livemode]).toEqual([true, false]);

    await expectProblem(
      await call(`/api/v1/ssh/collect/sessions/${test.id}`, { key: apiKey }),
      404,
    );
    await expectProblem(
      await call(`/api/v1/ssh/collect/sessions/${live.id}`, { key: testKey }),
      404,
    );
    const lists = await Promise.all(
      [apiKey, testKey].map((key) =>
        callJson<{ items: { id: string }[]; total: number }>("/api/v1/ssh/collect/sessions/", 200, {
          key,
        }),
      ),
    );
    expect(lists.map((list) => list.items.map((item) => item.id))).toEqual([[live.id], [test.id]]);
    expect(lists.map((list) => list.total)).toEqual([1, 1]);

    const liveHook = await callJson<{ id: string; livemode: boolean }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}/ok/modes-live-${crypto.randomUUID()}` },
    });
    expect(liveHook.livemode).toBe(true);
    await expectProblem(await call(`/api/v1/webhooks/${liveHook.id}`, { key: testKey }), 404);
    const testHooks = await callJson<{ total: number }>("/api/v1/webhooks/", 200, { key: testKey });
    expect(testHooks.total).toBe(0);

    await simulated(testKey, "collect", test.id, { action: "prove" });
    type Log = { items: { session_id: string; livemode: boolean }[] };
    // The proof's events reach the log with its push, a moment after the answer.
    const testLog = await vi.waitFor(async () => {
      const log = await callJson<Log>("/api/v1/events/", 200, { key: testKey });
      expect(log.items.length).toBeGreaterThan(0);
      return log;
    }, 10_000);
    const liveLog = await callJson<Log>("/api/v1/events/", 200, { key: apiKey });
    expect(liveLog.items).toEqual([]);
    expect(testLog.items.every((event) => event.session_id === test.id && !event.livemode)).toBe(
      true,
    );
  });

  it("delivers test events only to test webhooks and live events only to live ones", async () => {
    const { apiKey, testKey } = await newProject();
    const livePath = `/ok/live-${crypto.randomUUID()}`;
    const testPath = `/ok/test-${crypto.randomUUID()}`;
    for (const [key, path] of [
      [apiKey, livePath],
      [testKey, testPath],
    ] as const)
      await callJson("/api/v1/webhooks/", 201, {
        method: "POST",
        key,
        body: { url: `${env.RECEIVER_URL}${path}`, events: ["status_changed"] },
      });
    const live = await createSession<Detail>(apiKey, "collect");
    const test = await createSession<Detail>(testKey, "collect");
    await connectAndFinish(live.connection_identifier, { keys: [blobOf(ed25519?.openssh ?? "")] });
    await simulated(testKey, "collect", test.id, { action: "prove" });
    const [toLive, toTest] = await Promise.all([
      deliveryAt(livePath, "collect_session.status_changed"),
      deliveryAt(testPath, "collect_session.status_changed"),
    ]);
    expect(toLive).toMatchObject({ id: live.id, livemode: true });
    expect(toTest).toMatchObject({ id: test.id, livemode: false });
    const all = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
      path: string;
      body: string;
    }[];
    const idsAt = (path: string) =>
      all.filter((request) => request.path === path).map((request) => JSON.parse(request.body).id);
    expect(idsAt(livePath)).not.toContain(test.id);
    expect(idsAt(testPath)).not.toContain(live.id);

    // The test ping works in both modes, and says which.
    for (const [key, path, livemode] of [
      [apiKey, livePath, true],
      [testKey, testPath, false],
    ] as const) {
      const hooks = await callJson<{ items: { id: string }[] }>("/api/v1/webhooks/", 200, { key });
      const hook = hooks.items[0]?.id ?? "";
      await callJson(`/api/v1/webhooks/${hook}/test/`, 202, { method: "POST", key });
      expect(await deliveryAt(path, "webhook.ping")).toMatchObject({ id: hook, livemode });
    }
  });

  it("keeps Idempotency-Keys per mode", async () => {
    const { apiKey, testKey } = await newProject();
    const headers = { "idempotency-key": "same-key-both-modes" };
    const [first, second] = await Promise.all(
      [apiKey, testKey].map(async (key) => {
        const response = await call("/api/v1/ssh/collect/sessions/", {
          method: "POST",
          key,
          body: {},
          headers,
        });
        expect(response.headers.get("idempotent-replayed")).toBeNull();
        return (await response.json()) as Detail;
      }),
    );
    expect(first?.livemode).toBe(true);
    expect(second?.livemode).toBe(false);
    expect(first?.id).not.toBe(second?.id);
  });
});

describe("test helpers", () => {
  it("exist only for test keys: a live key is told the path is unknown, whatever it sends", async () => {
    const { apiKey, testKey } = await newProject();
    const test = await createSession<Detail>(testKey, "collect");
    for (const body of [{ action: "prove" }, { action: "nonsense" }, "not json"]) {
      const problem = await expectProblem(await simulate(apiKey, "collect", test.id, body), 404);
      expect(problem.detail).toMatch(/^Nothing at POST/);
    }
    // A live session is unknown to a test key's helper too.
    const live = await createSession<Detail>(apiKey, "collect");
    await expectProblem(await simulate(testKey, "collect", live.id, { action: "prove" }), 404);
  });

  it("are marked on the public proof page, which is otherwise the same", async () => {
    const { apiKey, testKey } = await newProject();
    const test = await createSession<Detail>(testKey, "collect");
    const live = await createSession<Detail>(apiKey, "collect");
    const testPage = await (await call(`/p/${test.connection_identifier}`)).text();
    const livePage = await (await call(`/p/${live.connection_identifier}`)).text();
    expect(testPage).toContain("TEST MODE");
    expect(livePage).not.toContain("TEST MODE");
    expect(testPage).toContain(`ssh -p 2222 ${test.connection_identifier}@`);
  });

  it("prove each key type in a collection session, as a real proof would", async () => {
    const { testKey } = await newProject();
    for (const type of [
      "ssh-ed25519",
      "ecdsa-sha2-nistp256",
      "ssh-rsa",
      "sk-ssh-ed25519@openssh.com",
    ]) {
      const session = await createSession<Detail>(testKey, "collect");
      const after = await simulated(testKey, "collect", session.id, {
        action: "prove",
        key_type: type,
      });
      expect(after.status).toBe("completed");
      expect(after.connections[0]?.outcome).toBe("collected");
      const [key] = after.connections[0]?.keys ?? [];
      expect(key?.public_key_algorithm).toBe(type);
      if (type.startsWith("sk-")) expect(key?.security_key?.user_present).toBe(true);
      const log = await events(testKey, session.id);
      expect(log.items.map((event) => event.type).sort()).toEqual([
        "key_collected",
        "new_connection",
        "status_changed",
      ]);
    }
  });

  it("verify the configured keys, fail on another key, count failed attempts, decline and expire", async () => {
    const { testKey } = await newProject();
    const keys = [{ public_key: ed25519?.openssh }];
    const proven = await createSession<Detail>(testKey, "verify", { keys });
    const verified = await simulated(testKey, "verify", proven.id, { action: "prove" });
    expect(verified.status).toBe("verified");
    expect(verified.keys?.[0]?.verified_at).toEqual(expect.any(String));
    // Rules still apply: the session is closed, as `ssh` would be told.
    const closed = await simulate(testKey, "verify", proven.id, { action: "prove" });
    expect((await expectProblem(closed, 409)).detail).toContain("already verified");

    const other = await createSession<Detail>(testKey, "verify", { keys, max_attempts: 3 });
    const wrong = await simulated(testKey, "verify", other.id, {
      action: "prove",
      public_key: ecdsa?.openssh,
    });
    expect(wrong).toMatchObject({ status: "pending", failed_attempts: 1 });
    expect(wrong.connections[0]?.outcome).toBe("no_match");
    const failing = await simulated(testKey, "verify", other.id, { action: "fail_attempt" });
    expect(failing.failed_attempts).toBe(2);
    const last = await simulated(testKey, "verify", other.id, { action: "fail_attempt" });
    expect(last.status).toBe("failed");
    expect((await events(testKey, other.id)).items.map((event) => event.type)).toContain(
      "failed_attempt",
    );

    const asking = await createSession<Detail>(testKey, "verify", { keys, must_confirm: true });
    const declined = await simulated(testKey, "verify", asking.id, { action: "decline" });
    expect(declined.connections[0]).toMatchObject({ outcome: "declined", confirmed: false });
    const noPrompt = await simulate(testKey, "verify", other.id, { action: "decline" });
    expect((await expectProblem(noPrompt, 409)).detail).toMatch(/must_confirm|closed|failed/);

    const expiring = await createSession<Detail>(testKey, "collect", { multi_connection: true });
    const expired = await simulated(testKey, "collect", expiring.id, { action: "expire" });
    expect(expired.status).toBe("expired");
    expect((await events(testKey, expiring.id)).items.map((event) => event.type)).toEqual([
      "status_changed",
    ]);
  });

  it("refuse bad input with 400 naming the field", async () => {
    const { testKey } = await newProject();
    const session = await createSession<Detail>(testKey, "collect");
    const cases: [unknown, string][] = [
      [{ action: "teleport" }, "body.action"],
      [{ action: "prove", key_type: "ssh-dss" }, "body.key_type"],
      [{ action: "prove", public_key: "not a key" }, "body.public_key"],
      [{ action: "expire", extra: 1 }, "body"],
    ];
    for (const [body, location] of cases) {
      const problem = await expectProblem(
        await simulate(testKey, "collect", session.id, body),
        400,
      );
      expect(problem.errors?.map((error) => error.location).join(" ")).toContain(location);
    }
    const still = await callJson<Detail>(`/api/v1/ssh/collect/sessions/${session.id}`, 200, {
      key: testKey,
    });
    expect(still.connections).toEqual([]);
  });
});

describe("test attestations", () => {
  it("carry livemode false, are signed by the test key, and never verify as live", async () => {
    const { projectId, apiKey, testKey } = await newProject();
    const jwks = await callJson<JSONWebKeySet>("/.well-known/jwks.json", 200);
    const attestationOf = async (key: string, kind: "collect", id: string) =>
      (
        await callJson<{ token: string }>(`/api/v1/ssh/${kind}/sessions/${id}/attestation/`, 200, {
          key,
        })
      ).token;
    const test = await createSession<Detail>(testKey, "collect");
    await simulated(testKey, "collect", test.id, { action: "prove" });
    const live = await createSession<Detail>(apiKey, "collect");
    await connectAndFinish(live.connection_identifier, { keys: [blobOf(ed25519?.openssh ?? "")] });
    const [testToken, liveToken] = [
      await attestationOf(testKey, "collect", test.id),
      await attestationOf(apiKey, "collect", live.id),
    ];
    const testKid = decodeProtectedHeader(testToken).kid;
    const liveKid = decodeProtectedHeader(liveToken).kid;
    expect(testKid).not.toBe(liveKid);
    expect(jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining([testKid, liveKid]));
    const { payload } = await jwtVerify(testToken, createLocalJWKSet(jwks));
    expect(payload).toMatchObject({ sub: test.id, livemode: false });

    const options = { jwks, audience: projectId, issuer: env.PUBLIC_URL.replace(/\/+$/, "") };
    await expect(verifyAttestation(testToken, options)).rejects.toThrow(/test-mode/);
    await expect(
      verifyAttestation(testToken, { ...options, acceptTestMode: true }),
    ).resolves.toMatchObject({ livemode: false });
    await expect(verifyAttestation(liveToken, options)).resolves.toMatchObject({ livemode: true });
  });
});
