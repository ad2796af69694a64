import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiClient, type Session } from "./helpers/api.ts";
import { startBridge } from "./helpers/bridge.ts";
import {
  certify,
  makeKey,
  runSsh,
  type SshResult,
  ssh2Login,
  sshArgs,
  type UserKey,
} from "./helpers/ssh.ts";

/** With the real OpenSSH client: the bridge cannot be stalled, nor talked round. */

const worker = { url: inject("workerUrl"), secret: inject("bridgeSecret") };
const api = apiClient(worker.url, inject("apiKey"));
type Bridge = Awaited<ReturnType<typeof startBridge>>;
let bridge: Bridge;
/** A bridge with short deadlines, so connections that never end are seen to end. */
let strict: Bridge;

beforeAll(async () => {
  bridge = await startBridge(worker);
  strict = await startBridge(worker, {
    authDeadlineMs: 1_500,
    sessionChannelDeadlineMs: 1_000,
    connectionLifetimeMs: 4_000,
  });
});
afterAll(async () => {
  await bridge?.close();
  await strict?.close();
});

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** `command | ssh ...` in a shell, as a user would type it. */
function pipedSsh(command: string, args: string[], timeoutMs: number): Promise<SshResult> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", `${command} | ssh ${args.map(quote).join(" ")}`]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const logOf = (of: Bridge, identifier: string) =>
  of.logs.find((line) => line.identifier === identifier);

describe("one client cannot stall the bridge", () => {
  it("declines 64 MiB typed at the prompt while ten other users prove their keys", async () => {
    const flooded = await api.createSession("collect", { must_confirm: true });
    const flooder = makeKey();
    const flood = pipedSsh(
      "head -c 64M /dev/zero | tr '\\0' A",
      sshArgs({ port: bridge.port, user: flooded.connection_identifier, keys: [flooder] }),
      120_000,
    );
    const users = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const session = await api.createSession("collect");
        const started = Date.now();
        const result = await runSsh({
          port: bridge.port,
          user: session.connection_identifier,
          keys: [makeKey()],
        });
        return { result, seconds: (Date.now() - started) / 1000 };
      }),
    );
    for (const { result, seconds } of users) {
      expect(result.stdout).toContain("Collected 1 key");
      // Before the fix the bridge's one thread spent ~50 s on the flood while these waited.
      expect(seconds).toBeLessThan(20);
    }
    const flooding = await flood;
    expect(flooding.stdout).toContain("Nothing was recorded: you did not confirm.");
    const after = await api.getSession("collect", flooded.id);
    expect(after.connections[0]).toMatchObject({ outcome: "declined", confirmed: false, keys: [] });
  });
});

describe("connections end", () => {
  it("closes a login that never opens a session channel (ssh -N)", async () => {
    const session = await api.createSession("collect");
    const started = Date.now();
    const result = await runSsh({
      port: strict.port,
      user: session.connection_identifier,
      keys: [makeKey()],
      extraArgs: ["-N"],
      timeoutMs: 20_000,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).not.toBeNull();
    await expect
      .poll(() => logOf(strict, session.connection_identifier)?.outcome)
      .toBe("no_session_channel");
  });

  it("tells the user and ends a connection that outlives its lifetime at the prompt", async () => {
    const session = await api.createSession("collect", { must_confirm: true });
    const result = await runSsh({
      port: strict.port,
      user: session.connection_identifier,
      keys: [makeKey()],
      pty: true,
      silent: true,
      timeoutMs: 20_000,
    });
    expect(result.stdout).toContain("reached keyproof's time limit");
    await expect
      .poll(() => logOf(strict, session.connection_identifier)?.outcome)
      .toBe("lifetime_exceeded");
    const after = await api.getSession("collect", session.id);
    expect(after.connections[0]?.keys).toEqual([]);
  });
});

describe("a refused identifier ends at once", () => {
  it.each(["unknown", "completed"])(
    "says why and disconnects, never asking for a password (%s)",
    async (kind) => {
      let user = "nosuchidentifier";
      if (kind === "completed") {
        const session = await api.createSession("collect");
        await runSsh({ port: bridge.port, user: session.connection_identifier, keys: [makeKey()] });
        user = session.connection_identifier;
      }
      const started = Date.now();
      const result = await runSsh({ port: bridge.port, user, keys: [makeKey()] });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result.stderr).toMatch(/There is no keyproof session|already complete/);
      expect(result.stderr).not.toMatch(/password|Permission denied, please try again/i);
    },
  );

  it("holds the auth deadline against a client that never reads the disconnect", async () => {
    const socket = connect({ port: strict.port, host: "127.0.0.1", allowHalfOpen: true });
    socket.on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    // Says hello and then sits there, never closing its side: a user at a password prompt.
    const version = `SSH-2.0-OpenSSH_9.6 silent-${Math.random().toString(36).slice(2)}`;
    socket.write(`${version}\r\n`);
    socket.on("data", () => undefined);
    const started = Date.now();
    // The bridge's log line is written once it has closed the connection on its side.
    await expect
      .poll(() => strict.logs.find((line) => line.client_version === version), { timeout: 8_000 })
      .toMatchObject({ outcome: "auth_timeout" });
    expect(Date.now() - started).toBeLessThan(6_000);
    socket.destroy();
  });
});

