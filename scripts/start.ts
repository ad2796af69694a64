/**
 * `npm start`: applies local migrations, then runs the Worker (wrangler dev) and the SSH bridge
 * together — or, with BRIDGES=n, n bridges behind HAProxy on the SSH port (scripts/fleet.ts).
 * Ctrl-C stops everything.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  fingerprintSetting,
  HostKeyError,
  loadOrCreateHostKeys,
} from "../ssh-bridge/src/server-keys.ts";
import { buildBridge } from "./build-bridge.ts";
import {
  type FleetBridge,
  HAPROXY_MISSING,
  haproxyBinary,
  haproxyConfig,
  haproxyServers,
  LOCAL_DRAIN_NOTICE_SECONDS,
} from "./fleet.ts";
import {
  applyLocalMigrations,
  BIN,
  BRIDGE_NODE_ENV,
  bridgeCommand,
  claimStateDir,
  ensureDevVars,
  ensureLocalStateDir,
  freePort,
  LocalDatabaseBusyError,
  nodeVersionCheck,
  noteStateFromBefore,
  ROOT,
  runScheduledEvery,
  StateDirTakenError,
  WRANGLER_STATE,
} from "./local-dev.ts";
import { stopWithThisProcess } from "./process-guard.ts";

const HTTP_PORT = Number(process.env.PORT ?? 8787);
const SSH_PORT = Number(process.env.SSH_PORT ?? 2222);
const SSH_HOST = process.env.SSH_HOST ?? "localhost";
const HTTP_ADDRESS = process.env.HTTP_ADDRESS ?? "127.0.0.1:9464";
/** Bridges to run: one on the SSH port, or several behind HAProxy there (at most 16 locally). */
const BRIDGES = Number(process.env.BRIDGES ?? 1);
const READY_TIMEOUT_MS = 60_000;
const CRON_EVERY_MS = 60_000;
/**
 * The Worker is asked whether it answers this often, and given this long: a workerd that crashed
 * and came back under wrangler may answer nothing at all (every request hangs), which only a new
 * `wrangler dev` cures. After WORKER_MISSES misses in a row it is started again.
 */
const WORKER_CHECK_EVERY_MS = 5_000;
const WORKER_CHECK_TIMEOUT_MS = 5_000;
const WORKER_MISSES = 3;

/**
 * Settings `npm start` passes to the Worker from its own environment, when set: code forges for
 * keys_from (`FORGES='{"corp": "http://127.0.0.1:3000"}' npm start`); and, development only, D1's
 * primary made that far away (bench/geo.ts), a shorter retention day to see sessions erased
 * (`RETENTION_DAY_SECONDS=3`), and the billed units counted at `/__dev/meters` (`METERING=on`).
 */
const PASSED_THROUGH = [
  "FORGES",
  "SIMULATED_D1_PRIMARY_MS",
  "SIMULATED_D1_QUERY_MS",
  "RETENTION_DAY_SECONDS",
  "RETIREMENT_GRACE_SECONDS",
  "METERING",
];

// Read by readableLogLine: up here, as the Worker's first lines arrive while this file still waits.

/**
 * What wrangler says that README's log does not show: its own line for every request (the Worker
 * logs the API's and the bridge's itself, pages and the cron's are not news), its banner and the
 * table of bindings it prints at each start, and its startup chatter.
 */
