import { inject } from "vitest";
import type { ConnectionLog } from "../../src/connection-log.ts";
import { BRIDGE_DEFAULTS } from "../../src/limits.ts";
import { type BridgeServerOptions, createBridgeServer } from "../../src/server.ts";
import { loadOrCreateHostKeys } from "../../src/server-keys.ts";
import { WorkerClient } from "../../src/worker-client.ts";

/** The host keys the shared Worker's proof page names (test/setup/global-worker.ts). */
const hostKeyDir = inject("hostKeyDir");

/** A real bridge on 127.0.0.1 and a free port, talking to `workerUrl`. */
export async function startBridge(
  worker: { url: string; secret: string },
  overrides: Partial<BridgeServerOptions> = {},
) {
  const hostKeys = await loadOrCreateHostKeys(hostKeyDir);
  const logs: ConnectionLog[] = [];
  const server = createBridgeServer({
    ...BRIDGE_DEFAULTS,
    connectionsPerAddressPerMinute: 10_000,
    hostKeys: hostKeys.map((key) => key.privateKey),
    worker: new WorkerClient({ baseUrl: worker.url, secret: worker.secret, timeoutMs: 5_000 }),
    trustedProxies: null,
    log: (line) => logs.push(line),
    ...overrides,
  });
  const { port } = await server.listen(0, "127.0.0.1");
  return { port, server, logs, hostKeys, close: () => server.close(0) };
}
