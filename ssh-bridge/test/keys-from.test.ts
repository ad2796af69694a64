import { execFile } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { fakeForgeClient } from "../../test-support/fake-forge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/** Keys a (fake) forge lists, proven with the real OpenSSH client. */

const ctx = useBridge();
const forgeUrl = inject("forgeUrl");
const forge = fakeForgeClient(forgeUrl);
const forgeHost = new URL(forgeUrl).host;

interface ForgeSession {
  id: string;
  status: string;
  connection_identifier: string;
  signature_url: string;
  failed_attempts: number;
  keys: { public_key_sha256: string; source: string | null; verified_at: string | null }[];
}

const account = (label: string) => `${label}-${Date.now().toString(36)}`;

describe("keys_from with ssh", () => {
  it("verifies a user who proves a key their account lists, naming the account", async () => {
    const listed = makeKey("ed25519");
    const alice = account("alice");
    await forge.setAccounts({ [alice]: { keys: [listed.publicKey] } });
    const session = await ctx.api.request<ForgeSession>(
      "POST",
      "/ssh/verify/sessions/",
      { keys_from: [`fake:${alice}`] },
      201,
    );
    expect(session.keys).toEqual([
      expect.objectContaining({ public_key_sha256: listed.sha256, source: `fake:${alice}` }),
    ]);
    const proof = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [listed],
    });
    expect(proof.stdout).toContain("Verified: you hold the key this session expects.");
    const after = await ctx.api.getSession("verify", session.id);
    expect(after.status).toBe("verified");
    expect(after.keys?.[0]?.verified_at).not.toBeNull();
  });

  it("tells a user offering another key whose keys the session expects", async () => {
    const listed = makeKey("ed25519");
    const other = makeKey("ed25519");
    const bob = account("bob");
    await forge.setAccounts({ [bob]: { keys: [listed.publicKey] } });
    const session = await ctx.api.request<ForgeSession>(
      "POST",
      "/ssh/verify/sessions/",
      { keys_from: [`fake:${bob}`], max_attempts: 3 },
      201,
    );
    const sentence = `This session expects a key that ${forgeHost}/${bob} lists.`;

    const proof = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [other],
    });
    expect(proof.stdout).toContain("The key you offered is not one this session expects:");
    expect(proof.stdout).toContain(sentence);
    expect(proof.stdout).toContain("2 attempts left.");

    // The signature path says the same.
    const signed = await sh(
      `ssh-keygen -Y sign -n keyproof -f ${other.path} | curl -s --data-binary @- ${session.signature_url}`,
      (
        (await ctx.api.getSession("verify", session.id)) as unknown as {
          signature_challenge: string;
        }
      ).signature_challenge,
    );
    expect(signed).toContain(sentence);
    expect(signed).toContain("1 attempt left.");
    const after = (await ctx.api.getSession("verify", session.id)) as unknown as ForgeSession;
    expect(after.failed_attempts).toBe(2);
    expect(after.status).toBe("pending");
  });
});

function sh(command: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("sh", ["-c", command], { timeout: 30_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin?.end(input);
  });
}
