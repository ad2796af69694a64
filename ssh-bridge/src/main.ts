/**
 * The SSH bridge: reads its configuration from the environment once, then runs the server.
 * See docs/bridge.md for every variable and for running it under systemd.
 */

import { BRIDGE_DEFAULTS } from "./limits.ts";
import { parseTrustedProxies } from "./proxy-protocol.ts";
import { createBridgeServer } from "./server.ts";
import { loadOrCreateHostKeys } from "./server-keys.ts";
import { WorkerClient } from "./worker-client.ts";

function fail(message: string): never {
  console.error(`keyproof bridge: ${message}`);
  process.exit(2);
}

function setting(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === "") fail(`${name} must be set`);
  return value;
}

/** With PROXY_PROTOCOL on, only the balancers in PROXY_PROTOCOL_TRUSTED may speak for a client. */
function trustedProxies() {
  if (setting("PROXY_PROTOCOL", "false") !== "true") return null;
  const list = process.env.PROXY_PROTOCOL_TRUSTED ?? "";
  if (!list.trim()) {
    fail(
      "PROXY_PROTOCOL=true needs PROXY_PROTOCOL_TRUSTED, the addresses or CIDRs of your load balancers (e.g. 10.0.0.0/8)",
    );
  }
  try {
    return parseTrustedProxies(list);
  } catch (error) {
    fail(`PROXY_PROTOCOL_TRUSTED: ${(error as Error).message}`);
  }
}

const numberSetting = (name: string, fallback: number) => Number(setting(name, String(fallback)));

/** A whole number of seconds from `min` to `max`, or the bridge stops with a sentence naming it. */
function secondsSetting(name: string, fallbackMs: number, min: number, max: number): number {
  const text = setting(name, String(fallbackMs / 1000));
  const seconds = Number(text);
  if (!/^\d+$/.test(text.trim()) || seconds < min || seconds > max)
    fail(`${name} must be a whole number of seconds from ${min} to ${max}, not "${text}"`);
  return seconds * 1000;
}

const config = {
  workerUrl: setting("WORKER_URL", "http://localhost:8787"),
  secret: setting("BRIDGE_SECRET"),
  port: numberSetting("SSH_PORT", 2222),
  host: setting("SSH_LISTEN_HOST", "0.0.0.0"),
  hostKeyDir: setting("HOST_KEY_DIR", "./host-keys"),
  trustedProxies: trustedProxies(),
  trustedProxiesText: process.env.PROXY_PROTOCOL_TRUSTED ?? "",
  maxConnections: numberSetting("MAX_CONNECTIONS", BRIDGE_DEFAULTS.maxConnections),
  connectionsPerAddressPerMinute: numberSetting(
    "CONNECTIONS_PER_ADDRESS_PER_MINUTE",
    BRIDGE_DEFAULTS.connectionsPerAddressPerMinute,
  ),
  shutdownGraceMs: numberSetting("SHUTDOWN_GRACE_MS", BRIDGE_DEFAULTS.shutdownGraceMs),
  // The Worker holds a connection's place in its session for 180 s: a longer life would let a
  // second connection in beside a live one.
  connectionLifetimeMs: secondsSetting(
    "CONNECTION_LIFETIME_SECONDS",
    BRIDGE_DEFAULTS.connectionLifetimeMs,
    10,
    180,
  ),
};

function log(line: object) {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

const hostKeys = await loadOrCreateHostKeys(config.hostKeyDir);
const server = createBridgeServer({
  ...BRIDGE_DEFAULTS,
  hostKeys: hostKeys.map((key) => key.privateKey),
  worker: new WorkerClient({
    baseUrl: config.workerUrl,
    secret: config.secret,
    timeoutMs: BRIDGE_DEFAULTS.workerTimeoutMs,
  }),
  maxConnections: config.maxConnections,
  connectionsPerAddressPerMinute: config.connectionsPerAddressPerMinute,
  connectionLifetimeMs: config.connectionLifetimeMs,
  trustedProxies: config.trustedProxies,
  log,
});
const { port } = await server
  .listen(config.port, config.host)
  .catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === "EADDRINUSE" ? "is already in use" : `cannot be opened (${error.message})`;
    console.error(
      `keyproof bridge: ${config.host}:${config.port} ${reason}. Set SSH_PORT to another port.`,
    );
    process.exit(1);
  });
log({
  event: "listening",
  address: `${config.host}:${port}`,
  worker_url: config.workerUrl,
  proxy_protocol: config.trustedProxies ? `trusted from ${config.trustedProxiesText}` : false,
  host_keys: hostKeys.map((key) => `${key.algorithm} ${key.fingerprint}`),
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log({ event: "stopping", open_connections: server.activeConnections });
    await server.close(config.shutdownGraceMs);
    process.exit(0);
  });
}
