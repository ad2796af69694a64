import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/local-worker.ts";
import {
  type SecurityKeyAgent,
  SoftwareSecurityKey,
  startSecurityKeyAgent,
} from "../../test-support/security-keys.ts";
import { startSshd } from "../../test-support/sshd.ts";
import { USER_PRESENT, USER_VERIFIED } from "../../worker/src/protocol/signatures.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
const agents: SecurityKeyAgent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
});

async function agentWith(...keys: SoftwareSecurityKey[]) {
  const agent = await startSecurityKeyAgent(keys);
  agents.push(agent);
  return agent;
}

/** The fingerprint `ssh-keygen -l` prints for a public key line. */
function keygenFingerprint(line: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "keyproof-sk-")), "key.pub");
  writeFileSync(path, `${line}\n`);
  return execFileSync("ssh-keygen", ["-l", "-f", path], { encoding: "utf8" }).split(" ")[1] ?? "";
}

interface KeyRecord {
  public_key_sha256: string;
  public_key_algorithm: string;
  public_key_pem: string | null;
  security_key: Record<string, unknown> | null;
}

async function keysOf(kind: "collect" | "verify", id: string): Promise<KeyRecord[]> {
  const session = await ctx.api.getSession(kind, id);
  return session.connections.flatMap((connection) => connection.keys) as KeyRecord[];
}

const KINDS = [
  { kind: "ed25519", label: "ED25519-SK", algorithm: "sk-ssh-ed25519@openssh.com" },
  { kind: "ecdsa", label: "ECDSA-SK", algorithm: "sk-ecdsa-sha2-nistp256@openssh.com" },
] as const;

describe("the software security keys sign as hardware does, by OpenSSH's own sshd", () => {
  async function sshdLogin(options: { authorizedKey: string; agent: SecurityKeyAgent }) {
    const dir = mkdtempSync(join(tmpdir(), "keyproof-sk-sshd-"));
    const sshd = await startSshd({
      dir,
      port: await freePort(),
      authorizedKeys: [options.authorizedKey],
    });
    try {
      const result = await runSsh({
        port: sshd.port,
        user: userInfo().username,
        agentSocket: options.agent.socket,
        extraArgs: ["-o", "BatchMode=yes"],
        command: ["echo", "logged-in"],
      });
      return { ...result, sshdLog: sshd.log() };
    } finally {
      sshd.stop();
    }
  }

  it.each(KINDS)(
    "$label: sshd accepts a touched signature and refuses an untouched one",
    async ({ kind }) => {
      const key = new SoftwareSecurityKey(kind);
      const agent = await agentWith(key);
      const touched = await sshdLogin({ authorizedKey: key.publicKeyLine(), agent });
      expect(touched.stdout.trim()).toBe("logged-in");
      key.flags = 0;
      const untouched = await sshdLogin({ authorizedKey: key.publicKeyLine(), agent });
      expect(untouched.code).toBe(255);
      // sshd verified the signature, then refused it for the missing touch alone.
      expect(untouched.sshdLog).toContain(
        "user presence (authenticator touch) requirement not met",
      );
    },
  );

  it("sshd's verify-required accepts only a signature with the user-verified flag", async () => {
    const key = new SoftwareSecurityKey("ed25519");
    const agent = await agentWith(key);
    const authorizedKey = `verify-required ${key.publicKeyLine()}`;
    const touchOnly = await sshdLogin({ authorizedKey, agent });
    expect(touchOnly.code).toBe(255);
    expect(touchOnly.sshdLog).toContain("user verification requirement not met");
    key.flags = USER_PRESENT | USER_VERIFIED;
    const withPin = await sshdLogin({ authorizedKey, agent });
    expect(withPin.stdout.trim()).toBe("logged-in");
  });
});