const WRANGLER_CHATTER = [
  /^\[wrangler:info\] (Ready on|[A-Z]+ \/)/,
  /^\s*⛅️ wrangler/,
  /^─+$/,
  /^Using secrets defined in/,
  /^Your Worker has access to the following bindings:/,
  /^Binding\s+Resource\s+Mode$/,
  /^env\.[A-Z0-9_]+ .*\s(local|remote)$/,
  /^⎔ /,
  /^\s*$/,
  // workerd's own report of a fetch it could not make (a forge offline): the Worker says it in
  // its own one line, the request's 503 (README: an error is one line).
  /rust\/worker\/ffi\.rs:\d+: failed:/,
  /^\s+stack: .*workerd@/,
];
/** What wrangler puts around a Worker's error and warning lines: a coloured box. */
const WRANGLER_BOX = /^(?:✘ \[ERROR\]|▲ \[WARNING\]) (.*)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what it strips
const ANSI = /\x1b\[[0-9;]*m/g;

nodeVersionCheck();
if (!Number.isInteger(BRIDGES) || BRIDGES < 1 || BRIDGES > 16) {
  console.error(
    `keyproof cannot start: BRIDGES must be a whole number from 1 to 16, not "${process.env.BRIDGES}".`,
  );
  process.exit(1);
}
const haproxy = BRIDGES > 1 ? haproxyBinary() : null;
if (BRIDGES > 1 && !haproxy) {
  console.error(`keyproof cannot start: ${HAPROXY_MISSING(BRIDGES)}`);
  process.exit(1);
}
// One npm start a state directory: two would each serve what the other wrote.
await claimStateDir(`http://localhost:${HTTP_PORT}`, (holder) =>
  console.error(
    `Another npm start (pid ${holder}) uses ${WRANGLER_STATE}; waiting up to 30 s for it to stop.`,
  ),
).catch((error: Error) => {
  if (!(error instanceof StateDirTakenError)) throw error;
  console.error(`keyproof cannot start: ${error.message}`);
  process.exit(1);
});
const vars = ensureDevVars();
const stateDir = ensureLocalStateDir();
noteStateFromBefore();
console.log("Applying local D1 migrations…");
try {
  await applyLocalMigrations();
} catch (error) {
  if (!(error instanceof LocalDatabaseBusyError)) throw error;
  console.error(`keyproof cannot start: ${error.message}`);
  process.exit(1);
}

// The bridge's host keys, made now if this is the first start: the proof page shows their
// fingerprints so users can compare what `ssh` prints on first contact.
const hostKeyDir = process.env.HOST_KEY_DIR ?? join(stateDir, "host-keys");
const hostKeys = await loadOrCreateHostKeys(hostKeyDir).catch((error: Error) => {
  if (!(error instanceof HostKeyError)) throw error;
  console.error(`keyproof cannot start: ${error.message}`);
  process.exit(1);
});

const children: ChildProcess[] = [];
let stopping = false;
/** Everything is up and was announced: from here a bridge that stops is started again. */
let announced = false;

/**
 * A bridge that stops once everything is up, whatever its exit (a drain, a crash, `kill -9`), is
 * started again after this, as systemd's `Restart=always` does in production (deploy/); the
 * others keep serving meanwhile.
 */
const RESTART_AFTER_MS = 1_000;
/** ... unless it stopped this often within RESTART_WINDOW_MS: a crash loop stops everything. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** When each restartable process stopped lately, by name. */
const stops = new Map<string, number[]>();

/** Once something stopped everything, nothing more is started or announced: the exit comes. */
const stillStarting = () => (stopping ? new Promise<never>(() => {}) : Promise.resolve());

/** Whether `name` has stopped MAX_RESTARTS times within RESTART_WINDOW_MS, counting this time. */
function crashLooping(name: string): boolean {
  const now = Date.now();
  const recent = [...(stops.get(name) ?? []), now].filter((at) => at > now - RESTART_WINDOW_MS);
  stops.set(name, recent);
  return recent.length >= MAX_RESTARTS;
}

/** Processes being started again on purpose: their exit is not a failure. */
const replacing = new Set<ChildProcess>();

function start(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  readable?: (line: string) => string | null,
  restartable = false,
) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", readable ? "pipe" : "inherit", readable ? "pipe" : "inherit"],
    // A group of its own: stopping wrangler stops the workerd under it too, hung or not.
    detached: true,
  });
  stopWithThisProcess(child, { group: true });
  if (readable) {
    for (const [stream, print] of [
      [child.stdout, console.log],
      [child.stderr, console.error],
    ] as const)
      if (stream)
        createInterface({ input: stream }).on("line", (line) => {
          const shown = readable(line);
          if (shown !== null) print(shown);
        });
  }
  child.on("exit", (code, signal) => {
    children.splice(children.indexOf(child), 1);
    if (stopping || replacing.delete(child)) return;
    const how = signal ?? `exit ${code}`;
    // Before everything is up, a process that stops is a failure to start: all of it stops.
    if (restartable && announced) {
      if (crashLooping(name)) {
        console.error(
          `${name} stopped (${how}), ${MAX_RESTARTS} times within ${RESTART_WINDOW_MS / 1000} s; stopping everything.`,
        );
        stop(code || 1);
        return;
      }
      console.error(`${name} stopped (${how}); starting it again.`);
      setTimeout(() => {
        if (stopping) return;
        const again = start(name, command, args, env, readable, restartable);
        console.error(`${name} started again (pid ${again.pid}).`);
      }, RESTART_AFTER_MS);
      return;
    }
    console.error(`${name} stopped (${how}); stopping everything.`);
    stop(code || 1);
  });
  children.push(child);
  return child;
}

