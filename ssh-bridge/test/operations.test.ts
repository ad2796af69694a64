import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { greets } from "../../test-support/ssh-greeting.ts";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();

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
