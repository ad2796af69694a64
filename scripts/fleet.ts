/**
 * A fleet of bridges behind HAProxy, as `BRIDGES=n npm start` runs it (docs/bridge.md, "A
 * fleet"): where HAProxy is, the configuration it is given, and what it says of each bridge.
 * deploy/haproxy.cfg is the same configuration for VMs, with production's health-check pace.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { BRIDGE_DEFAULTS } from "../ssh-bridge/src/limits.ts";
import { freePort } from "./local-dev.ts";
import { haproxyLine } from "./start-log.ts";
import type { Supervisor } from "./start-supervisor.ts";

/** One bridge of a local fleet: its name, its SSH port (HAProxy's server) and its health port. */
export interface FleetBridge {
  id: string;
  sshPort: number;
  httpHost: string;
  httpPort: number;
}

/**
 * Health checks this often locally, out after two misses: a draining bridge is out within about
 * a second, so DRAIN_NOTICE_SECONDS of 2 covers it (production: deploy/haproxy.cfg, every 1 s,
 * and the unit's 5 s).
 */
export const LOCAL_CHECK_INTERVAL_MS = 500;
export const LOCAL_DRAIN_NOTICE_SECONDS = 2;

/** HAProxy's binary: on PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export function haproxyBinary(): string | null {
  const found = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" });
  const onPath = found.status === 0 ? found.stdout.trim() : "";
  if (onPath) return onPath;
  return ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"].find((path) => existsSync(path)) ?? null;
}

export const HAPROXY_MISSING = (bridges: number) =>
  `BRIDGES=${bridges} runs HAProxy in front of the bridges, and it is not installed. Install it (Debian or Ubuntu: sudo apt-get install haproxy; macOS: brew install haproxy), or run one bridge with BRIDGES=1.`;

/** Whether this machine has IPv6 loopback, so the balancer also listens on [::1]. */
const hasIpv6Loopback = () =>
  Object.values(networkInterfaces()).some((addresses) =>
    (addresses ?? []).some((address) => address.family === "IPv6" && address.address === "::1"),
  );

/** HAProxy's `bind` lines for `host:port`: loopback listens on both families' loopback. */
function binds(host: string, port: number): string[] {
  if (host === "0.0.0.0" || host === "::") return [`bind :::${port} v4v6`];
  if (host === "127.0.0.1" || host === "localhost")
    return [`bind 127.0.0.1:${port}`, ...(hasIpv6Loopback() ? [`bind ipv6@::1:${port}`] : [])];
  return [`bind ${host.includes(":") ? `ipv6@${host}` : host}:${port}`];
}

/**
 * One budget per client for the whole fleet: its new connections a minute, counted by
 * the balancer, which sees every one, against its address (an IPv6 client's /64, as each bridge
 * counts); past it, the connection is refused before any bridge sees it. The same lines are in
 * deploy/haproxy.cfg (ssh-bridge/test/shipped-config.test.ts keeps them equal).
 */
export const CLIENT_BUDGET = [
  "stick-table type ipv6 size 1m expire 2m store conn_rate(60s)",
  "tcp-request connection track-sc0 src,ipmask(32,64)",
  `tcp-request connection reject if { sc0_conn_rate gt ${BRIDGE_DEFAULTS.connectionsPerAddressPerMinute} }`,
];

/**
 * Each bridge again as a backup without a health check: used only while no bridge is ready, as
 * when none can reach the Worker, so an `ssh` user still meets a bridge, which says the service
 * is away, instead of a bare closed connection. (One that is stopped refuses, and the balancer
 * redispatches.) The same lines are in deploy/haproxy.cfg.
 */
export const FALLBACK_SUFFIX = "-fallback";
const FALLBACK_COMMENT =
  "# While no bridge is ready, every bridge still takes connections: it tells the user why.";

/**
 * The local balancer: layer 4, a PROXY v2 header to each bridge (so each records the user's own
 * address), a health check on each bridge's /readyz, and a retry on another bridge when one
 * refuses. Timeouts above a bridge's longest connection (180 s), so HAProxy never cuts one.
 */
