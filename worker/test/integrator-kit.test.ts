import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  jwtVerify,
  SignJWT,
} from "jose";
import { describe, expect, it } from "vitest";
import { fakeForgeClient } from "../../test-support/fake-forge.ts";
import { attestationKeysProblem, signAttestation } from "../src/domain/attestations.ts";
import { ABANDONED_AFTER_MS } from "../src/idempotency/idempotency-object.ts";
import { returnUrlProblem } from "../src/schemas/return-url.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, createSession, deliveryAt, expectProblem, newProject } from "./helpers.ts";
import { objectOf } from "./session-objects.ts";

/** Inside workerd: return_url, attestations, Idempotency-Key, request ids. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const ATTESTATION = "keyproof-attestation+jwt";

const jwks = async () => callJson<JSONWebKeySet>("/.well-known/jwks.json", 200);

/** A verification session the fixture key proves, and its attestation. */
async function verifiedSession(body: Record<string, unknown> = {}) {
  const { apiKey, projectId } = await newProject();
  const session = await createSession<{ id: string; connection_identifier: string }>(
    apiKey,
    "verify",
    { keys: [{ public_key: ed25519?.openssh }], ...body },
  );
  await connectAndFinish(session.connection_identifier, { keys: [blobOf(ed25519?.openssh ?? "")] });
  const attestation = await callJson<{ token: string; expires_at: string }>(
    `/api/v1/ssh/verify/sessions/${session.id}/attestation/`,
    200,
    { key: apiKey },
  );
  return { apiKey, projectId, session, attestation };
}

describe("return_url", () => {
  it.each([
    ["javascript:alert(1)", "body.return_url"],
    ["/relative/path", "body.return_url"],
    ["https://user:secret@example.com/done", "body.return_url"],
    [`https://example.com/${"a".repeat(2100)}`, "body.return_url"],
    ["ftp://example.com/", "body.return_url"],
  ])("refuses %s", async (url, location) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call("/api/v1/ssh/collect/sessions/", {
        method: "POST",
        key: apiKey,
        body: { return_url: url },
      }),
      400,
    );
    expect(problem.errors?.[0]?.location).toBe(location);
  });

  it("takes https anywhere and http only when running locally, on create and PATCH", async () => {
    expect(returnUrlProblem("http://example.com/done", false)).toMatch(/https/);
    expect(returnUrlProblem("https://example.com/done?state=1", false)).toBeNull();
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; return_url: string }>(apiKey, "collect", {
      return_url: "https://example.com/done?state=abc",
    });
    expect(session.return_url).toBe("https://example.com/done?state=abc");
    const patched = await callJson<{ return_url: string | null }>(
      `/api/v1/ssh/collect/sessions/${session.id}/`,
      200,
      { method: "PATCH", key: apiKey, body: { return_url: null } },
    );
    expect(patched.return_url).toBeNull();
  });

  it("lets the browser that watched the proof continue there once, with the result and the URL's own query", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; connection_identifier: string }>(
      apiKey,
      "verify",
      {
        keys: [{ public_key: ed25519?.openssh }],
        return_url: "https://integrator.example/done?state=xyz",
      },
    );
    const page = `/p/${session.connection_identifier}`;
    // The browser opens the page before the proof: it is given its watch token.
    const watch = (await call(page)).headers.get("set-cookie")?.split(";")[0] ?? "";
    expect(watch).toMatch(/^kp_watch=\S+\.[\w-]{22}$/);
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const status = await (await call(`${page}/status`)).json<Record<string, unknown>>();
    expect(status).toMatchObject({ state: "done", continues: true, detail: null });
    const html = await (await call(page, { headers: { cookie: watch } })).text();
    expect(html).toContain(`data-continue="${page}/continue"`);
    const continued = await call(`${page}/continue`, { headers: { cookie: watch } });
    expect(continued.status).toBe(303);
    const url = new URL(continued.headers.get("location") ?? "");
    expect(url.origin + url.pathname).toBe("https://integrator.example/done");
    expect(url.searchParams.get("state")).toBe("xyz");
    expect(url.searchParams.get("keyproof_session_id")).toBe(session.id);
    expect(url.searchParams.get("keyproof_status")).toBe("verified");
    const token = url.searchParams.get("keyproof_attestation") ?? "";
    const { payload } = await jwtVerify(token, createLocalJWKSet(await jwks()), {
      typ: ATTESTATION,
    });
    expect(payload.sub).toBe(session.id);
    // Once: a second continue leads nowhere.
    const again = await call(`${page}/continue`, { headers: { cookie: watch } });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You already continued");
  });
});

