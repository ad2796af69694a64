import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { apiClient } from "./helpers/api.ts";
import { makeKey, type UserKey } from "./helpers/ssh.ts";

const api = apiClient(inject("workerUrl"), inject("apiKey"));
const scratch = mkdtempSync(join(tmpdir(), "keyproof-signatures-"));

interface SignatureSession {
  id: string;
  status: string;
  signature_challenge: string;
  signature_url: string;
  sign_command: string;
  failed_attempts?: number;
  connections: { method: string; outcome: string; keys: { public_key_sha256: string }[] }[];
}

function sh(
  command: string,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile("sh", ["-c", command], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The session's own command, with the user's key in place of the example path. */
const signCommandFor = (session: SignatureSession, key: UserKey) =>
  session.sign_command.replace("~/.ssh/id_ed25519", key.path);

/** `ssh-keygen -Y verify`, OpenSSH's own judgement of a signature over `message` by `signer`. */
async function opensshVerifies(
  armored: string,
  signer: UserKey,
  message: string,
  namespace = "keyproof",
) {
  const signature = join(scratch, `sig-${Math.random().toString(36).slice(2)}`);
  const signers = `${signature}.allowed`;
  writeFileSync(signature, armored);
  writeFileSync(signers, `user@keyproof ${signer.publicKey}\n`);
  const result = await sh(
    `ssh-keygen -Y verify -f ${signers} -I user@keyproof -n ${namespace} -s ${signature}`,
    message,
  );
  return result.code === 0;
}

const sign = async (key: UserKey, message: string, namespace = "keyproof") =>
  (await sh(`ssh-keygen -Y sign -n ${namespace} -f ${key.path}`, message)).stdout;

const post = (session: SignatureSession, armored: string) =>
  sh(`curl -s --data-binary @- ${session.signature_url}`, armored);

describe("proof by ssh-keygen -Y sign, run as the session's sign_command says", () => {
  it.each([
    ["ed25519", undefined, "ED25519 256"],
    ["ecdsa", undefined, "ECDSA 256"],
    ["rsa", 3072, "RSA 3072"],
  ] as const)(
    "%s: the pasted command collects the key and prints the result",
    async (type, bits, label) => {
      const key = makeKey(type, bits);
      const session = (await api.createSession("collect", {
        ssh_message: "Thanks from Acme",
      })) as unknown as SignatureSession;
      const result = await sh(signCommandFor(session, key));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("Collected 1 key:");
      expect(result.stdout).toContain(`${key.sha256} (${label})`);
      expect(result.stdout).toContain("Thanks from Acme");
      const after = (await api.getSession("collect", session.id)) as unknown as SignatureSession;
      expect(after.status).toBe("completed");
      expect(after.connections).toEqual([
        expect.objectContaining({
          method: "signature",
          outcome: "collected",
          keys: [expect.objectContaining({ public_key_sha256: key.sha256 })],
        }),
      ]);
    },
  );

  it("accepts what ssh-keygen -Y verify accepts, and refuses what it refuses", async () => {
    const expected = makeKey("ed25519");
    const stranger = makeKey("ed25519");
    const session = (await api.createSession("verify", {
      keys: [{ public_key: expected.publicKey }],
      max_attempts: 5,
      multi_connection: true,
    })) as unknown as SignatureSession;
    const challenge = session.signature_challenge;

    const cases = [
      {
        name: "another namespace",
        armored: await sign(expected, challenge, "git"),
        status: "refused",
      },
      { name: "other data", armored: await sign(expected, `${challenge}x`), status: "refused" },
      { name: "another key", armored: await sign(stranger, challenge), status: "no_match" },
      { name: "the expected key", armored: await sign(expected, challenge), status: "verified" },
    ];
    for (const { name, armored, status } of cases) {
      const openssh = await opensshVerifies(armored, expected, challenge);
      expect(openssh, name).toBe(status === "verified");
      const answer = await post(session, armored);
      if (status === "refused")
        expect(answer.stdout, name).toMatch(/namespace|not over this session's challenge/);
      if (status === "no_match")
        expect(answer.stdout, name).toContain("not one this session expects");
      if (status === "verified")
        expect(answer.stdout, name).toContain("Verified: you hold the key");
    }
    const after = (await api.getSession("verify", session.id)) as unknown as SignatureSession;
    // Only the stranger's signature was an attempt; the malformed ones were not.
    expect(after).toMatchObject({ status: "verified", failed_attempts: 1 });
    expect(after.connections.map((connection) => connection.outcome)).toEqual([
      "verified",
      "no_match",
    ]);
  });
});