function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) killGroup(child, "SIGTERM");
  const deadline = setTimeout(() => {
    for (const child of children) killGroup(child, "SIGKILL");
    process.exit(exitCode);
  }, 5000);
  deadline.unref();
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) =>
          child.exitCode !== null ? resolve(null) : child.on("exit", resolve),
        ),
    ),
  ).then(() => process.exit(exitCode));
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

const startWorker = () =>
  start(
    "wrangler dev",
    join(BIN, "wrangler"),
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(HTTP_PORT),
      "--persist-to",
      WRANGLER_STATE,
      "--var",
      `SSH_HOST:${SSH_HOST}`,
      "--var",
      `SSH_PORT:${SSH_PORT}`,
      "--var",
      `PUBLIC_URL:http://localhost:${HTTP_PORT}`,
      "--var",
      `SSH_HOST_KEY_FINGERPRINTS:${fingerprintSetting(hostKeys)}`,
      // Local runs deliver webhooks to receivers on this machine; the shipped config is production.
      "--var",
      "ENVIRONMENT:development",
      // No edge in front: a client's own cf-connecting-ip is not believed.
      "--var",
      "TRUST_CF_CONNECTING_IP:false",
      ...PASSED_THROUGH.flatMap((name) =>
        process.env[name] ? ["--var", `${name}:${process.env[name]}`] : [],
      ),
      // Exposes the cron handler, which the timer below runs every minute as Cloudflare would.
      "--test-scheduled",
      "--show-interactive-dev-session=false",
      // "log" shows the Worker's own lines (one per API request); readableLogLine formats them.
      "--log-level",
      "log",
      // No network needed: skip fetching the real `request.cf` object and use the placeholder.
    ],
    // No banner and no update notice: README's log shows the Worker's lines and the bridge's.
    { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" },
    readableLogLine("worker"),
  );
let worker = startWorker();

const workerUrl = `http://localhost:${HTTP_PORT}`;
await waitForWorker(workerUrl);
await stillStarting();
watchWorker(workerUrl);
// wrangler.toml's cron trigger (every minute): sends webhook deliveries whose queue message was lost,
// and erases the closed sessions past their project's retention.
runScheduledEvery(workerUrl, CRON_EVERY_MS);

