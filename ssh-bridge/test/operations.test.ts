import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A stand-in load balancer: prepends a PROXY header, then relays bytes both ways. */
async function proxyInFront(bridgePort: number, header: Buffer): Promise<number> {
  const server = createServer((client: Socket) => {
    const upstream = connect(bridgePort, "127.0.0.1", () => {
      upstream.write(header);
      client.pipe(upstream).pipe(client);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

function proxyV2Header(source: string): Buffer {
  const signature = Buffer.from([
    0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
  ]);
  const addresses = Buffer.from([
    ...source.split(".").map(Number),
    127,
    0,
    0,
    1,
    0x15,
    0xb3,
    0x08,
    0xae,
  ]);
  return Buffer.concat([signature, Buffer.from([0x21, 0x11, 0x00, addresses.length]), addresses]);
}

/** Whether the bridge greets a raw TCP connection with its SSH identification. */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("SSH-2.0-"));
    });
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(false));
  });
}

describe("PROXY protocol", () => {
  it.each([
    ["v1", Buffer.from("PROXY TCP4 203.0.113.7 127.0.0.1 5555 2222\r\n"), "203.0.113.7"],
    ["v2", proxyV2Header("198.51.100.9"), "198.51.100.9"],
  ])("records the client address from a %s header", async (_, header, address) => {
    const bridge = await startBridge(ctx.worker, { proxyProtocol: true });
    try {
      const port = await proxyInFront(bridge.port, header);
      const key = makeKey();
      const session = await ctx.api.createSession("collect");
      const result = await runSsh({ port, user: session.connection_identifier, keys: [key] });
      expect(result.stdout).toContain(key.sha256);
      const after = await ctx.api.getSession("collect", session.id);
      expect(after.connections[0]?.ip_address).toBe(address);
    } finally {
      await bridge.close();
    }
  });

  it("drops a connection without a PROXY header when the switch is on", async () => {
    const bridge = await startBridge(ctx.worker, { proxyProtocol: true });
    try {
      const session = await ctx.api.createSession("collect");
      const result = await runSsh({
        port: bridge.port,
        user: session.connection_identifier,
        keys: [makeKey()],
      });
      expect(result.code).toBe(255);
      expect((await ctx.api.getSession("collect", session.id)).connections).toEqual([]);
    } finally {
      await bridge.close();
    }
  });
});

describe("connection limits", () => {
  it("refuses connections from one address past its rate per minute", async () => {
    const bridge = await startBridge(ctx.worker, { connectionsPerAddressPerMinute: 3 });
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await greets(bridge.port));
      expect(answers).toEqual([true, true, true, false, false]);
    } finally {
      await bridge.close();
    }
  });

  it("refuses connections past the concurrent cap and accepts again when one ends", async () => {
    const bridge = await startBridge(ctx.worker, { maxConnections: 2 });
    const held = [connect(bridge.port, "127.0.0.1"), connect(bridge.port, "127.0.0.1")];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await greets(bridge.port)).toBe(false);
      held[0]?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await greets(bridge.port)).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
      await bridge.close();
    }
  });
});

describe("graceful shutdown", () => {
  it("lets a connection in progress finish, and takes no new ones", async () => {
    const bridge = await startBridge(ctx.worker);
    const key = makeKey();
    const session = await ctx.api.createSession("collect", { must_confirm: true });
    const inProgress = runSsh({
      port: bridge.port,
      user: session.connection_identifier,
      keys: [key],
      input: "y\n",
      inputDelayMs: 2000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const closing = bridge.server.close(10_000);
    expect(await greets(bridge.port)).toBe(false);
    const result = await inProgress;
    await closing;
    expect(result.stdout).toContain("Collected 1 key");
    expect((await ctx.api.getSession("collect", session.id)).status).toBe("completed");
  });
});
