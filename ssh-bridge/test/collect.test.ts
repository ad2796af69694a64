import { describe, expect, it } from "vitest";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh, startAgent } from "./helpers/ssh.ts";

const ctx = useBridge();
const ssh = (user: string, options: Omit<Parameters<typeof runSsh>[0], "port" | "user"> = {}) =>
  runSsh({ port: ctx.bridge.port, user, ...options });

describe("collection over real SSH", () => {
  it("collects one key with the fingerprint ssh-keygen prints, shows banner and message, exits 0", async () => {
    const key = makeKey("ed25519");
    const session = await ctx.api.createSession("collect", {
      ssh_banner: "Welcome to Acme",
      ssh_message: "See you!",
    });
    expect(session.ssh_command).toMatch(/^ssh -p \d+ [0-9a-z]{26}@127\.0\.0\.1$/);
    const result = await ssh(session.connection_identifier, { keys: [key] });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Welcome to Acme");
    expect(result.stdout).toContain("Collected 1 key:");
    expect(result.stdout).toContain(key.sha256);
    expect(result.stdout).toContain("See you!");
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("completed");
    expect(after.connections).toHaveLength(1);
    const [connection] = after.connections;
    expect(connection).toMatchObject({
      outcome: "collected",
      confirmed: null,
      ip_address: "127.0.0.1",
    });
    expect(connection?.client_version).toMatch(/^SSH-2\.0-OpenSSH_/);
    expect(connection?.closed_at).not.toBeNull();
    expect(connection?.keys.map((k) => k.public_key_sha256)).toEqual([key.sha256]);
  });

  it("collects every key from an ssh-agent with multi_key, only the first without", async () => {
    const keys = [makeKey("ed25519"), makeKey("ecdsa"), makeKey("rsa", 2048)];
    const agent = startAgent(keys);
    try {
      const multi = await ctx.api.createSession("collect", { multi_key: true });
      const all = await ssh(multi.connection_identifier, { agentSocket: agent.socket });
      expect(all.code).toBe(0);
      expect(all.stdout).toContain("Collected 3 keys:");
      const multiAfter = await ctx.api.getSession("collect", multi.id);
      expect(multiAfter.connections[0]?.keys.map((k) => k.public_key_sha256).sort()).toEqual(
        keys.map((k) => k.sha256).sort(),
      );

      const single = await ctx.api.createSession("collect", { multi_key: false });
      const one = await ssh(single.connection_identifier, { agentSocket: agent.socket });
      expect(one.stdout).toContain("Collected 1 key:");
      const singleAfter = await ctx.api.getSession("collect", single.id);
      expect(singleAfter.connections[0]?.keys).toHaveLength(1);
    } finally {
      agent.stop();
    }
  });

  it("refuses a second connection unless multi_connection, and dedupes keys across connections", async () => {
    const key = makeKey("ed25519");
    const single = await ctx.api.createSession("collect");
    await ssh(single.connection_identifier, { keys: [key] });
    const again = await ssh(single.connection_identifier, { keys: [key] });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already complete");

    const multi = await ctx.api.createSession("collect", {
      multi_connection: true,
      multi_key: true,
    });
    const other = makeKey("ecdsa");
    expect((await ssh(multi.connection_identifier, { keys: [key] })).code).toBe(0);
    const second = await ssh(multi.connection_identifier, { keys: [key, other] });
    expect(second.code).toBe(0);
    const after = await ctx.api.getSession("collect", multi.id);
    expect(after.status).toBe("pending");
    expect(after.connections).toHaveLength(2);
    const recorded = after.connections.flatMap((c) => c.keys.map((k) => k.public_key_sha256));
    expect(recorded.sort()).toEqual([key.sha256, other.sha256].sort());
  });

  it("tells a user with no key how to make one, and keeps the session open", async () => {
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { keys: [] });
    // Nothing proven: ssh exits 1, so a script can tell.
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("ssh-keygen -t ed25519");
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("pending");
    expect(after.connections[0]?.outcome).toBe("no_key");
  });

  it("answers an unknown identifier with a plain sentence", async () => {
    const result = await ssh("0000000000000000000000000a", { keys: [makeKey()] });
    expect(result.code).toBe(255);
    expect(result.stderr).toContain("There is no keyproof session with this name.");
    expect(result.stderr).not.toMatch(/Error|at .*\.ts/);
    // OpenSSH prints the DISCONNECT's description: never an empty one after the reason code.
    expect(result.stderr).toMatch(
      /Received disconnect from 127\.0\.0\.1 port \d+:11: keyproof did not open this connection: the reason is above\r?\n/,
    );
  });
});

describe("must_confirm", () => {
  const cases = [
    { name: "y with a pty", pty: true, input: "y", confirmed: true },
    { name: "n with a pty", pty: true, input: "n", confirmed: false },
    { name: "y line without a pty", pty: false, input: "y\n", confirmed: true },
    { name: "n line without a pty", pty: false, input: "nope\n", confirmed: false },
  ];
  it.each(cases)("keeps the keys only when confirmed: $name", async ({ pty, input, confirmed }) => {
    const key = makeKey();
    const session = await ctx.api.createSession("collect", { must_confirm: true });
    const result = await ssh(session.connection_identifier, {
      keys: [key],
      pty,
      input,
      inputDelayMs: 1000,
    });
    expect(result.code).toBe(confirmed ? 0 : 1);
    // One key: the prompt speaks of it in the singular.
    expect(result.stdout).toContain("This key will be recorded:");
    expect(result.stdout).not.toContain("These keys");
    expect(result.stdout).toContain(confirmed ? "Collected 1 key" : "Nothing was recorded");
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.connections[0]).toMatchObject({
      confirmed,
      outcome: confirmed ? "collected" : "declined",
    });
    expect(after.connections[0]?.keys).toHaveLength(confirmed ? 1 : 0);
    expect(after.status).toBe(confirmed ? "completed" : "pending");
  });
});

describe("must_confirm after the handshake deadline", () => {
  it("takes an answer given after the auth deadline has passed", async () => {
    // The handshake deadline (here 1.5 s) ends with authentication; the prompt has its own.
    const bridge = await startBridge(ctx.worker, { authDeadlineMs: 1500 });
    try {
      const key = makeKey();
      const session = await ctx.api.createSession("collect", { must_confirm: true });
      const result = await runSsh({
        port: bridge.port,
        user: session.connection_identifier,
        keys: [key],
        pty: true,
        input: "y",
        inputDelayMs: 3500,
      });
      expect(result.stdout).toContain("Collected 1 key");
      const after = await ctx.api.getSession("collect", session.id);
      expect(after.connections[0]).toMatchObject({ confirmed: true, outcome: "collected" });
    } finally {
      await bridge.close();
    }
  });
});

describe("keys the bridge refuses", () => {
  it("says which key was refused and why, never that no key was offered", async () => {
    const weak = makeKey("rsa", 1024);
    const session = await ctx.api.createSession("collect");
    const result = await ssh(session.connection_identifier, { keys: [weak] });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Refused ${weak.sha256}: RSA keys of 1024 bits are too short`);
    expect(result.stdout).toContain("None of the keys you offered can be used here");
    expect(result.stdout).toContain("ssh-keygen -t ed25519");
    expect(result.stdout).not.toContain("No SSH key was offered");
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.connections[0]?.outcome).toBe("no_key");
  });
});
