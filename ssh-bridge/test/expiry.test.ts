import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();

describe("expiry", () => {
  it("tells a connection in progress that the session expired and closes it", async () => {
    const expiredAt = new Date(Date.now() + 4000).toISOString();
    const session = await ctx.api.createSession("collect", {
      must_confirm: true,
      expired_at: expiredAt,
    });
    const started = Date.now();
    const result = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [makeKey()],
      pty: true,
      silent: true,
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.stdout).toContain("expired");
    expect(result.code).toBe(1);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("expired");
    expect(after.connections[0]).toMatchObject({ outcome: "expired" });
    expect(after.connections[0]?.keys).toEqual([]);
  });

  it("refuses a new connection to an expired session", async () => {
    const session = await ctx.api.createSession("collect", {
      expired_at: new Date(Date.now() + 1500).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const result = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [makeKey()],
    });
    expect(result.code).toBe(255);
    expect(result.stderr).toContain("has expired");
  });
});
