import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { WorkerClient } from "../src/worker-client.ts";
import { apiClient } from "./helpers/api.ts";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh, startAgent } from "./helpers/ssh.ts";

/** Items 13, 14 and 20. */

const ctx = useBridge();

describe("the -i hint", () => {
  it("records the key chosen, not the agent's first, when the hint is followed", async () => {
    const inAgent = makeKey("ed25519");
    const chosen = makeKey("ed25519");
    const agent = startAgent([inAgent]);
    try {
      const session = await ctx.api.createSession("collect");
      // The hint as the proof page and the terminal give it: `-i <key> -o IdentitiesOnly=yes`.
      const page = await (
        await fetch(`${ctx.worker.url}/p/${session.connection_identifier}`)
      ).text();
      expect(page).toContain("-i ~/.ssh/your_key -o IdentitiesOnly=yes");
      const withHint = await runSsh({
        port: ctx.bridge.port,
        user: session.connection_identifier,
        agentSocket: agent.socket,
        keys: [chosen],
        extraArgs: ["-o", "IdentitiesOnly=yes"],
      });
      const result = withHint;
      expect(result.code).toBe(0);
      const after = await ctx.api.getSession("collect", session.id);
      expect(after.connections[0]?.keys.map((key) => key.public_key_sha256)).toEqual([
        chosen.sha256,
      ]);
      // Without it, ssh offers the agent's key first, and a single-key session takes that one.
      const other = await ctx.api.createSession("collect");
      await runSsh({
        port: ctx.bridge.port,
        user: other.connection_identifier,
        agentSocket: agent.socket,
        keys: [chosen],
      });
      const taken = await ctx.api.getSession("collect", other.id);
      expect(taken.connections[0]?.keys.map((key) => key.public_key_sha256)).toEqual([
        inAgent.sha256,
      ]);
    } finally {
      agent.stop();
    }
  });
});

describe("a connection that offers no key", () => {
  it("is told how to offer one, and uses up no attempt of a verification session", async () => {
    const expected = makeKey("ed25519");
    const session = await ctx.api.createSession("verify", {
      keys: [{ public_key: expected.publicKey }],
    });
    // A mistyped -i path: ssh offers nothing.
    const missing = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      extraArgs: ["-i", "/nonexistent/id_ed25519"],
    });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("No SSH key was offered");
    expect(missing.stdout).toContain("-o IdentitiesOnly=yes");
    expect(missing.stdout).toContain("That did not count as an attempt.");
    const after = await ctx.api.getSession("verify", session.id);
    expect(after).toMatchObject({ status: "pending", failed_attempts: 0 });
    // The session is still there for the right key.
    const proven = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [expected],
    });
    expect(proven.code).toBe(0);
    expect((await ctx.api.getSession("verify", session.id)).status).toBe("verified");
  });
});

/**
 * Between a bridge and the Worker: passes every call on, but for the first connection report
 * it hangs up once the Worker has answered, as a Worker that dies mid-answer would.
 */
async function losingFirstReport(workerUrl: string) {
  const target = new URL(workerUrl);
  let dropped = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: { ...incoming.headers, host: target.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => body.push(chunk));
          answer.on("end", () => {
            if (/\/finish$/.test(incoming.url ?? "") && dropped === 0) {
              dropped += 1;
              incoming.socket.destroy();
              return;
            }
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(Buffer.concat(body));
          });
        },
      );
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropped: () => dropped,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("a report whose answer is lost", () => {
  const proxy = losingFirstReport(inject("workerUrl"));
  let bridge: Awaited<ReturnType<typeof startBridge>> | null = null;
  afterAll(async () => {
    await bridge?.close();
    await (await proxy).close();
  });

  it("is sent again and the user reads what was recorded, never that nothing was", async () => {
    const through = await proxy;
    bridge = await startBridge(ctx.worker, {
      worker: new WorkerClient({
        baseUrl: through.url,
        secret: inject("bridgeSecret"),
        timeoutMs: 5_000,
      }),
    });
    const key = makeKey("ed25519");
    const api = apiClient(ctx.worker.url, inject("apiKey"));
    const session = await api.createSession("collect");
    const result = await runSsh({
      port: bridge.port,
      user: session.connection_identifier,
      keys: [key],
    });
    expect(through.dropped()).toBe(1);
    expect(result.stdout).not.toContain("Nothing was recorded");
    expect(result.stdout).toContain("Collected 1 key");
    expect(result.stdout).toContain(key.sha256);
    expect(result.code).toBe(0);
    const after = await api.getSession("collect", session.id);
    expect(after.status).toBe("completed");
    expect(after.connections).toHaveLength(1);
    expect(after.connections[0]?.keys).toHaveLength(1);
  });
});