describe("attestations", () => {
  it("verify against /.well-known/jwks.json, for the project, with the proven keys", async () => {
    const { projectId, session, attestation } = await verifiedSession({ external_id: "u-7" });
    const keys = await jwks();
    const { payload, protectedHeader } = await jwtVerify(
      attestation.token,
      createLocalJWKSet(keys),
      {
        audience: projectId,
        issuer: env.PUBLIC_URL,
        typ: ATTESTATION,
        algorithms: ["EdDSA"],
      },
    );
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", typ: ATTESTATION });
    expect(payload).toMatchObject({
      sub: session.id,
      kind: "verify",
      status: "verified",
      external_id: "u-7",
      keys: [
        expect.objectContaining({
          public_key_sha256: ed25519?.sha256,
          method: "ssh",
          security_key: null,
          certificate: null,
        }),
      ],
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    expect(Date.parse(attestation.expires_at)).toBe((payload.exp ?? 0) * 1000);
  });

  it("publishes both keys of a rotation, and the first signs", async () => {
    const { attestation } = await verifiedSession();
    const published = await jwks();
    // Both configured keys, in order, then the test-mode key derived from the first.
    expect(published.keys).toHaveLength(3);
    const configured = (JSON.parse(env.ATTESTATION_KEYS ?? "{}") as { keys: { x: string }[] }).keys;
    expect(published.keys.slice(0, 2).map((key) => key.x)).toEqual(configured.map((key) => key.x));
    expect(configured.map((key) => key.x)).not.toContain(published.keys[2]?.x);
    for (const key of published.keys) expect(key).not.toHaveProperty("d");
    const header = decodeProtectedHeader(attestation.token);
    const first = published.keys[0];
    expect(header.kid).toBe(
      await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: first?.x ?? "" }),
    );
    expect((await call("/.well-known/jwks.json")).headers.get("cache-control")).toMatch(
      /public, max-age=\d+/,
    );
  });

  it("fails when altered, expired, for another audience, or signed by a key not published", async () => {
    const { projectId, attestation } = await verifiedSession();
    const keySet = createLocalJWKSet(await jwks());
    const verify = (token: string, audience = projectId) =>
      jwtVerify(token, keySet, { audience, typ: ATTESTATION, algorithms: ["EdDSA"] });
    await expect(verify(attestation.token)).resolves.toBeDefined();
    const [header, payload, signature] = attestation.token.split(".");
    const altered = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    altered.status = "verified-by-me";
    const forged = `${header}.${btoa(JSON.stringify(altered)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.${signature}`;
    await expect(verify(forged)).rejects.toThrow();
    await expect(verify(attestation.token, "prj_someoneelse")).rejects.toThrow();
    const state = await objectOf(altered.sub).detail(
      { sessionId: altered.sub },
      { sessionId: altered.sub, projectId, kind: "verify", livemode: true },
    );
    if (!state) throw new Error("no session");
    const old = await signAttestation(env, state, new Date(Date.now() - 11 * 60_000));
    await expect(verify(old?.token ?? "")).rejects.toThrow(/exp/);
    const removed = await generateKeyPair("EdDSA");
    const kid = await calculateJwkThumbprint(await exportJWK(removed.publicKey));
    const byRemovedKey = await new SignJWT(altered)
      .setProtectedHeader({ alg: "EdDSA", kid, typ: ATTESTATION })
      .sign(removed.privateKey);
    await expect(verify(byRemovedKey)).rejects.toThrow();
  });

  it("rides in the status_changed webhook that ends a session, valid when sent, and not in the event log", async () => {
    const path = `/ok/attested-${crypto.randomUUID()}`;
    const { apiKey, session } = await verifiedSession({
      webhooks: [{ url: `${env.RECEIVER_URL}${path}`, events: ["status_changed"] }],
    });
    const delivered = await deliveryAt(path, "verify_session.status_changed");
    const { payload } = await jwtVerify(
      String(delivered.payload.attestation ?? ""),
      createLocalJWKSet(await jwks()),
      { typ: ATTESTATION },
    );
    expect(payload).toMatchObject({ sub: session.id, status: "verified" });
    // Valid for at least another minute when it was sent.
    const sentAt = Math.floor(Date.parse(delivered.request_time) / 1000);
    expect(payload.exp ?? 0).toBeGreaterThan(sentAt + 60);
    const events = await callJson<{ items: { type: string; payload: Record<string, unknown> }[] }>(
      `/api/v1/events/?session_id=${session.id}&type=status_changed`,
      200,
      { key: apiKey },
    );
    expect(events.items).toHaveLength(1);
    expect(events.items[0]?.payload).not.toHaveProperty("attestation");
  });

  it("names the secret that is wrong, at start", () => {
    expect(attestationKeysProblem("not json")).toMatch(/ATTESTATION_KEYS is not JSON/);
    expect(attestationKeysProblem('{"keys":[]}')).toMatch(/at least one key/);
    expect(
      attestationKeysProblem('{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c"}]}'),
    ).toMatch(/key 0 is not an Ed25519 key/);
    const [first] = (JSON.parse(env.ATTESTATION_KEYS ?? "") as { keys: Record<string, string>[] })
      .keys;
    const { d: _d, ...publicOnly } = first ?? {};
    expect(attestationKeysProblem(JSON.stringify({ keys: [publicOnly] }))).toMatch(
      /key 0 signs, so it needs its private part/,
    );
    expect(attestationKeysProblem(env.ATTESTATION_KEYS)).toBeNull();
  });
});

