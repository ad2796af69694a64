import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fakeForgeClient } from "../../test-support/fake-forge.ts";
import { MAX_SKIPPED_LISTED } from "../src/domain/forges.ts";
import { PROOF_PAGE_REQUESTS_PER_ADDRESS } from "../src/web/routes/proof.tsx";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import {
  call,
  callJson,
  createSession,
  deliveryAt,
  expectProblem,
  locations,
  newProject,
} from "./helpers.ts";
import { objectOf } from "./session-objects.ts";

/** Inside workerd: what the public proof page and anonymous requests can get. */

const forge = fakeForgeClient(env.FORGE_URL);
const { accepted, refused, privateKeys } = env.TEST_KEYS;
const ed25519 = accepted.find((key) => key.label === "ed25519");
const dsa = refused.dsa ?? "";

let counter = 0;
const username = (label: string) => `${label}-${Date.now().toString(36)}-${counter++}`;

/** A verification session the fixture key proves, with a return URL holding the integrator's state. */
async function returningSession(apiKey: string) {
  return createSession<{ id: string; connection_identifier: string }>(apiKey, "verify", {
    keys: [{ public_key: ed25519?.openssh }],
    external_id: "customer-4711",
    return_url: "https://integrator.example/done?state=secret-state",
  });
}

describe("the public proof page hands out nothing of the integrator's", () => {
  it("shows no return URL, state, attestation or external_id in the page, its status or its live channel", async () => {
    const { apiKey } = await newProject();
    const session = await returningSession(apiKey);
    const page = `/p/${session.connection_identifier}`;
    await call(page);
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const live = await call(`${page}/live`, { headers: { upgrade: "websocket" } });
    const socket = live.webSocket;
    if (!socket) throw new Error("no WebSocket");
    const heard = new Promise<string>((resolve) =>
      socket.addEventListener("message", (event) => resolve(String(event.data))),
    );
    socket.accept();
    for (const text of [
      await (await call(page)).text(),
      await (await call(`${page}/status`)).text(),
      await heard,
    ]) {
      for (const secret of ["secret-state", "integrator.example", "customer-4711"])
        expect(text).not.toContain(secret);
      // An attestation is a compact JWS; a bare "eyJ" can occur in a random key fingerprint.
      expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
    }
  });

  it("continues only for a browser that had the page open before the proof, and only once", async () => {
    const { apiKey } = await newProject();
    const session = await returningSession(apiKey);
    const page = `/p/${session.connection_identifier}`;
    const watcher = (await call(page)).headers.get("set-cookie")?.split(";")[0] ?? "";
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    // A browser that comes after the proof is given no token and cannot continue.
    const late = await call(page);
    expect(late.headers.get("set-cookie")).toBeNull();
    expect(await late.text()).toContain("You can close this page.");
    const stranger = await call(`${page}/continue`);
    expect(stranger.status).toBe(409);
    expect(await stranger.text()).toContain("Only the browser that had the proof page open");
    // A token made up, or made for another session's page, is not the watcher's.
    const forged = watcher.replace(/\.[\w-]+$/, ".AAAAAAAAAAAAAAAAAAAAAA");
    expect((await call(`${page}/continue`, { headers: { cookie: forged } })).status).toBe(409);
    const other = await returningSession(apiKey);
    const otherToken = (await call(`/p/${other.connection_identifier}`)).headers
      .get("set-cookie")
      ?.split(";")[0];
    expect((await call(`${page}/continue`, { headers: { cookie: otherToken ?? "" } })).status).toBe(
      409,
    );
    const first = await call(`${page}/continue`, { headers: { cookie: watcher } });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toMatch(/^https:\/\/integrator\.example\/done\?/);
    expect((await call(`${page}/continue`, { headers: { cookie: watcher } })).status).toBe(409);
  });

  it("signs the attestation once, when the session ends: the webhook and the redirect carry the same", async () => {
    const { apiKey } = await newProject();
    const path = `/ok/ending-${crypto.randomUUID()}`;
    await callJson("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}${path}`, events: ["status_changed"] },
    });
    const session = await returningSession(apiKey);
    const page = `/p/${session.connection_identifier}`;
    const watcher = (await call(page)).headers.get("set-cookie")?.split(";")[0] ?? "";
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    const delivered = await deliveryAt(path, "verify_session.status_changed");
    const redirect = new URL(
      (await call(`${page}/continue`, { headers: { cookie: watcher } })).headers.get("location") ??
        "",
    );
    const token = redirect.searchParams.get("keyproof_attestation");
    expect(token?.split(".")).toHaveLength(3);
    expect(delivered.payload.attestation).toBe(token);
    // The same token because it is signed the same way each time, not because one was kept.
    const kept = await runInDurableObject(objectOf(session.id), (_instance, state) =>
      state.storage.kv.get("ending_attestation"),
    );
    expect(kept).toBeUndefined();
  });
});

