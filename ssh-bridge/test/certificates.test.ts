import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  type SecurityKeyAgent,
  SoftwareSecurityKey,
  startSecurityKeyAgent,
} from "../../test-support/security-keys.ts";
import { useBridge } from "./helpers/context.ts";
import { certify, makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
const ssh = (user: string, options: Omit<Parameters<typeof runSsh>[0], "port" | "user">) =>
  runSsh({ port: ctx.bridge.port, user, ...options });
const agents: SecurityKeyAgent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
});

interface CertifiedRecord {
  public_key_sha256: string;
  public_key_algorithm: string;
  security_key: Record<string, unknown> | null;
  certificate: Record<string, unknown> | null;
}

async function recordsOf(kind: "collect" | "verify", id: string) {
  const session = await ctx.api.getSession(kind, id);
  return session.connections.flatMap((connection) => connection.keys) as CertifiedRecord[];
}

describe("OpenSSH certificates, offered by ssh from id_*-cert.pub beside the key", () => {
  it.each([
    ["ed25519", "ed25519"],
    ["ecdsa", "rsa"],
    ["rsa", "ecdsa"],
  ] as const)(
    "collects a %s key certified by a %s CA with everything its certificate says",
    async (keyType, caType) => {
      const ca = makeKey(caType, caType === "rsa" ? 3072 : undefined);
      const key = makeKey(keyType, keyType === "rsa" ? 2048 : undefined);
      certify(key, ca, {
        id: "alice@example.com",
        principals: ["alice", "deploy"],
        validity: "20200101000000Z:20991231000000Z",
        serial: "18446744073709551000",
        options: ["force-command=uptime", "source-address=127.0.0.1/32", "no-pty"],
      });
      const session = await ctx.api.createSession("collect");
      const result = await ssh(session.connection_identifier, { keys: [key] });
      expect(result.code).toBe(0);
      const label = { ed25519: "ED25519", ecdsa: "ECDSA", rsa: "RSA" }[keyType];
      expect(result.stdout).toContain(`${key.sha256} (${label}-CERT`);
      const [record] = await recordsOf("collect", session.id);
      // The record is the certified key, with its ordinary fingerprint.
      expect(record?.public_key_sha256).toBe(key.sha256);
      expect(record?.certificate).toEqual({
        key_id: "alice@example.com",
        serial: "18446744073709551000",
        principals: ["alice", "deploy"],
        valid_after: expect.stringMatching(/^2020-01-01T00:00:00/),
        valid_before: expect.stringMatching(/^2099-12-31T/),
        critical_options: { "force-command": "uptime", "source-address": "127.0.0.1/32" },
        extensions: expect.arrayContaining(["permit-port-forwarding"]),
        ca_public_key_ssh: ca.publicKey.split(" ").slice(0, 2).join(" "),
        ca_public_key_sha256: ca.sha256,
        valid: true,
        invalid_reason: null,
      });
      expect(record?.certificate?.extensions).not.toContain("permit-pty");
    },
  );

  it("records an expired certificate as not valid (ssh itself never offers a host certificate)", async () => {
    const ca = makeKey("ed25519");
    const key = makeKey("ed25519");
    certify(key, ca, { validity: "20200101000000Z:20200102000000Z" });
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { keys: [key] });
    expect(result.stdout).toContain(`${key.sha256} (ED25519-CERT 256)`);
    const [record] = await recordsOf("collect", session.id);
    expect(record?.certificate).toMatchObject({
      valid_before: expect.stringMatching(/^2020-01-02T/),
      valid: false,
      invalid_reason: "expired",
    });
  });

  it("collects a security key offered in its certificate, with both reports and one touch", async () => {
    const ca = makeKey("ecdsa");
    const key = new SoftwareSecurityKey("ed25519");
    const line = certifySecurityKey(key, ca);
    key.certificates.push(Buffer.from(line.split(" ")[1] ?? "", "base64"));
    const agent = await startSecurityKeyAgent([key]);
    agents.push(agent);
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
    expect(result.stdout).toContain("(ED25519-SK-CERT 256)");
    const [record] = await recordsOf("collect", session.id);
    expect(record?.public_key_algorithm).toBe("sk-ssh-ed25519@openssh.com");
    // Proven bare with one signature; the certificate that follows needs none.
    expect(agent.signatures()).toBe(1);
    expect(record?.security_key).toMatchObject({ user_present: true, counter: 1 });
    expect(record?.certificate).toMatchObject({ ca_public_key_sha256: ca.sha256, valid: true });
  });
});