describe("security keys through the bridge, with the real ssh client", () => {
  const ssh = (user: string, options: Omit<Parameters<typeof runSsh>[0], "port" | "user">) =>
    runSsh({ port: ctx.bridge.port, user, ...options });

  it.each(KINDS)(
    "$label: collected with its flags and counter, fingerprinted as ssh-keygen does",
    async ({ kind, label, algorithm }) => {
      const key = new SoftwareSecurityKey(kind);
      key.counter = 41;
      const agent = await agentWith(key);
      const session = await ctx.api.createSession("collect");
      const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
      const sha256 = keygenFingerprint(key.publicKeyLine());
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${sha256} (${label} 256)`);
      const [record] = await keysOf("collect", session.id);
      expect(record).toMatchObject({
        public_key_sha256: sha256,
        public_key_algorithm: algorithm,
        public_key_pem: null,
        security_key: {
          application: "ssh:",
          user_present: true,
          user_verified: false,
          counter: 42,
          counter_regressed: false,
        },
      });
    },
  );

  it("refuses a signature made without a touch, says so, and records nothing", async () => {
    const key = new SoftwareSecurityKey("ed25519");
    key.flags = 0;
    const agent = await agentWith(key);
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
    const sha256 = keygenFingerprint(key.publicKeyLine());
    expect(result.stdout).toContain(
      `Refused ${sha256}: your security key signed without a touch; touch it when it blinks`,
    );
    expect(result.stdout).toContain("None of the keys you offered can be used here");
    expect(result.stdout).not.toContain("ssh-keygen -t ed25519\n");
    expect(agent.signatures()).toBe(1);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.connections[0]?.outcome).toBe("no_key");
    expect(await keysOf("collect", session.id)).toEqual([]);
  });

  it("does not believe a touch the signature does not cover", async () => {
    const key = new SoftwareSecurityKey("ecdsa");
    key.flags = 0;
    key.reportedFlags = USER_PRESENT | USER_VERIFIED;
    const agent = await agentWith(key);
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
    expect(agent.signatures()).toBe(1);
    expect(result.stdout).toContain("Not proven:");
    expect(await keysOf("collect", session.id)).toEqual([]);
  });

  it("require_user_verification: a touch alone is refused, a PIN counts", async () => {
    const key = new SoftwareSecurityKey("ecdsa");
    const agent = await agentWith(key);
    const touchOnly = await ctx.api.createSession("collect", { require_user_verification: true });
    const refused = await ssh(touchOnly.connection_identifier, { agentSocket: agent.socket });
    expect(refused.stdout).toContain(
      "this session needs your security key to check your PIN or fingerprint; make such a key with: ssh-keygen -t ed25519-sk -O verify-required",
    );
    expect(await keysOf("collect", touchOnly.id)).toEqual([]);

    key.flags = USER_PRESENT | USER_VERIFIED;
    const withPin = await ctx.api.createSession("collect", { require_user_verification: true });
    await ssh(withPin.connection_identifier, { agentSocket: agent.socket });
    const [record] = await keysOf("collect", withPin.id);
    expect(record?.security_key).toMatchObject({ user_present: true, user_verified: true });
  });

  it("require_security_key: an ordinary key is refused with a sentence, the security key kept", async () => {
    const key = new SoftwareSecurityKey("ed25519");
    const ordinary = makeKey("ed25519");
    const agent = await agentWith(key);
    const session = await ctx.api.createSession("collect", {
      multi_key: true,
      require_security_key: true,
    });
    const result = await ssh(session.connection_identifier, {
      agentSocket: agent.socket,
      keys: [ordinary],
    });
    expect(result.stdout).toContain(
      `Refused ${ordinary.sha256}: this session accepts only FIDO security keys; make one with: ssh-keygen -t ed25519-sk`,
    );
    expect(result.stdout).toContain("Collected 1 key:");
    const records = await keysOf("collect", session.id);
    expect(records.map((record) => record.public_key_algorithm)).toEqual([
      "sk-ssh-ed25519@openssh.com",
    ]);
  });

  it("verifies a security key given as an OpenSSH line or an RFC 4716 block", async () => {
    const asLine = new SoftwareSecurityKey("ed25519");
    const asBlock = new SoftwareSecurityKey("ecdsa");
    const dir = mkdtempSync(join(tmpdir(), "keyproof-sk-"));
    writeFileSync(join(dir, "block.pub"), `${asBlock.publicKeyLine()}\n`);
    const rfc4716 = execFileSync("ssh-keygen", ["-e", "-f", join(dir, "block.pub")], {
      encoding: "utf8",
    });
    const session = await ctx.api.createSession("verify", {
      keys: [{ public_key: asLine.publicKeyLine() }, { public_key: rfc4716 }],
      match_all_keys: true,
      multi_key: true,
    });
    expect(session.keys?.map((key) => (key as unknown as KeyRecord).security_key)).toEqual([
      {
        application: "ssh:",
        user_present: null,
        user_verified: null,
        counter: null,
        counter_regressed: null,
      },
      {
        application: "ssh:",
        user_present: null,
        user_verified: null,
        counter: null,
        counter_regressed: null,
      },
    ]);
    const agent = await agentWith(asLine, asBlock);
    const result = await ssh(session.connection_identifier, { agentSocket: agent.socket });
    expect(result.stdout).toContain("Verified: you hold the key this session expects.");
    const after = await ctx.api.getSession("verify", session.id);
    expect(after.status).toBe("verified");
    const records = await keysOf("verify", session.id);
    expect(records.map((record) => record.security_key?.counter)).toEqual([1, 1]);
  });

  it("marks a counter that went back, a sign of a cloned key, on the record and in the event", async () => {
    const key = new SoftwareSecurityKey("ed25519");
    const agent = await agentWith(key);
    key.counter = 99;
    const first = await ctx.api.createSession("collect");
    await ssh(first.connection_identifier, { agentSocket: agent.socket });
    // Counters are compared across the project through D1, which the first session's object
    // feeds within a moment (a proof elsewhere inside that moment goes unseen, docs/decisions.md).
    await indexedKeyCollected(first.id);
    // The same key, as a copy whose counter lags behind, in another session of the project.
    key.counter = 49;
    const second = await ctx.api.createSession("collect");
    await ssh(second.connection_identifier, { agentSocket: agent.socket });
    const [record] = await keysOf("collect", second.id);
    expect(record?.security_key).toMatchObject({ counter: 50, counter_regressed: true });
    const [earlier] = await keysOf("collect", first.id);
    expect(earlier?.security_key).toMatchObject({ counter: 100, counter_regressed: false });
    const collected = await indexedKeyCollected(second.id);
    expect(collected?.payload.key?.security_key).toMatchObject({
      counter: 50,
      counter_regressed: true,
    });
  });
});

/** The session's `key_collected` event, once the event log (D1, fed by the object) has it. */
async function indexedKeyCollected(sessionId: string) {
  let found: { type: string; payload: { key?: KeyRecord } } | undefined;
  await expect
    .poll(async () => {
      const events = await ctx.api.request<{
        items: { type: string; payload: { key?: KeyRecord } }[];
      }>("GET", `/events/?session_id=${sessionId}`);
      found = events.items.find((event) => event.type === "key_collected");
      return found !== undefined;
    })
    .toBe(true);
  return found;
}
