import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh, startAgent } from "./helpers/ssh.ts";

const ctx = useBridge();

/** Sends raw bytes and resolves when the bridge closes the socket (or after `timeoutMs`). */
function rawClient(
  bytes: Buffer | string,
  port = ctx.bridge.port,
  timeoutMs = 10_000,
): Promise<{ closedByServer: boolean; received: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedByServer: false, received });
    }, timeoutMs);
    socket.on("data", (data) => (received += data.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ closedByServer: true, received });
    });
    socket.write(bytes);
  });
}

async function stillServes() {
  const key = makeKey();
  const session = await ctx.api.createSession("collect");
  const result = await runSsh({
    port: ctx.bridge.port,
    user: session.connection_identifier,
    keys: [key],
  });
  expect(result.stdout).toContain(key.sha256);
}

describe("misbehaving clients", () => {
  it("closes a connection that sends garbage, and keeps serving", async () => {
    const results = await Promise.all([
      rawClient(randomBytes(4096)),
      rawClient("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
      rawClient(`SSH-2.0-evil\r\n${randomBytes(2048).toString("latin1")}`),
    ]);
    for (const result of results) expect(result.closedByServer).toBe(true);
    await stillServes();
  });

  it("cuts off a client that stops mid-handshake at the auth deadline", async () => {
    // A bridge with a short deadline, so the stalled client is cut off within the test.
    const strict = await startBridge(ctx.worker, { authDeadlineMs: 1500 });
    const started = Date.now();
    const result = await rawClient("SSH-2.0-OpenSSH_9.9\r\n", strict.port);
    await strict.close();
    expect(result.closedByServer).toBe(true);
    expect(result.received).toMatch(/^SSH-2\.0-keyproof/);
    expect(Date.now() - started).toBeLessThan(6000);
    await stillServes();
  });

  it("stops counting after 32 key offers out of 100", async () => {
    const keys = Array.from({ length: 100 }, () => makeKey());
    const agent = startAgent(keys);
    try {
      const session = await ctx.api.createSession("collect", { multi_key: true });
      const result = await runSsh({
        port: ctx.bridge.port,
        user: session.connection_identifier,
        agentSocket: agent.socket,
      });
      expect(result.code).toBe(0);
      const after = await ctx.api.getSession("collect", session.id);
      expect(after.connections[0]?.keys.length).toBe(32);
      const log = ctx.bridge.logs.find((line) => line.session_id === session.id);
      expect(log?.keys_offered).toBe(32);
    } finally {
      agent.stop();
    }
    await stillServes();
  });
});