describe("anonymous requests", () => {
  it("are limited per client address on proof pages", async () => {
    const headers = { "cf-connecting-ip": "203.0.113.77" };
    let status = 0;
    for (let i = 0; i <= PROOF_PAGE_REQUESTS_PER_ADDRESS && status !== 429; i++)
      status = (await call("/p/0000000000000000000000000a", { headers })).status;
    expect(status).toBe(429);
  });
});

describe("forges cannot make keyproof read or wait without end", () => {
  it("reads a huge answer only up to the cap, then stops reading", async () => {
    const { apiKey } = await newProject();
    const name = username("huge");
    await forge.setAccounts({ [name]: { keys: [ed25519?.openssh ?? ""], padToBytes: 60_000_000 } });
    const session = await callJson<{ keys: { source: string }[] }>(
      "/api/v1/ssh/verify/sessions/",
      201,
      { method: "POST", key: apiKey, body: { keys_from: [`fake:${name}`] } },
    );
    expect(session.keys.map((key) => key.source)).toEqual([`fake:${name}`]);
    // The forge wrote far less than 60 MB: the reader stopped.
    await expect.poll(() => forge.bytesSentFor(name)).toBeGreaterThan(0);
    expect(await forge.bytesSentFor(name)).toBeLessThan(20_000_000);
  });

  it("gives the whole fetch one 5 s deadline, however many redirects it follows", async () => {
    const { apiKey } = await newProject();
    const name = username("hops");
    await forge.setAccounts({
      [name]: { keys: [ed25519?.openssh ?? ""], hops: 3, delayMs: 1_800 },
    });
    const started = Date.now();
    const response = await call("/api/v1/ssh/verify/sessions/", {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${name}`] },
    });
    const problem = await expectProblem(response, 503);
    expect(problem.detail).toMatch(/did not answer within 5 s/);
    expect(Date.now() - started).toBeLessThan(6_500);
  }, 15_000);

  it("reports a long list of skipped keys as a few and a count, and never a private key's lines", async () => {
    const { apiKey } = await newProject();
    const name = username("many");
    const privateKey = privateKeys.OpenSSH ?? "";
    await forge.setAccounts({
      [name]: {
        keys: [ed25519?.openssh ?? "", ...Array.from({ length: 300 }, () => dsa), privateKey],
      },
    });
    const response = await call("/api/v1/ssh/verify/sessions/", {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${name}`] },
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    const created = JSON.parse(text) as {
      skipped_keys: { public_key: string }[];
      skipped_count: number;
    };
    expect(created.skipped_keys).toHaveLength(MAX_SKIPPED_LISTED);
    expect(created.skipped_count).toBe(301);
    expect(text.length).toBeLessThan(40_000);
    const privateLines = privateKey.split("\n").filter((line) => line.length > 20);
    for (const line of privateLines) expect(text).not.toContain(line);
  });
});

