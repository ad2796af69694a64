/**
 * The SSH bridge: reads its configuration from the environment once, then runs the SSH server
 * and, beside it, health, readiness and metrics for operators. docs/bridge.md lists every
 * setting; docs/operations.md is the runbook.
 */

import type { ConnectionLog } from "./connection-log.ts";
import { BRIDGE_DEFAULTS } from "./limits.ts";
import { jsonLogger, type LogLevel } from "./log.ts";
import { BridgeMetrics } from "./metrics.ts";
import { Readiness, startOperationsServer } from "./operations.ts";
import { createBridgeServer } from "./server.ts";
import { HostKeyError, loadOrCreateHostKeys } from "./server-keys.ts";
import { readSettings, SettingError } from "./settings.ts";
import { WorkerClient } from "./worker-client.ts";

/** The bridge cannot start: one sentence on stderr, and a non-zero exit. */
function fail(message: string, code = 2): never {
  process.stderr.write(`keyproof bridge: ${message}\n`);
  process.exit(code);
}

const settings = (() => {
  try {
    return readSettings(process.env);
  } catch (error) {
    if (error instanceof SettingError) fail(error.message);
    throw error;
  }
})();

const log = jsonLogger(settings.logLevel, undefined, { bridge: settings.bridgeId });
const metrics = new BridgeMetrics({ withProcessMetrics: true, bridgeId: settings.bridgeId });
const readiness = new Readiness();
const worker = new WorkerClient({
  baseUrl: settings.workerUrl,
  secret: settings.secret,
  timeoutMs: BRIDGE_DEFAULTS.workerTimeoutMs,
  observe: (endpoint, seconds, error) => {
    metrics.workerCall(endpoint, seconds, error !== null);
    readiness.workerAnswered(error);
  },
});

/** A connection's line: warn when it went wrong on our side, info otherwise. */
function connectionLevel(line: ConnectionLog): LogLevel {
  if (line.outcome === "unavailable" || line.outcome === "error") return "warn";
  return "info";
}

const hostKeys = await loadOrCreateHostKeys(settings.hostKeyDir).catch((error: Error) =>
  error instanceof HostKeyError ? fail(error.message) : Promise.reject(error),
);
const server = createBridgeServer({
  ...BRIDGE_DEFAULTS,
  hostKeys: hostKeys.map((key) => key.privateKey),
  worker,
  maxConnections: settings.maxConnections,
  connectionsPerAddressPerMinute: settings.connectionsPerAddressPerMinute,
  connectionLifetimeMs: settings.connectionLifetimeMs,
  trustedProxies: settings.trustedProxies,
  metrics,
  log: (line) => log(connectionLevel(line), "connection closed", line),
});

const operations = await startOperationsServer({
  ...settings.httpAddress,
  readiness,
  metrics,
}).catch((error: NodeJS.ErrnoException) =>
  fail(
    `HTTP_ADDRESS ${settings.httpAddress.host}:${settings.httpAddress.port} ${error.code === "EADDRINUSE" ? "is already in use" : `cannot be opened (${error.message})`}. Set HTTP_ADDRESS to another address.`,
    1,
  ),
);
const { port } = await server
  .listen(settings.sshPort, settings.sshHost)
  .catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === "EADDRINUSE" ? "is already in use" : `cannot be opened (${error.message})`;
    fail(`${settings.sshHost}:${settings.sshPort} ${reason}. Set SSH_PORT to another port.`, 1);
  });
readiness.listening();
log("info", "listening", {
  address: `${settings.sshHost}:${port}`,
  http_address: `${settings.httpAddress.host}:${operations.port}`,
  worker_url: settings.workerUrl,
  proxy_protocol: settings.trustedProxies ? `trusted from ${settings.trustedProxiesText}` : false,
  host_keys: hostKeys.map((key) => `${key.algorithm} ${key.fingerprint}`),
  drain_notice_seconds: settings.drainNoticeMs / 1000,
  drain_seconds: settings.drainMs / 1000,
});

// Readiness needs a recent word from the Worker even when no one connects. A change of its
// answer is logged once, not every probe.
let workerAnswers = true;
const probe = () =>
  worker.health().then(
    () => {
      if (!workerAnswers) log("info", "the Worker answers again", {});
      workerAnswers = true;
    },
    (error: Error) => {
      if (workerAnswers)
        log("warn", "the Worker does not answer the readiness probe", { error: error.message });
      workerAnswers = false;
    },
  );
void probe();
const probing = setInterval(probe, BRIDGE_DEFAULTS.workerProbeIntervalMs);
probing.unref();

// The first signal drains: not ready at once; still accepting for DRAIN_NOTICE_SECONDS, while the
// balancer's health checks see it and send new users to the other bridges; then no new
// connections, and those in progress finish (DRAIN_SECONDS at most). A second ends what is left.
let draining = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (draining) {
      log("warn", "second signal: ending the connections still open", { signal });
      server.hurry();
      return;
    }
    draining = true;
    readiness.draining();
    clearInterval(probing);
    log("info", "draining", {
      signal,
      open_connections: server.activeConnections,
      drain_notice_seconds: settings.drainNoticeMs / 1000,
      drain_seconds: settings.drainMs / 1000,
    });
    await server.close(settings.drainMs, settings.drainNoticeMs);
    log("info", "stopped", {});
    await operations.close();
    process.exit(0);
  });
}
