import type { BlockList } from "node:net";
import { hostname } from "node:os";
import { BRIDGE_DEFAULTS } from "./limits.ts";
import { LOG_LEVELS, type LogLevel } from "./log.ts";
import { parseTrustedProxies } from "./proxy-protocol.ts";

/** A setting the bridge cannot run with: the sentence names it and says what it must be. */
export class SettingError extends Error {}

/** Everything the bridge reads from its environment, read once at start. */
export interface BridgeSettings {
  /** Which bridge of a fleet this is: in every log line and every metric (docs/bridge.md). */
  bridgeId: string;
  workerUrl: string;
  secret: string;
  sshPort: number;
  sshHost: string;
  /** Health, readiness and metrics (docs/operations.md). */
  httpAddress: { host: string; port: number };
  logLevel: LogLevel;
  hostKeyDir: string;
  /** The load balancers whose PROXY headers are believed; null when the PROXY protocol is off. */
  trustedProxies: BlockList | null;
  trustedProxiesText: string;
  maxConnections: number;
  connectionsPerAddressPerMinute: number;
  /** After SIGTERM, how long /readyz says 503 while the bridge still accepts: the balancer's turn. */
  drainNoticeMs: number;
  /** After that, how long connections in progress may finish. */
  drainMs: number;
  connectionLifetimeMs: number;
}

type Environment = Record<string, string | undefined>;

/** Reads the settings from `env`, or throws a SettingError naming the first one that is wrong. */
export function readSettings(env: Environment): BridgeSettings {
  const text = (name: string, fallback?: string): string => {
    const value = env[name] ?? fallback;
    if (value === undefined || value.trim() === "") throw new SettingError(`${name} must be set`);
    return value.trim();
  };
  const whole = (name: string, fallback: number, min: number, max: number, unit = ""): number => {
    const value = text(name, String(fallback));
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max)
      throw new SettingError(
        `${name} must be a whole number${unit} from ${min} to ${max}, not "${value.slice(0, 40)}"`,
      );
    return number;
  };
  return {
    bridgeId: bridgeId(text("BRIDGE_ID", hostname())),
    workerUrl: workerUrl(text("WORKER_URL", "http://localhost:8787")),
    secret: text("BRIDGE_SECRET"),
    sshPort: whole("SSH_PORT", 2222, 0, 65535),
    sshHost: text("SSH_LISTEN_HOST", "0.0.0.0"),
    httpAddress: httpAddress(text("HTTP_ADDRESS", BRIDGE_DEFAULTS.httpAddress)),
    logLevel: logLevel(text("LOG_LEVEL", "info")),
    hostKeyDir: text("HOST_KEY_DIR", "./host-keys"),
    trustedProxies: trustedProxies(env),
    trustedProxiesText: env.PROXY_PROTOCOL_TRUSTED ?? "",
    maxConnections: whole("MAX_CONNECTIONS", BRIDGE_DEFAULTS.maxConnections, 1, 1_000_000),
    connectionsPerAddressPerMinute: whole(
      "CONNECTIONS_PER_ADDRESS_PER_MINUTE",
      BRIDGE_DEFAULTS.connectionsPerAddressPerMinute,
      1,
      1_000_000_000,
    ),
    drainNoticeMs: whole("DRAIN_NOTICE_SECONDS", 0, 0, 300, " of seconds") * 1000,
    drainMs: whole("DRAIN_SECONDS", BRIDGE_DEFAULTS.drainMs / 1000, 0, 3600, " of seconds") * 1000,
    // The Worker holds a connection's place in its session for 180 s: a longer life would let a
    // second connection in beside a live one.
    connectionLifetimeMs:
      whole(
        "CONNECTION_LIFETIME_SECONDS",
        BRIDGE_DEFAULTS.connectionLifetimeMs / 1000,
        10,
        180,
        " of seconds",
      ) * 1000,
  };
}

/** A name an operator reads and a metric label carries: letters, digits, `.`, `_` and `-`. */
function bridgeId(value: string): string {
  if (/^[A-Za-z0-9._-]{1,64}$/.test(value)) return value;
  throw new SettingError(
    `BRIDGE_ID must be 1 to 64 letters, digits, ".", "_" or "-", not "${value.slice(0, 64)}"`,
  );
}

function workerUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {}
  throw new SettingError(`WORKER_URL must be an http or https URL, not "${value.slice(0, 100)}"`);
}

/** `127.0.0.1:9464`, `[::1]:9464` or `0.0.0.0:9464`. */
function httpAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535)
    throw new SettingError(
      `HTTP_ADDRESS must be host:port, such as 127.0.0.1:9464 or [::1]:9464, not "${value.slice(0, 100)}"`,
    );
  return { host: match[1] ?? match[2] ?? "", port };
}

function logLevel(value: string): LogLevel {
  const level = value.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new SettingError(
    `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not "${value.slice(0, 40)}"`,
  );
}

/** With PROXY_PROTOCOL on, only the balancers in PROXY_PROTOCOL_TRUSTED may speak for a client. */
function trustedProxies(env: Environment): BlockList | null {
  const setting = (env.PROXY_PROTOCOL ?? "false").trim();
  if (setting !== "true" && setting !== "false")
    throw new SettingError(`PROXY_PROTOCOL must be true or false, not "${setting.slice(0, 40)}"`);
  if (setting === "false") return null;
  const list = env.PROXY_PROTOCOL_TRUSTED ?? "";
  if (!list.trim()) {
    throw new SettingError(
      "PROXY_PROTOCOL=true needs PROXY_PROTOCOL_TRUSTED, the addresses or CIDRs of your load balancers (e.g. 10.0.0.0/8)",
    );
  }
  try {
    return parseTrustedProxies(list);
  } catch (error) {
    throw new SettingError(`PROXY_PROTOCOL_TRUSTED: ${(error as Error).message}`);
  }
}