/** A certificate for a software security key, made by ssh-keygen from its public key. */
function certifySecurityKey(key: SoftwareSecurityKey, ca: ReturnType<typeof makeKey>): string {
  const holder = makeKey("ed25519");
  writeFileSync(`${holder.path}.pub`, `${key.publicKeyLine()}\n`);
  return certify(holder, ca, { principals: ["alice"] });
}

describe("verification through certificate authorities", () => {
  it("a valid certificate from a trusted CA, listing the principal, verifies a session with no keys", async () => {
    const ca = makeKey("ed25519");
    const key = makeKey("ed25519");
    certify(key, ca, { principals: ["alice", "deploy"], validity: "-5m:+1h" });
    const session = await ctx.api.createSession("verify", {
      certificate_authorities: [{ name: "Acme users", public_key: ca.publicKey }],
      principal: "deploy",
    });
    const result = await ssh(session.connection_identifier, { keys: [key] });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Verified: you hold the key this session expects.");
    expect(result.stdout).toContain(`${key.sha256} (ED25519-CERT 256)`);
    const after = await ctx.api.getSession("verify", session.id);
    expect(after).toMatchObject({ status: "verified", failed_attempts: 0 });
    expect(
      (after as unknown as { certificate_verified_at: string | null }).certificate_verified_at,
    ).not.toBeNull();
    const [record] = await recordsOf("verify", session.id);
    expect(record?.certificate).toMatchObject({ ca_public_key_sha256: ca.sha256, valid: true });
  });

  it("fails an attempt, saying why, for another CA, an expired certificate and a missing principal", async () => {
    const trusted = makeKey("ed25519");
    const other = makeKey("ed25519");
    const session = await ctx.api.createSession("verify", {
      certificate_authorities: [{ public_key: trusted.publicKey }],
      principal: "deploy",
      max_attempts: 4,
    });
    const attempts = [
      {
        certified: (key: ReturnType<typeof makeKey>) =>
          certify(key, other, { principals: ["deploy"] }),
        sentence: "its certificate is from a CA this session does not trust",
      },
      {
        certified: (key: ReturnType<typeof makeKey>) =>
          certify(key, trusted, {
            principals: ["deploy"],
            validity: "20200101000000Z:20200102000000Z",
          }),
        sentence: "its certificate expired at 2020-01-0",
      },
      {
        certified: (key: ReturnType<typeof makeKey>) =>
          certify(key, trusted, { principals: ["alice"] }),
        sentence: 'its certificate does not list the principal "deploy"',
      },
    ];
    for (const [index, attempt] of attempts.entries()) {
      const key = makeKey("ed25519");
      attempt.certified(key);
      const result = await ssh(session.connection_identifier, { keys: [key] });
      expect(result.stdout).toContain("The key you offered is not one this session expects:");
      expect(result.stdout).toContain(`${key.sha256} (ED25519-CERT 256): ${attempt.sentence}`);
      expect(result.stdout).toContain(`${4 - index - 1} attempt`);
    }
    const after = await ctx.api.getSession("verify", session.id);
    expect(after).toMatchObject({ status: "pending", failed_attempts: 3 });
    expect(after.connections.map((connection) => connection.outcome)).toEqual([
      "no_match",
      "no_match",
      "no_match",
    ]);
  });

  it("with match_all_keys, the CAs count as one more key to prove", async () => {
    const ca = makeKey("ed25519");
    const configured = makeKey("ed25519");
    const certified = makeKey("ecdsa");
    certify(certified, ca, { principals: ["deploy"] });
    const session = await ctx.api.createSession("verify", {
      keys: [{ public_key: configured.publicKey }],
      certificate_authorities: [{ public_key: ca.publicKey }],
      match_all_keys: true,
      multi_connection: true,
    });
    const first = await ssh(session.connection_identifier, { keys: [configured] });
    expect(first.stdout).toContain("Key verified. 1 more key must still be proven");
    expect((await ctx.api.getSession("verify", session.id)).status).toBe("pending");
    const second = await ssh(session.connection_identifier, { keys: [certified] });
    expect(second.stdout).toContain("Verified: you hold the key this session expects.");
    expect((await ctx.api.getSession("verify", session.id)).status).toBe("verified");
  });
});
