import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOTHING_TO_PROVE } from "../src/schemas/sessions.ts";
import { blobOf, connectAndFinish, finishConnection, openConnection } from "./bridge-calls.ts";
import { call, callJson, createSession, expectProblem, locations, newProject } from "./helpers.ts";

const { accepted, securityKeys, certificates } = env.TEST_KEYS;
const VERIFY = "/api/v1/ssh/verify/sessions/";
const COLLECT = "/api/v1/ssh/collect/sessions/";
const [skEd25519, skEcdsa] = securityKeys;
const ed25519 = accepted.find((key) => key.label === "ed25519");
const certified = certificates.find((fixture) => fixture.label === "ed25519 by an ed25519 CA");
const expired = certificates.find((fixture) => fixture.label === "an expired certificate");
const otherCa = certificates.find((fixture) => fixture.label === "ecdsa-384 by an rsa CA");

const TOUCHED = 0x01;
const VERIFIED = 0x04;
const proof = (line: string | undefined, flags: number, counter: number) => ({
  key: blobOf(line ?? ""),
  security_key: { flags, counter },
});

interface KeyRecord {
  public_key_sha256: string;
  security_key: Record<string, unknown> | null;
  certificate: Record<string, unknown> | null;
}
interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  require_security_key: boolean;
  require_user_verification: boolean;
  principal?: string | null;
  certificate_verified_at?: string | null;
  failed_attempts?: number;
  certificate_authorities?: Record<string, unknown>[];
  connections: { outcome: string; keys: KeyRecord[] }[];
}

const detail = (apiKey: string, kind: "collect" | "verify", id: string) =>
  callJson<Detail>(`${kind === "collect" ? COLLECT : VERIFY}${id}/`, 200, { key: apiKey });

describe("creating sessions for security keys and certificates", () => {
  it("needs something to prove: keys or certificate authorities", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(VERIFY, { method: "POST", key: apiKey, body: {} }),
      400,
    );
    expect(problem.errors).toEqual([
      expect.objectContaining({ location: "body.keys", message: NOTHING_TO_PROVE }),
    ]);
    const principalAlone = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: { keys: [{ public_key: ed25519?.openssh }], principal: "deploy" },
      }),
      400,
    );
    expect(locations(principalAlone)).toEqual(["body.principal"]);
  });

  it("names each key that cannot be used as asked, at its own location", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: {
          require_security_key: true,
          keys: [
            { public_key: skEd25519?.openssh },
            { public_key: ed25519?.openssh },
            { public_key: certified?.openssh },
          ],
          certificate_authorities: [
            { public_key: certified?.caOpenssh },
            { public_key: certified?.caOpenssh },
          ],
        },
      }),
      400,
    );
    expect(problem.errors).toEqual([
      expect.objectContaining({
        location: "body.keys[1].public_key",
        message: expect.stringContaining("Not a security key, and require_security_key is set"),
      }),
      expect.objectContaining({
        location: "body.keys[2].public_key",
        message: expect.stringContaining("OpenSSH certificate"),
      }),
      expect.objectContaining({
        location: "body.certificate_authorities[1].public_key",
        message: "Duplicate of certificate_authorities[0]",
      }),
    ]);
    const tooMany = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: {
          certificate_authorities: Array.from({ length: 11 }, () => ({
            public_key: certified?.caOpenssh,
          })),
        },
      }),
      400,
    );
    expect(locations(tooMany)).toEqual(["body.certificate_authorities"]);
  });

  it("shows the CAs, the principal and both options, which PATCH changes on either kind", async () => {
    const { apiKey } = await newProject();
    const created = await createSession<Detail>(apiKey, "verify", {
      certificate_authorities: [{ name: "Acme users", public_key: certified?.caOpenssh }],
      principal: "deploy",
      require_user_verification: true,
    });
    expect(created).toMatchObject({
      require_security_key: false,
      require_user_verification: true,
      principal: "deploy",
      certificate_verified_at: null,
      certificate_authorities: [
        {
          id: expect.stringMatching(/^ca_/),
          name: "Acme users",
          public_key_ssh: certified?.caOpenssh.split(" ").slice(0, 2).join(" "),
          public_key_sha256: certified?.caSha256,
          public_key_algorithm: "ssh-ed25519",
        },
      ],
    });
    for (const kind of ["collect", "verify"] as const) {
      const session = kind === "verify" ? created : await createSession<Detail>(apiKey, "collect");
      const patched = await callJson<Detail>(
        `${kind === "collect" ? COLLECT : VERIFY}${session.id}/`,
        200,
        {
          method: "PATCH",
          key: apiKey,
          body: { require_security_key: true, require_user_verification: false },
        },
      );
      expect(patched).toMatchObject({
        require_security_key: true,
        require_user_verification: false,
      });
    }
  });
});