// The bridge runs as deployed: the one-file bundle, built now from the source. One bridge listens
// on the SSH port itself; a fleet listens on ports of its own, behind HAProxy on the SSH port.
await buildBridge();
await stillStarting();
const bridges = await fleetBridges();
const SSH_LISTEN_HOST = process.env.SSH_LISTEN_HOST ?? "127.0.0.1";
const bridgePids = new Map<string, number | undefined>();
for (const bridge of bridges) {
  const child = start(
    bridges.length === 1 ? "ssh-bridge" : bridge.id,
    ...bridgeCommand(),
    {
      ...BRIDGE_NODE_ENV,
      BRIDGE_ID: bridge.id,
      WORKER_URL: workerUrl,
      BRIDGE_SECRET: vars.BRIDGE_SECRET ?? "",
      SSH_PORT: String(bridge.sshPort),
      HOST_KEY_DIR: hostKeyDir,
      HTTP_ADDRESS: healthAddress(bridge),
      // Ctrl-C should not wait minutes for a connection left at a prompt (production: 180 s).
      DRAIN_SECONDS: process.env.DRAIN_SECONDS ?? "3",
      ...(bridges.length === 1
        ? { SSH_LISTEN_HOST }
        : {
            // Only HAProxy reaches a fleet's bridges, and each believes its PROXY header alone.
            SSH_LISTEN_HOST: "127.0.0.1",
            PROXY_PROTOCOL: "true",
            PROXY_PROTOCOL_TRUSTED: "127.0.0.1",
            DRAIN_NOTICE_SECONDS:
              process.env.DRAIN_NOTICE_SECONDS ?? String(LOCAL_DRAIN_NOTICE_SECONDS),
          }),
    },
    readableLogLine(bridges.length === 1 ? "bridge" : bridge.id),
    true,
  );
  bridgePids.set(bridge.id, child.pid);
}
// Asked over HTTP: a probe of the SSH port would be a connection of its own, logged as one.
for (const bridge of bridges) await waitForBridge(`http://${healthAddress(bridge)}/readyz`);
await stillStarting();
// Beside the local databases (STATE_DIR): each `npm start` of its own has a balancer of its own.
const balancerDir = join(WRANGLER_STATE, "haproxy");
const statsSocket = join(balancerDir, "haproxy.sock");
if (haproxy) await startBalancer(haproxy);
await stillStarting();

const sshLine =
  bridges.length === 1
    ? `${SSH_HOST} port ${SSH_PORT}`
    : `${SSH_HOST} port ${SSH_PORT}, HAProxy in front of ${bridges.length} bridges (PROXY v2)`;
console.log(`
keyproof is running.
  Web app and API  ${workerUrl}/      (reference: ${workerUrl}/docs)
  SSH              ${sshLine}   (users run: ssh -p ${SSH_PORT} <identifier>@${SSH_HOST})
  Host keys        ${hostKeys.map((key) => `${key.algorithm} ${key.fingerprint}`).join("\n                   ")}
${bridges
  .map((bridge, i) => {
    const label = (i === 0 ? (bridges.length === 1 ? "Bridge health" : "Bridges") : "").padEnd(17);
    const address = `http://${healthAddress(bridge)}`;
    return bridges.length === 1
      ? `  ${label}${address}/readyz   (metrics: ${address}/metrics)`
      : `  ${label}${bridge.id}  pid ${bridgePids.get(bridge.id)}  ${address}/readyz   (metrics: ${address}/metrics)`;
  })
  .join("\n")}
  API key          npm run seed   (in another terminal)