describe("Idempotency-Key", () => {
  const post = (apiKey: string, key: string, body: unknown) =>
    call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body,
      headers: { "idempotency-key": key },
    });

  it("replays the first answer for the same key and body, and refuses another body", async () => {
    const { apiKey } = await newProject();
    const first = await post(apiKey, "create-user-42", { external_id: "user-42" });
    expect(first.status).toBe(201);
    const created = await first.json<{ id: string }>();
    const again = await post(apiKey, "create-user-42", { external_id: "user-42" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json<{ id: string }>()).id).toBe(created.id);
    const list = await callJson<{ total: number }>("/api/v1/ssh/collect/sessions/", 200, {
      key: apiKey,
    });
    expect(list.total).toBe(1);
    const other = await post(apiKey, "create-user-42", { external_id: "user-43" });
    const problem = await expectProblem(other, 422);
    expect(problem.errors?.[0]?.location).toBe("header.idempotency-key");
    // Another project's same key is its own.
    const { apiKey: otherProject } = await newProject();
    expect((await post(otherProject, "create-user-42", { external_id: "user-42" })).status).toBe(
      201,
    );
  });

  it("answers 409 to a repeat while the first is still running", async () => {
    const { apiKey } = await newProject();
    // A verification session whose keys come from a slow forge: the first is still fetching
    // them (a create answers once its object holds it, never waiting for D1).
    const account = `slow-${Date.now().toString(36)}`;
    await fakeForgeClient(env.FORGE_URL).setAccounts({
      [account]: { keys: [ed25519?.openssh ?? ""], delayMs: 1_000 },
    });
    const slow = (key: string) =>
      call("/api/v1/ssh/verify/sessions/", {
        method: "POST",
        key: apiKey,
        body: { keys_from: [`fake:${account}`] },
        headers: { "idempotency-key": key },
      });
    const first = slow("slow");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectProblem(await slow("slow"), 409);
    expect((await first).status).toBe(201);
    expect((await slow("slow")).headers.get("idempotent-replayed")).toBe("true");
  });

  it("finds the first run's session when a create died after its object held it", async () => {
    const { apiKey, projectId } = await newProject();
    const body = { external_id: "user-7", webhooks: [{ url: `${env.RECEIVER_URL}/crash` }] };
    const first = await post(apiKey, "create-user-7", body);
    expect(first.status).toBe(201);
    const created = await first.json<{ id: string; webhooks: { id: string; secret: string }[] }>();
    // The isolate died before the answer was kept: the key's record still says "running", and a
    // minute later it counts as abandoned.
    const records = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(projectId));
    await runInDurableObject(records, (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE records SET answer = NULL, created_at = created_at - ? WHERE key = ?",
        ABANDONED_AFTER_MS + 1_000,
        "live:create-user-7",
      );
    });
    const again = await post(apiKey, "create-user-7", body);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    const rerun = await again.json<{ id: string; webhooks: { id: string; secret: string }[] }>();
    expect(rerun.id).toBe(created.id);
    expect(rerun.webhooks).toEqual(created.webhooks);
    const list = await callJson<{ total: number }>("/api/v1/ssh/collect/sessions/", 200, {
      key: apiKey,
    });
    expect(list.total).toBe(1);
  });

  it("lets a key go at once when the process that ran its request died, not a minute later", async () => {
    const { apiKey, projectId } = await newProject();
    const body = { external_id: "user-8" };
    const first = await post(apiKey, "create-user-8", body);
    const created = await first.json<{ id: string }>();
    // The process dies mid-request: the record still says running, and the object (like every
    // object of the process) starts again.
    const records = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(projectId));
    await runInDurableObject(records, (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE records SET answer = NULL WHERE key = ?",
        "live:create-user-8",
      );
    });
    await runInDurableObject(records, (_instance, state) => state.abort("the process died")).catch(
      () => undefined,
    );
    // Retried at once, it runs (no 409 "still running") and finds the first run's session.
    const again = await post(apiKey, "create-user-8", body);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await again.json<{ id: string }>()).id).toBe(created.id);
    // While the same instance holds a running key, a repeat still waits its turn.
    const held = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(projectId));
    expect(await held.admit("live:held", "print")).toMatchObject({ kind: "run" });
    expect(await held.admit("live:held", "print")).toEqual({ kind: "running" });
  });

  it("writes nothing for a project that never sent a key, until it sends one", async () => {
    const { apiKey, projectId } = await newProject();
    const records = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(projectId));
    const tables = () =>
      runInDurableObject(records, (_instance, state) =>
        state.storage.sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
          .toArray()
          .map((row) => row.name)
          .filter((name) => name === "records"),
      );
    // Retention's sweep and a deletion ask it to forget: with no key ever sent, nothing to do.
    await records.forgetSessions(["cs_01m8dhphdt608eckz8fx5cxm30"], "deleted");
    await records.forgetMode("test", "gone");
    expect(await tables()).toEqual([]);
    expect((await post(apiKey, "first-key", {})).status).toBe(201);
    expect(await tables()).toEqual(["records"]);
    expect((await post(apiKey, "first-key", {})).headers.get("idempotent-replayed")).toBe("true");
  });

  it("keeps nothing for a request no route takes: the key still works once the path is right", async () => {
    const { apiKey } = await newProject();
    const mistyped = await call("/api/v1/collect-sessions/", {
      method: "POST",
      key: apiKey,
      body: { external_id: "user-9" },
      headers: { "idempotency-key": "create-user-9" },
    });
    await expectProblem(mistyped, 404);
    const right = await post(apiKey, "create-user-9", { external_id: "user-9" });
    expect(right.status).toBe(201);
    expect(right.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses a key that is not 1 to 255 visible characters", async () => {
    const { apiKey } = await newProject();
    for (const key of ["", "a".repeat(256), "has space"]) {
      const problem = await expectProblem(await post(apiKey, key, {}), 400);
      expect(problem.errors?.[0]?.location).toBe("header.idempotency-key");
    }
  });
});

describe("request ids", () => {
  it("come with every response", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<{ connection_identifier: string }>(apiKey, "collect");
    for (const response of [
      await call("/api/v1/auth/info/", { key: apiKey }),
      await call("/api/v1/ssh/collect/sessions/nope/", { key: apiKey }),
      await call(`/p/${session.connection_identifier}`),
      await call("/.well-known/jwks.json"),
    ])
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