describe("ids are whole", () => {
  it("answers 404 for an id that shares only the last 16 characters with a real one", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    const alias = `cs_0000000000${session.id.slice(-16)}`;
    expect(alias).not.toBe(session.id);
    for (const [method, path] of [
      ["GET", `/api/v1/ssh/collect/sessions/${alias}/`],
      ["POST", `/api/v1/ssh/collect/sessions/${alias}/webhooks/`],
      ["DELETE", `/api/v1/ssh/collect/sessions/${alias}/`],
    ] as const) {
      const response = await call(path, {
        method,
        key: apiKey,
        body: method === "POST" ? { url: "https://example.com/hook" } : undefined,
      });
      await expectProblem(response, 404);
    }
    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/`, 200, { key: apiKey });
  });
});

describe("private keys in free text", () => {
  it("are refused in every free-text field, and never echoed", async () => {
    const { apiKey } = await newProject();
    const privateKey = privateKeys.OpenSSH ?? "";
    for (const [kind, body, location] of [
      ["collect", { ssh_banner: privateKey }, "body.ssh_banner"],
      ["collect", { ssh_message: privateKey }, "body.ssh_message"],
      ["collect", { external_id: privateKey.slice(0, 250) }, "body.external_id"],
      [
        "verify",
        { keys: [{ public_key: ed25519?.openssh, name: privateKey.slice(0, 250) }] },
        "body.keys[0].name",
      ],
    ] as const) {
      const response = await call(`/api/v1/ssh/${kind}/sessions/`, {
        method: "POST",
        key: apiKey,
        body,
      });
      const text = await response.clone().text();
      const problem = await expectProblem(response, 400);
      expect(locations(problem)).toContain(location);
      expect(text).not.toContain("PRIVATE KEY");
    }
    const hook = await call("/api/v1/webhooks/", {
      method: "POST",
      key: apiKey,
      body: {
        url: "https://example.com/hook",
        headers: { "X-Key": "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjE" },
      },
    });
    expect(locations(await expectProblem(hook, 400))).toEqual(["body.headers.X-Key"]);
  });
});

describe("bookmarks", () => {
  it("answers only bookmarks D1 gave, never one the caller made up", async () => {
    const { apiKey } = await newProject();
    const created = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body: {},
    });
    const real = created.headers.get("keyproof-bookmark") ?? "";
    // Not of the documented form: a 400, answered with a bookmark that asks for nothing.
    for (const madeUp of ["ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff", "0-0"]) {
      const response = await call("/api/v1/ssh/collect/sessions/", {
        key: apiKey,
        headers: { "keyproof-bookmark": madeUp },
      });
      await expectProblem(response, 400);
      expect(response.headers.get("keyproof-bookmark")).toBe("first-unconstrained");
    }
    // Of the form but not made by the Worker: the primary is read, and the
    // answer's bookmark is D1's own, nothing of the one sent.
    const forged = `ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff.${"A".repeat(22)}`;
    const read = await call("/api/v1/ssh/collect/sessions/", {
      key: apiKey,
      headers: { "keyproof-bookmark": forged },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("keyproof-bookmark")).not.toContain("ffffffff-ffffffff");
    const list = await call("/api/v1/ssh/collect/sessions/", {
      key: apiKey,
      headers: { "keyproof-bookmark": real },
    });
    expect(list.status).toBe(200);
  });
});

describe("the live channel", () => {
  it("takes none of the client's own headers to the session's object", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<{ id: string; connection_identifier: string }>(
      apiKey,
      "collect",
    );
    const response = await call(`/p/${session.connection_identifier}/live`, {
      headers: {
        upgrade: "websocket",
        "x-keyproof-legacy-session": "cs_00000000000000000000000000",
        "x-keyproof-watcher-address": "192.0.2.1",
      },
    });
    expect(response.status).toBe(101);
    response.webSocket?.accept();
    await runInDurableObject(objectOf(session.id), (_instance, state) => {
      const [socket] = state.getWebSockets();
      // The address the Worker saw, not the one the client claimed.
      const watcher = socket?.deserializeAttachment() as { address: string } | undefined;
      expect(watcher?.address).not.toBe("192.0.2.1");
    });
  });
});
