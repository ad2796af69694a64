import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { certify, makeKey, runSsh, type SshOptions, type UserKey } from "./helpers/ssh.ts";

/**
 * `ssh -o BatchMode=yes` (how scripts and CI run ssh) turns keyboard-interactive
 * off. Wherever a key was proven the client is let in through publickey and exits 0 or 1 with the
 * result text, as an interactive one does; where none was, it cannot be let in at all (255).
 */

const ctx = useBridge();
const batch = (user: string, keys: UserKey[], options: Partial<SshOptions> = {}) =>
  runSsh({
    port: ctx.bridge.port,
    user,
    keys,
    extraArgs: ["-o", "BatchMode=yes"],
    ...options,
  });

describe("ssh -o BatchMode=yes", () => {
  it.each([
    ["one key", false, 1],
    ["two keys, multi_key", true, 2],
  ])("collects %s and exits 0 with the result", async (_, multiKey, collected) => {
    const keys = [makeKey("ed25519"), makeKey("ecdsa")];
    const session = await ctx.api.createSession("collect", { multi_key: multiKey });
    const result = await batch(session.connection_identifier, keys);
    expect(result.stderr).not.toContain("Permission denied");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Collected ${collected} key`);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("completed");
    expect(after.connections[0]?.keys).toHaveLength(collected);
  });

  it("collects a key with its certificate and exits 0", async () => {
    const key = makeKey("ed25519");
    certify(key, makeKey("ed25519"), { principals: ["alice"] });
    const session = await ctx.api.createSession("collect");
    const result = await batch(session.connection_identifier, [key]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ED25519-CERT");
    const after = await ctx.api.getSession("collect", session.id);
    const [recorded] = after.connections[0]?.keys ?? [];
    expect((recorded as { certificate?: unknown } | undefined)?.certificate).toMatchObject({
      principals: ["alice"],
    });
  });

  it("verifies the expected key among others and exits 0; 1 when only some of all are proven", async () => {
    const [other, expected, second] = [makeKey("ed25519"), makeKey("ed25519"), makeKey("ecdsa")];
    const session = await ctx.api.createSession("verify", {
      keys: [{ public_key: expected.publicKey }],
    });
    const verified = await batch(session.connection_identifier, [other, expected]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("Verified");
    expect((await ctx.api.getSession("verify", session.id)).status).toBe("verified");

    const all = await ctx.api.createSession("verify", {
      multi_key: true,
      match_all_keys: true,
      keys: [{ public_key: expected.publicKey }, { public_key: second.publicKey }],
    });
    const partly = await batch(all.connection_identifier, [expected]);
    expect(partly.code).toBe(0);
    expect(partly.stdout).toContain("1 more key must still be proven");
  });

  it("reads the confirmation from stdin: y confirms (0), nothing declines (1)", async () => {
    const key = makeKey("ed25519");
    for (const [input, code, status] of [
      ["y\n", 0, "completed"],
      [undefined, 1, "pending"],
    ] as const) {
      const session = await ctx.api.createSession("collect", { must_confirm: true });
      const result = await batch(session.connection_identifier, [key], { input });
      expect(result.code).toBe(code);
      expect((await ctx.api.getSession("collect", session.id)).status).toBe(status);
    }
  });

  it("cannot be let in when no key is proven: 255, the attempt still recorded", async () => {
    const session = await ctx.api.createSession("verify", {
      keys: [{ public_key: makeKey("ed25519").publicKey }],
    });
    const result = await batch(session.connection_identifier, [makeKey("ed25519")]);
    expect(result.code).toBe(255);
    expect(result.stderr).toContain("Permission denied");
    // The bridge reports the connection as it closes, a moment after ssh has gone.
    let after = await ctx.api.getSession("verify", session.id);
    for (let i = 0; i < 50 && after.failed_attempts === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await ctx.api.getSession("verify", session.id);
    }
    expect(after.failed_attempts).toBe(1);
  });
});
