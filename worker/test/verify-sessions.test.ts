import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { freshEd25519 } from "./fresh-traces.ts";
import { call, callJson, createSession, expectProblem, locations, newProject } from "./helpers.ts";

const BASE = "/api/v1/ssh/verify/sessions/";
const { accepted, refused } = env.TEST_KEYS;
const fixture = (label: string) => {
  const found = accepted.find((key) => key.label === label);
  if (!found) throw new Error(`no fixture ${label}`);
  return found;
};

type Key = {
  name: string | null;
  public_key_sha256: string;
  public_key_md5: string;
  verified_at: string | null;
};
type Session = { id: string; status: string; keys: Key[]; [field: string]: unknown };

describe("verification sessions: happy path", () => {
  it("creates a session with keys in every accepted format", async () => {
    const { apiKey } = await newProject();
    const ed = fixture("ed25519");
    const ec = fixture("ecdsa-384");
    const rsa = fixture("rsa-2048");
    const session = await callJson<Session>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: {
        external_id: "user-7",
        match_all_keys: true,
        max_attempts: 3,
        keys: [
          { name: "laptop", external_id: "dev-1", public_key: ed.openssh },
          { name: "rfc", public_key: ec.rfc4716 },
          { public_key: rsa.pem[1] },
        ],
      },
    });
    expect(session.id).toMatch(/^vs_/);
    expect(session).toMatchObject({
      status: "pending",
      match_all_keys: true,
      max_attempts: 3,
      failed_attempts: 0,
      verified_at: null,
      connections: [],
    });
    expect(session.keys.map((key) => key.public_key_sha256)).toEqual([
      ed.sha256,
      ec.sha256,
      rsa.sha256,
    ]);
    expect(session.keys.map((key) => key.public_key_md5)).toEqual([ed.md5, ec.md5, rsa.md5]);
    expect(session.keys[0]).toMatchObject({
      name: "laptop",
      external_id: "dev-1",
      verified_at: null,
      comment: ed.comment,
    });

    const fetched = await callJson<Session>(`${BASE}${session.id}/`, 200, { key: apiKey });
    expect(fetched).toEqual(session);
    const list = await callJson<{ items: Session[] }>(BASE, 200, { key: apiKey });
    expect(list.items[0]?.keys).toHaveLength(3);
  });

  it("defaults max_attempts to 1 and match_all_keys to false", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "verify", {
      keys: [{ public_key: fixture("ed25519").openssh }],
    });
    expect(session).toMatchObject({ max_attempts: 1, match_all_keys: false, multi_key: false });
  });

  it("changes max_attempts, but not below the failed attempts already made", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "verify", {
      keys: [{ public_key: fixture("ed25519").openssh }],
    });
    const patched = await callJson<Session>(`${BASE}${session.id}`, 200, {
      method: "PATCH",
      key: apiKey,
      body: { max_attempts: 5, match_all_keys: true },
    });
    expect(patched).toMatchObject({ max_attempts: 5, match_all_keys: true });
  });

  it("completes a multi-connection session with no verified key as failed", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<Session>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { multi_connection: true, keys: [{ public_key: fixture("ed25519").openssh }] },
    });
    const done = await callJson<Session>(`${BASE}${session.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    expect(done.status).toBe("failed");
    await expectProblem(
      await call(`${BASE}${session.id}/complete/`, { method: "POST", key: apiKey }),
      409,
    );
  });
});

describe("verification sessions: limits", () => {
  it("stores the maximum of 50 keys", async () => {
    const { apiKey } = await newProject();
    const keys = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => ({
        name: `k${i}`,
        public_key: await freshEd25519(),
      })),
    );
    const session = await callJson<Session>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys },
    });
    expect(session.keys).toHaveLength(50);
    expect(session.keys.map((key) => key.name)).toEqual(keys.map((key) => key.name));
  });
});

describe("verification sessions: invalid keys", () => {
  it("names the invalid key by its index", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(BASE, {
        method: "POST",
        key: apiKey,
        body: {
          keys: [
            { public_key: fixture("ed25519").openssh },
            { public_key: "ssh-ed25519 nonsense" },
          ],
        },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.keys[1].public_key"]);
    expect(problem.errors?.[0]?.value).toBe("ssh-ed25519 nonsense");
  });

  it.each([
    ["DSA", refused.dsa, /DSA/],
    ["RSA 1024", refused["rsa-1024"], /too short/],
  ])("refuses %s keys", async (_, publicKey, message) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(BASE, {
        method: "POST",
        key: apiKey,
        body: { keys: [{ public_key: publicKey }] },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.keys[0].public_key"]);
    expect(problem.detail).toMatch(message);
  });

  it("refuses the same key twice, even in another format", async () => {
    const { apiKey } = await newProject();
    const rsa = fixture("rsa-3072");
    const problem = await expectProblem(
      await call(BASE, {
        method: "POST",
        key: apiKey,
        body: {
          keys: [
            { public_key: rsa.openssh },
            { public_key: fixture("ed25519").openssh },
            { public_key: rsa.pem[0] },
          ],
        },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.keys[2].public_key"]);
    expect(problem.detail).toMatch(/Duplicate of keys\[0\]/);
  });

  it("requires 1 to 50 keys", async () => {
    const { apiKey } = await newProject();
    const none = await expectProblem(
      await call(BASE, { method: "POST", key: apiKey, body: { keys: [] } }),
      400,
    );
    expect(locations(none)).toEqual(["body.keys"]);
    const missing = await expectProblem(
      await call(BASE, { method: "POST", key: apiKey, body: {} }),
      400,
    );
    expect(locations(missing)).toEqual(["body.keys"]);
    const tooMany = Array.from({ length: 51 }, () => ({ public_key: fixture("ed25519").openssh }));
    const over = await expectProblem(
      await call(BASE, { method: "POST", key: apiKey, body: { keys: tooMany } }),
      400,
    );
    expect(locations(over)).toEqual(["body.keys"]);
  });
});