/**
 * A client that labels its request `ssh-ed25519` but sends an RSA key and an RSA signature made
 * with SHA-1: ssh2 would check that with its SHA-1 default.
 */
function mislabelledProof(port: number, username: string, key: UserKey): Promise<void> {
  const parsed = ssh2.utils.parseKey(readFileSync(key.path));
  if (parsed instanceof Error) throw parsed;
  const client = new ssh2.Client();
  let asked = 0;
  return ssh2Login(
    {
      port,
      username,
      authHandler: (_methods, _partial, next) => {
        if (asked++ === 0) return next({ type: "none", username });
        if (asked > 2) return false;
        const protocol = (client as unknown as { _protocol: ProtocolWithAuthPK })._protocol;
        protocol.authPK(username, parsed.getPublicSSH(), "ssh-ed25519", (data, sign) =>
          sign(parsed.sign(data, "sha1")),
        );
        return undefined as unknown as false;
      },
    },
    client,
  );
}

interface ProtocolWithAuthPK {
  authPK(
    username: string,
    publicKey: Buffer,
    algorithm: string,
    sign: (data: Buffer, done: (signature: Buffer) => void) => void,
  ): void;
}

describe("signatures are checked under the key's own algorithm", () => {
  it("never records an RSA key signed with SHA-1 under another key type's name", async () => {
    const session = await api.createSession("collect");
    await mislabelledProof(bridge.port, session.connection_identifier, makeKey("rsa", 2048));
    await expect.poll(() => logOf(bridge, session.connection_identifier)).toBeDefined();
    const after = await api.getSession("collect", session.id);
    expect(after.status).toBe("pending");
    expect(after.connections[0]?.keys ?? []).toEqual([]);
    expect(logOf(bridge, session.connection_identifier)?.keys_proven).toBe(0);
  });
});

describe("certificates obey their restrictions, with real ssh", () => {
  async function verifyWithCertificate(options: string[], id = "restricted") {
    const ca = makeKey();
    const key = makeKey();
    certify(key, ca, { id, principals: ["deploy"], options });
    const session = await api.createSession("verify", {
      certificate_authorities: [{ public_key: ca.publicKey }],
      principal: "deploy",
    });
    const result = await runSsh({
      port: bridge.port,
      user: session.connection_identifier,
      keys: [key],
    });
    const after = await api.getSession("verify", session.id);
    return { result, after };
  }

  it("names source-address when the client connects from elsewhere, and records it", async () => {
    const { result, after } = await verifyWithCertificate(["source-address=10.0.0.0/8"]);
    expect(result.stdout).toContain("may only be used from 10.0.0.0/8 (source-address)");
    expect(after.status).toBe("failed");
    expect((after.connections[0] as { refusals?: string[] })?.refusals).toContain(
      "certificate_source_address",
    );
    const allowed = await verifyWithCertificate(["source-address=127.0.0.0/8,::1"]);
    expect(allowed.after.status).toBe("verified");
  });

  it("refuses a certificate with an unknown critical option, naming it escaped", async () => {
    const { result, after } = await verifyWithCertificate(["critical:evil\u202e@example.com"]);
    expect(result.stdout).toContain(
      "critical option keyproof does not know (evil\\342\\200\\256@example.com)",
    );
    expect(result.stdout).not.toContain("\u202e");
    expect(after.status).toBe("failed");
  });

  it("refuses a verify-required certificate on a key that cannot verify its user", async () => {
    const { result, after } = await verifyWithCertificate(["verify-required"]);
    expect(result.stdout).toContain("verify-required");
    expect(after.status).toBe("failed");
  });
});

describe("the signature URL does not take a client's word for its address", () => {
  it("records the socket's address locally, whatever cf-connecting-ip says", async () => {
    const session = (await api.createSession("collect")) as Session & {
      signature_challenge: string;
      signature_url: string;
    };
    const key = makeKey();
    const armored = await new Promise<string>((resolve) => {
      const child = spawn("ssh-keygen", ["-Y", "sign", "-n", "keyproof", "-f", key.path]);
      let out = "";
      child.stdout.on("data", (data) => (out += data));
      child.on("close", () => resolve(out));
      child.stdin.end(session.signature_challenge);
    });
    const response = await fetch(session.signature_url, {
      method: "POST",
      body: armored,
      headers: { "content-type": "text/plain", "cf-connecting-ip": "203.0.113.66" },
    });
    expect(response.status, await response.text()).toBe(200);
    const after = await api.getSession("collect", session.id);
    expect(after.connections[0]?.ip_address).toBe("127.0.0.1");
  });
});