export function haproxyConfig(options: {
  listenHost: string;
  listenPort: number;
  bridges: FleetBridge[];
  statsSocket: string;
}): string {
  const inter = `${LOCAL_CHECK_INTERVAL_MS}ms`;
  return `# Written by npm start (scripts/fleet.ts) for BRIDGES=${options.bridges.length}; deploy/haproxy.cfg is the production one.
global
    stats socket ${options.statsSocket} mode 600 level user
    maxconn 4000

defaults
    mode tcp
    timeout connect 2s
    timeout client 200s
    timeout server 200s
    timeout client-fin 10s
    timeout server-fin 10s
    retries 3
    option redispatch 1
    default-server inter ${inter} fall 2 rise 2 send-proxy-v2 check

frontend ssh
${binds(options.listenHost, options.listenPort)
  .map((line) => `    ${line}`)
  .join("\n")}
${CLIENT_BUDGET.map((line) => `    ${line}`).join("\n")}
    default_backend bridges

backend bridges
    balance leastconn
    option httpchk GET /readyz
    http-check expect status 200
${options.bridges
  .map(
    (bridge) =>
      `    server ${bridge.id} 127.0.0.1:${bridge.sshPort} check addr ${bridge.httpHost} port ${bridge.httpPort}`,
  )
  .join("\n")}
    ${FALLBACK_COMMENT}
${options.bridges
  .map(
    (bridge) =>
      `    server ${bridge.id}${FALLBACK_SUFFIX} 127.0.0.1:${bridge.sshPort} backup no-check`,
  )
  .join("\n")}
`;
}

/**
 * What HAProxy says of each bridge now (`UP`, `DOWN`, `MAINT`, ...), from its stats socket: its
 * health-checked entry, not its fallback.
 */
export async function haproxyServers(statsSocket: string): Promise<Map<string, string>> {
  const csv = await new Promise<string>((resolve, reject) => {
    const socket = connect(statsSocket);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
    socket.setTimeout(2_000, () => socket.destroy(new Error("HAProxy's stats socket is silent")));
    socket.end("show stat\n");
  });
  const [header = "", ...rows] = csv.trim().split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const at = (name: string) => columns.indexOf(name);
  const servers = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split(",");
    const name = cells[at("svname")] ?? "";
    if (cells[at("pxname")] !== "bridges" || name === "BACKEND" || name.endsWith(FALLBACK_SUFFIX))
      continue;
    servers.set(name, (cells[at("status")] ?? "").split(" ")[0] ?? "");
  }
  return servers;
}

/**
 * The bridges to run. One: on `sshPort`, health at `httpAddress`. Several: each on a free port of
 * its own, health at `httpAddress`'s port and the ones after it.
 */
export async function fleetBridges(
  count: number,
  sshPort: number,
  httpAddress: string,
): Promise<FleetBridge[]> {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(httpAddress);
  const httpHost = match?.[1] ?? match?.[2] ?? "127.0.0.1";
  const httpPort = Number(match?.[3] ?? 9464);
  const fleet: FleetBridge[] = [];
  for (let i = 0; i < count; i++)
    fleet.push({
      id: `bridge-${i + 1}`,
      sshPort: count === 1 ? sshPort : await freePort(),
      httpHost,
      httpPort: httpPort + i,
    });
  return fleet;
}

export function healthAddress(bridge: FleetBridge): string {
  const host = bridge.httpHost.includes(":") ? `[${bridge.httpHost}]` : bridge.httpHost;
  return `${host}:${bridge.httpPort}`;
}

/**
 * HAProxy on the SSH port, in the foreground under `npm start`, with its configuration in `dir`;
 * ready once it counts every bridge up (its stats socket says so).
 */
export async function startBalancer(
  supervisor: Supervisor,
  binary: string,
  options: {
    dir: string;
    listenHost: string;
    listenPort: number;
    bridges: FleetBridge[];
    readyTimeoutMs: number;
  },
) {
  mkdirSync(options.dir, { recursive: true });
  const config = join(options.dir, "haproxy.cfg");
  const statsSocket = join(options.dir, "haproxy.sock");
  writeFileSync(config, haproxyConfig({ ...options, statsSocket }));
  // -db: stay in the foreground; its notices (a bridge going down or up) are its only lines,
  // each once, without its pid: `haproxy Server bridges/bridge-1 is DOWN, ...`.
  supervisor.start({
    name: "haproxy",
    command: binary,
    args: ["-db", "-f", config],
    readable: (line) => `haproxy ${haproxyLine(line)}`,
  });
  const deadline = Date.now() + options.readyTimeoutMs;
  while (Date.now() < deadline && !supervisor.stopping) {
    const servers = await haproxyServers(statsSocket).catch(() => new Map<string, string>());
    if (options.bridges.every((bridge) => servers.get(bridge.id) === "UP")) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!supervisor.stopping) {
    console.error(
      `HAProxy did not count every bridge up within ${options.readyTimeoutMs / 1000} s.`,
    );
    supervisor.stop(1);
  }
}