describe("what the Worker records of a security key's proof", () => {
  it("records the flags and counter, in the API and the key_collected event", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const result = await connectAndFinish(session.connection_identifier, {
      keys: [proof(skEcdsa?.openssh, TOUCHED | VERIFIED, 7)],
    });
    expect(result.outcome).toBe("collected");
    const expected = {
      application: "ssh:",
      user_present: true,
      user_verified: true,
      counter: 7,
      counter_regressed: false,
    };
    const after = await detail(apiKey, "collect", session.id);
    expect(after.connections[0]?.keys[0]?.security_key).toEqual(expected);
    const events = await callJson<{ items: { type: string; payload: { key?: KeyRecord } }[] }>(
      `/api/v1/events/?session_id=${session.id}`,
      200,
      { key: apiKey },
    );
    const collected = events.items.find((event) => event.type === "key_collected");
    expect(collected?.payload.key?.security_key).toEqual(expected);
  });

  it("keeps nothing a bridge reports without a touch, whatever the bridge says", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const result = await connectAndFinish(session.connection_identifier, {
      keys: [proof(skEd25519?.openssh, 0, 3)],
    });
    expect(result.outcome).toBe("no_key");
    expect((await detail(apiKey, "collect", session.id)).connections[0]?.keys).toEqual([]);
  });

  it("judges by the rules the connection opened with, not a PATCH meanwhile", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const opened = await openConnection(session.connection_identifier);
    await callJson(`${COLLECT}${session.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      body: { require_user_verification: true, require_security_key: true },
    });
    const finished = await finishConnection(opened, {
      keys: [proof(skEd25519?.openssh, TOUCHED, 1)],
    });
    expect(finished.outcome).toBe("collected");
    // The next connection opens under the new rules: a touch alone no longer counts.
    const next = await createSession<Detail>(apiKey, "collect", {
      require_user_verification: true,
    });
    const refused = await connectAndFinish(next.connection_identifier, {
      keys: [proof(skEd25519?.openssh, TOUCHED, 2), ed25519?.openssh.split(" ")[1] ?? ""],
    });
    expect(refused.outcome).toBe("collected");
    const kept = (await detail(apiKey, "collect", next.id)).connections[0]?.keys;
    expect(kept?.map((key) => key.public_key_sha256)).toEqual([ed25519?.sha256]);
  });

  it("marks a counter not above the last one this project recorded, and only this project", async () => {
    const { apiKey } = await newProject();
    const other = await newProject();
    const proveWith = async (key: string, counter: number) => {
      const session = await createSession<Detail>(key, "collect");
      await connectAndFinish(session.connection_identifier, {
        keys: [proof(skEd25519?.openssh, TOUCHED, counter)],
      });
      const after = await detail(key, "collect", session.id);
      return after.connections[0]?.keys[0]?.security_key;
    };
    expect(await proveWith(other.apiKey, 500)).toMatchObject({ counter_regressed: false });
    expect(await proveWith(apiKey, 10)).toMatchObject({ counter_regressed: false });
    expect(await proveWith(apiKey, 11)).toMatchObject({ counter_regressed: false });
    expect(await proveWith(apiKey, 11)).toMatchObject({ counter_regressed: true });
    expect(await proveWith(apiKey, 4)).toMatchObject({ counter_regressed: true });
  });

  it("does not take a counter kept at zero for a clone: the authenticator has none", async () => {
    const { apiKey } = await newProject();
    for (const expected of [false, false]) {
      const session = await createSession<Detail>(apiKey, "collect");
      await connectAndFinish(session.connection_identifier, {
        keys: [proof(skEcdsa?.openssh, TOUCHED, 0)],
      });
      const [key] = (await detail(apiKey, "collect", session.id)).connections[0]?.keys ?? [];
      expect(key?.security_key?.counter_regressed).toBe(expected);
    }
  });
});

describe("verification through certificate authorities, as the Worker records it", () => {
  it("verifies with a trusted certificate and records it; other CAs and expired ones fail", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "verify", {
      certificate_authorities: [
        { public_key: certified?.caOpenssh },
        { public_key: expired?.caOpenssh },
      ],
      principal: "deploy",
      max_attempts: 5,
      multi_connection: true,
    });
    for (const fixture of [otherCa, expired]) {
      const failed = await connectAndFinish(session.connection_identifier, {
        keys: [blobOf(fixture?.openssh ?? "")],
      });
      expect(failed.outcome).toBe("no_match");
    }
    const opened = await openConnection(session.connection_identifier);
    const finished = await finishConnection(opened, { keys: [blobOf(certified?.openssh ?? "")] });
    expect(finished).toMatchObject({ outcome: "verified", keys: [{ certified: true }] });
    const after = await detail(apiKey, "verify", session.id);
    expect(after).toMatchObject({ status: "verified", failed_attempts: 2 });
    expect(after.certificate_verified_at).not.toBeNull();
    expect(after.connections[0]?.keys[0]).toMatchObject({
      public_key_sha256: certified?.sha256,
      certificate: { key_id: "alice", valid: true, ca_public_key_sha256: certified?.caSha256 },
    });
  });
});