Press Ctrl-C to stop.
`);
announced = true;

/**
 * The bridges to run. One: on SSH_PORT, health at HTTP_ADDRESS. Several: each on a free port of
 * its own, health at HTTP_ADDRESS's port and the ones after it.
 */
async function fleetBridges(): Promise<FleetBridge[]> {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(HTTP_ADDRESS);
  const httpHost = match?.[1] ?? match?.[2] ?? "127.0.0.1";
  const httpPort = Number(match?.[3] ?? 9464);
  const fleet: FleetBridge[] = [];
  for (let i = 0; i < BRIDGES; i++)
    fleet.push({
      id: `bridge-${i + 1}`,
      sshPort: BRIDGES === 1 ? SSH_PORT : await freePort(),
      httpHost,
      httpPort: httpPort + i,
    });
  return fleet;
}

function healthAddress(bridge: FleetBridge): string {
  const host = bridge.httpHost.includes(":") ? `[${bridge.httpHost}]` : bridge.httpHost;
  return `${host}:${bridge.httpPort}`;
}

/**
 * HAProxy on the SSH port, in the foreground under this process, with its configuration in the
 * state directory; ready once it counts every bridge up (its stats socket says so).
 */
async function startBalancer(binary: string) {
  mkdirSync(balancerDir, { recursive: true });
  const config = join(balancerDir, "haproxy.cfg");
  writeFileSync(
    config,
    haproxyConfig({ listenHost: SSH_LISTEN_HOST, listenPort: SSH_PORT, bridges, statsSocket }),
  );
  // -db: stay in the foreground; its notices (a bridge going down or up) are its only lines,
  // each once, without its pid: `haproxy Server bridges/bridge-1 is DOWN, ...`.
  start("haproxy", binary, ["-db", "-f", config], {}, (line) => `haproxy ${haproxyLine(line)}`);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    const servers = await haproxyServers(statsSocket).catch(() => new Map<string, string>());
    if (bridges.every((bridge) => servers.get(bridge.id) === "UP")) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!stopping) {
    console.error(`HAProxy did not count every bridge up within ${READY_TIMEOUT_MS / 1000} s.`);
    stop(1);
  }
}

/** HAProxy's notice as one line of ours: `[WARNING]  (123) : Server ...` is `Server ...`. */
function haproxyLine(line: string): string {
  const notice = /^\[(WARNING|NOTICE|ALERT)\]\s+\(\d+\) : (.*)$/.exec(line);
  if (!notice) return line;
  return notice[1] === "ALERT" ? `ERROR ${notice[2]}` : (notice[2] ?? "");
}

/**
 * Keeps the Worker answering: when it stops (a workerd crash wrangler could not cure), the whole
 * `wrangler dev` is started again, on the same state, and the bridge finds it by itself.
 */
function watchWorker(url: string) {
  let misses = 0;
  let restarting = false;
  const timer = setInterval(async () => {
    if (stopping || restarting) return;
    // Any answer will do (unsigned, this one is a 401): it is only whether one comes. The
    // Worker logs this path at debug level, so the check does not fill the terminal.
    const answered = await fetch(`${url}/internal/v1/health`, {
      signal: AbortSignal.timeout(WORKER_CHECK_TIMEOUT_MS),
    }).then(
      () => true,
      () => false,
    );
    misses = answered ? 0 : misses + 1;
    if (misses < WORKER_MISSES) return;
    restarting = true;
    console.error(
      `The Worker has not answered for ${(misses * WORKER_CHECK_EVERY_MS) / 1000} s; starting wrangler dev again.`,
    );
    await replace(worker);
    worker = startWorker();
    await waitForWorker(url);
    if (!stopping) console.error("The Worker answers again.");
    misses = 0;
    restarting = false;
  }, WORKER_CHECK_EVERY_MS);
  timer.unref();
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Stops `child` (its whole group) for a new one to take its place. */
async function replace(child: ChildProcess) {
  replacing.add(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  killGroup(child, "SIGTERM");
  const late = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(late);
}

async function waitForBridge(readyz: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(readyz)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function waitForWorker(url: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    // The Worker's code answers this (401 unsigned) once it runs; not logged at the info level.
    const answered = await fetch(`${url}/internal/v1/health`).then(
      (response) => response.status === 401 || response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (stopping) return;
  console.error(`The Worker did not answer at ${url} within ${READY_TIMEOUT_MS / 1000} s.`);
  stop(1);
}

/**
 * The JSON log lines of the Worker and the bridge, for a person at a terminal:
 * `12:03:04 bridge  connection closed outcome=collected ...`, one line each, errors included.
 * Other lines (wrangler's own) pass as they are; the bridge's line saying it listens is left out,
 * as the banner says so.
 */
function readableLogLine(source: string) {
  return (raw: string): string | null => {
    const plain = raw.replace(ANSI, "");
    if (WRANGLER_CHATTER.some((chatter) => chatter.test(plain))) return null;
    const line = WRANGLER_BOX.exec(plain)?.[1] ?? plain;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return raw;
    }
    if (typeof entry !== "object" || entry === null || !("msg" in entry)) return raw;
    const { level, time, msg, event: _event, stack: _stack, bridge: _bridge, ...fields } = entry;
    if (msg === "listening") return null;
    const clock = typeof time === "string" ? time.slice(11, 19) : "";
    const details = Object.entries(fields)
      .filter(([, value]) => value !== null && value !== "" && value !== 0)
      .map(
        ([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`,
      )
      .join(" ");
    return `${clock} ${source} ${level === "info" ? "" : `${String(level).toUpperCase()} `}${msg}  ${details}`;
  };
}
