import { spawnSync } from "node:child_process";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { greets } from "../../test-support/ssh-greeting.ts";
import { parseTrustedProxies } from "../src/proxy-protocol.ts";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A stand-in load balancer on 127.0.0.1: prepends a PROXY header, then relays both ways. */
async function balancer(bridgePort: number, header: Buffer | string): Promise<number> {
  const server = createServer((client: Socket) => {
    const upstream = connect(bridgePort, "127.0.0.1", () => {
      upstream.write(header);
      client.pipe(upstream).pipe(client);
    });
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

const v1 = (source: string) => `PROXY TCP4 ${source} 127.0.0.1 5555 2222\r\n`;

function v2(source: string): Buffer {
  const signature = Buffer.from([
    0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
  ]);
  const ports = [0x15, 0xb3, 0x08, 0xae];
  const addresses = Buffer.from([...source.split(".").map(Number), 127, 0, 0, 1, ...ports]);
  return Buffer.concat([signature, Buffer.from([0x21, 0x11, 0x00, addresses.length]), addresses]);
}

async function collectThrough(port: number) {
  const key = makeKey();
  const session = await ctx.api.createSession("collect");
  const result = await runSsh({ port, user: session.connection_identifier, keys: [key] });
  const after = await ctx.api.getSession("collect", session.id);
  return { key, result, after };
}

async function withBridge(
  trusted: string,
  overrides: Parameters<typeof startBridge>[1],
  run: (bridge: Awaited<ReturnType<typeof startBridge>>) => Promise<void>,
) {
  const bridge = await startBridge(ctx.worker, {
    trustedProxies: parseTrustedProxies(trusted),
    ...overrides,
  });
  try {
    await run(bridge);
  } finally {
    await bridge.close();
  }
}

describe("PROXY protocol from a trusted balancer", () => {
  it.each([
    ["v1", v1("203.0.113.7"), "203.0.113.7"],
    ["v2", v2("198.51.100.9"), "198.51.100.9"],
  ])("records the client address from a %s header", async (_, header, address) => {
    await withBridge("127.0.0.1/32", {}, async (bridge) => {
      const { key, result, after } = await collectThrough(await balancer(bridge.port, header));
      expect(result.stdout).toContain(key.sha256);
      expect(after.connections[0]?.ip_address).toBe(address);
    });
  });

  it("drops a connection from the balancer that carries no header", async () => {
    await withBridge("127.0.0.1/32", {}, async (bridge) => {
      const { result, after } = await collectThrough(bridge.port);
      expect(result.code).toBe(255);
      expect(after.connections).toEqual([]);
    });
  });

  it.each([
    ["markup and SQL", "<img/src=x>;DROP"],
    ["a name", "evil.example"],
    ["an IPv6 address in a TCP4 header", "2001:db8::1"],
  ])("closes a header whose source is %s, recording nothing", async (_, source) => {
    await withBridge("127.0.0.1/32", {}, async (bridge) => {
      const { result, after } = await collectThrough(await balancer(bridge.port, v1(source)));
      expect(result.code).toBe(255);
      expect(after.connections).toEqual([]);
      expect(bridge.logs.at(-1)).toMatchObject({ outcome: "invalid_proxy_header" });
    });
  });

  it("counts the per-address limit for the client the header names, not the balancer", async () => {
    await withBridge("127.0.0.1/32", { connectionsPerAddressPerMinute: 2 }, async (bridge) => {
      const first = await balancer(bridge.port, v1("203.0.113.7"));
      const second = await balancer(bridge.port, v1("203.0.113.8"));
      const answers = [await greets(first), await greets(first), await greets(first)];
      expect(answers).toEqual([true, true, false]);
      expect(await greets(second)).toBe(true);
      const limited = bridge.logs.filter((line) => line.outcome === "rate_limited");
      expect(limited.map((line) => line.remote_address)).toEqual(["203.0.113.7"]);
    });
  });
});

describe("per-address budgets", () => {
  it("counts a client's IPv6 address by its /64", async () => {
    await withBridge("127.0.0.1/32", { connectionsPerAddressPerMinute: 2 }, async (bridge) => {
      const from = (source: string) =>
        balancer(bridge.port, `PROXY TCP6 ${source} ::1 5555 2222\r\n`);
      const [a, b, c, other] = await Promise.all(
        ["2001:db8:1:2::1", "2001:db8:1:2::99", "2001:db8:1:2:ffff::5", "2001:db8:1:3::1"].map(
          from,
        ),
      );
      expect([await greets(a ?? 0), await greets(b ?? 0), await greets(c ?? 0)]).toEqual([
        true,
        true,
        false,
      ]);
      expect(await greets(other ?? 0)).toBe(true);
    });
  });

  it("counts a peer outside the trusted list as it connects: silent sockets cannot fill the bridge", async () => {
    await withBridge(
      "10.0.0.0/8",
      { connectionsPerAddressPerMinute: 5, maxConnections: 10 },
      async (bridge) => {
        const silent = Array.from({ length: 20 }, () => connect(bridge.port, "127.0.0.1"));
        for (const socket of silent) socket.on("error", () => undefined);
        // Refused at once, not after the 5 s wait for a PROXY header that never comes.
        const deadline = Date.now() + 2_000;
        while (
          bridge.logs.filter((line) => line.outcome === "rate_limited").length < 15 &&
          Date.now() < deadline
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
        const outcomes = bridge.logs.map((line) => line.outcome);
        expect(outcomes.filter((outcome) => outcome === "rate_limited")).toHaveLength(15);
        expect(outcomes).not.toContain("over_capacity");
        expect(bridge.server.activeConnections).toBeLessThanOrEqual(5);
        for (const socket of silent) socket.destroy();
      },
    );
  });
});

describe("PROXY protocol from anyone else", () => {
  it("serves plain SSH to a peer outside the trusted list and records its own address", async () => {
    await withBridge("10.0.0.0/8", {}, async (bridge) => {
      const { key, result, after } = await collectThrough(bridge.port);
      expect(result.stdout).toContain(key.sha256);
      expect(after.connections[0]?.ip_address).toBe("127.0.0.1");
    });
  });

  it("closes a peer outside the trusted list that sends a PROXY header, recording nothing", async () => {
    await withBridge("10.0.0.0/8", {}, async (bridge) => {
      for (const header of [v1("203.0.113.77"), v2("203.0.113.77")]) {
        const { result, after } = await collectThrough(await balancer(bridge.port, header));
        expect(result.code).toBe(255);
        expect(after.connections).toEqual([]);
        expect(bridge.logs.at(-1)).toMatchObject({
          outcome: "untrusted_proxy_header",
          remote_address: "127.0.0.1",
        });
      }
    });
  });
});

describe("PROXY protocol settings", () => {
  const main = join(ROOT, "ssh-bridge", "src", "main.ts");
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [main], {
      env: { ...process.env, BRIDGE_SECRET: "x", SSH_PORT: "0", ...env },
      encoding: "utf8",
      timeout: 20_000,
    });

  it("refuses to start with PROXY_PROTOCOL=true and no trusted balancers", () => {
    const run = start({ PROXY_PROTOCOL: "true", PROXY_PROTOCOL_TRUSTED: "" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("PROXY_PROTOCOL_TRUSTED");
  });

  it("refuses to start with a trusted entry that is not an address or CIDR", () => {
    const run = start({ PROXY_PROTOCOL: "true", PROXY_PROTOCOL_TRUSTED: "10.0.0.0/99" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('"10.0.0.0/99" is not an IP address or CIDR');
  });

  it("reads addresses and CIDRs of both families", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.7 ,2001:db8::/32");
    expect(trusted.check("10.1.2.3", "ipv4")).toBe(true);
    expect(trusted.check("192.0.2.7", "ipv4")).toBe(true);
    expect(trusted.check("192.0.2.8", "ipv4")).toBe(false);
    expect(trusted.check("2001:db8::5", "ipv6")).toBe(true);
    expect(trusted.check("127.0.0.1", "ipv4")).toBe(false);
  });
});
