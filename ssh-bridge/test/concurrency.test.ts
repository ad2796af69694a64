import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();

describe("one connection at a time", () => {
  it("lets exactly one of twenty simultaneous connections to a single-connection session proceed", async () => {
    const keys = Array.from({ length: 20 }, () => makeKey());
    const session = await ctx.api.createSession("collect", { must_confirm: true });
    const results = await Promise.all(
      keys.map((key) =>
        runSsh({
          port: ctx.bridge.port,
          user: session.connection_identifier,
          keys: [key],
          input: "y\n",
          inputDelayMs: 3000,
        }),
      ),
    );
    const collected = results.filter((result) => result.stdout.includes("Collected 1 key"));
    expect(collected).toHaveLength(1);
    const refused = results.filter((result) => result.code === 255);
    expect(refused).toHaveLength(19);
    for (const result of refused) expect(result.stderr).toMatch(/in progress|already complete/);
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.status).toBe("completed");
    expect(after.connections).toHaveLength(1);
    expect(after.connections[0]?.keys).toHaveLength(1);
  });

  it("tells a second connection the truth: one in progress, or one cut off holding it for at most the lease", async () => {
    const session = await ctx.api.createSession("collect", { must_confirm: true });
    const first = runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [makeKey()],
      input: "y\n",
      inputDelayMs: 4000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [makeKey()],
    });
    expect(second.code).toBe(255);
    expect(second.stderr).toContain(
      "in progress, or one was cut off and holds it for at most 45 seconds more",
    );
    expect((await first).stdout).toContain("Collected 1 key");
  });
});
