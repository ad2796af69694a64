import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

// A shorter confirmation deadline than the production 120 s, so silence can be tested quickly.
const ctx = useBridge({ confirmDeadlineMs: 1500 });

describe("must_confirm left silent", () => {
  it.each([true, false])("declines after the deadline (pty: %s)", async (pty) => {
    const session = await ctx.api.createSession("collect", { must_confirm: true });
    const result = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [makeKey()],
      pty,
      silent: true,
    });
    // Nothing counted: ssh says so with its exit status.
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Nothing was recorded");
    const after = await ctx.api.getSession("collect", session.id);
    expect(after.connections[0]).toMatchObject({ confirmed: false, outcome: "declined" });
    expect(after.connections[0]?.keys).toHaveLength(0);
  });
});
