import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh, startAgent } from "./helpers/ssh.ts";

const ctx = useBridge();
const ssh = (user: string, options: Omit<Parameters<typeof runSsh>[0], "port" | "user"> = {}) =>
  runSsh({ port: ctx.bridge.port, user, ...options });
const configured = (...keys: { publicKey: string }[]) =>
  keys.map((key, i) => ({ name: `key ${i}`, public_key: key.publicKey }));

describe("verification over real SSH", () => {
  it("verifies the matching key and records only it", async () => {
    const expected = makeKey("ecdsa");
    const stranger = makeKey("ed25519");
    const session = await ctx.api.createSession("verify", { keys: configured(expected) });
    const result = await ssh(session.connection_identifier, { keys: [stranger, expected] });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Verified");
    expect(result.stdout).toContain(expected.sha256);
    // The other key is named for what it is: offered, and not one this session expects.
    const unexpected = result.stdout.indexOf("Not expected by this session:");
    expect(unexpected).toBeGreaterThan(-1);
    expect(result.stdout.indexOf(stranger.sha256)).toBeGreaterThan(unexpected);
    const after = await ctx.api.getSession("verify", session.id);
    expect(after.status).toBe("verified");
    expect(after.verified_at).not.toBeNull();
    expect(after.keys?.[0]?.verified_at).not.toBeNull();
    expect(after.connections[0]?.keys.map((k) => k.public_key_sha256)).toEqual([expected.sha256]);
  });

  it("counts a non-matching key as a failed attempt and fails at max_attempts", async () => {
    const expected = makeKey();
    const stranger = makeKey();
    const session = await ctx.api.createSession("verify", {
      keys: configured(expected),
      max_attempts: 2,
    });
    const first = await ssh(session.connection_identifier, { keys: [stranger] });
    expect(first.stdout).toContain("not one this session expects");
    expect(first.stdout).toContain("1 attempt left");
    let after = await ctx.api.getSession("verify", session.id);
    expect(after).toMatchObject({ status: "pending", failed_attempts: 1 });
    expect(after.connections[0]?.keys).toEqual([]);

    const second = await ssh(session.connection_identifier, { keys: [stranger] });
    expect(second.stdout).toContain("the session has failed");
    after = await ctx.api.getSession("verify", session.id);
    expect(after).toMatchObject({ status: "failed", failed_attempts: 2 });

    const third = await ssh(session.connection_identifier, { keys: [expected] });
    expect(third.code).toBe(255);
    expect(third.stderr).toContain("has failed after too many attempts");
  });

  it("with multi_key checks every offered key against the configured ones", async () => {
    const [a, b] = [makeKey(), makeKey("ecdsa")];
    const agent = startAgent([a, b]);
    try {
      const session = await ctx.api.createSession("verify", {
        keys: configured(a, b),
        multi_key: true,
        match_all_keys: true,
      });
      const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
      expect(result.code).toBe(0);
      const after = await ctx.api.getSession("verify", session.id);
      expect(after.status).toBe("verified");
      expect(after.keys?.every((key) => key.verified_at !== null)).toBe(true);
    } finally {
      agent.stop();
    }
  });

  it("satisfies match_all_keys across two connections", async () => {
    const [a, b] = [makeKey(), makeKey()];
    const session = await ctx.api.createSession("verify", {
      keys: configured(a, b),
      match_all_keys: true,
      multi_connection: true,
    });
    const first = await ssh(session.connection_identifier, { keys: [a] });
    expect(first.stdout).toContain("1 more key must still be proven");
    expect((await ctx.api.getSession("verify", session.id)).status).toBe("pending");
    await ssh(session.connection_identifier, { keys: [b] });
    const after = await ctx.api.getSession("verify", session.id);
    expect(after.status).toBe("verified");
    expect(after.connections).toHaveLength(2);
  });

  it("refuses the next connection once a single-connection session is verified", async () => {
    const key = makeKey();
    const session = await ctx.api.createSession("verify", { keys: configured(key) });
    expect((await ssh(session.connection_identifier, { keys: [key] })).code).toBe(0);
    const again = await ssh(session.connection_identifier, { keys: [key] });
    expect(again.code).toBe(255);
    expect(again.stderr).toContain("already verified");
  });
});

describe("key types", () => {
  it.each([
    ["ed25519", undefined],
    ["ecdsa", 256],
    ["ecdsa", 384],
    ["ecdsa", 521],
    ["rsa", 2048],
    ["rsa", 3072],
  ] as const)("collects %s %s keys", async (type, bits) => {
    const key = makeKey(type, bits);
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { keys: [key] });
    expect(result.stdout).toContain(key.sha256);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.connections[0]?.keys.map((k) => k.public_key_sha256)).toEqual([key.sha256]);
  });

  it.each([
    [
      "dsa",
      makeKey("dsa"),
      ["-o", "PubkeyAcceptedAlgorithms=+ssh-dss"],
      /DSA keys are not supported/,
    ],
    ["RSA 1024", makeKey("rsa", 1024), [], /1024 bits are too short/],
    [
      "SHA-1 ssh-rsa signatures",
      makeKey("rsa", 2048),
      ["-o", "PubkeyAcceptedAlgorithms=ssh-rsa"],
      /SHA-1/,
    ],
  ])("refuses %s with a reason and records nothing", async (_, key, extraArgs, reason) => {
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { keys: [key], extraArgs });
    expect(result.stdout).toMatch(reason);
    expect(result.stdout).toContain(key.sha256);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("pending");
    expect(after.connections[0]?.keys).toEqual([]);
  });
});
