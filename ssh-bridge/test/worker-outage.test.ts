import { afterAll, describe, expect, it } from "vitest";
import { removeState, seedProject, startLocalWorker } from "../../test-support/local-worker.ts";
import { apiClient } from "./helpers/api.ts";
import { startBridge } from "./helpers/bridge.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

describe("the Worker goes away and comes back", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  // Starts a Worker in the test itself (its migrations and seed are wrangler processes), then
  // again: 48 s alone on this machine, past the project's 60 s when CI's machine is busy.
  it("tells users the service is unavailable, keeps running, and recovers by itself", async () => {
    const worker = await startLocalWorker();
    cleanup.push(() => removeState(worker));
    cleanup.push(() => worker.stop());
    const { apiKey } = await seedProject(worker);
    const api = apiClient(worker.url, apiKey);
    const bridge = await startBridge(worker);
    cleanup.push(() => bridge.close());
    const key = makeKey();
    const before = await api.createSession("collect", { multi_connection: true, multi_key: true });

    await worker.stop();
    const during = await runSsh({
      port: bridge.port,
      user: before.connection_identifier,
      keys: [key],
    });
    expect(during.code).toBe(255);
    expect(during.stderr).toContain("temporarily unavailable");
    await expect.poll(() => bridge.logs.at(-1)?.outcome).toBe("unavailable");
    expect(bridge.logs.at(-1)?.error).toMatch(/^Worker unreachable: connect ECONNREFUSED /);

    await worker.start();
    const after = await runSsh({
      port: bridge.port,
      user: before.connection_identifier,
      keys: [key],
    });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(key.sha256);
    const session = await api.getSession("collect", before.id);
    expect(session.connections.map((connection) => connection.outcome)).toEqual(["collected"]);
  }, 180_000);
});
