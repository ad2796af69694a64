/**
 * `npm start`: applies local migrations, then runs the Worker (wrangler dev) and the SSH bridge
 * together — or, with BRIDGES=n, n bridges behind HAProxy on the SSH port (scripts/fleet.ts).
 * Ctrl-C stops everything.
 */
import { join } from "node:path";
import {
  fingerprintSetting,
  HostKeyError,
  loadOrCreateHostKeys,
} from "../ssh-bridge/src/server-keys.ts";
import { buildBridge } from "./build-bridge.ts";
import {
  fleetBridges,
  HAPROXY_MISSING,
  haproxyBinary,
  healthAddress,
  LOCAL_DRAIN_NOTICE_SECONDS,
  startBalancer,
} from "./fleet.ts";
import {
  applyLocalMigrations,
  BIN,
  BRIDGE_NODE_ENV,
  bindable,
  bridgeCommand,
  claimStateDir,
  ensureDevVars,
  ensureLocalStateDir,
  LocalDatabaseBusyError,
  nodeVersionCheck,
  noteStateFromBefore,
  runScheduledEvery,
  StateDirTakenError,
  WRANGLER_STATE,
} from "./local-dev.ts";
import { readableLogLine } from "./start-log.ts";
import { Supervisor } from "./start-supervisor.ts";

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
/** How long a port this start needs may stay taken before it says so. */
const PORT_PATIENCE_MS = 8_000;

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
await checkPortsFree();
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

const supervisor = new Supervisor();
process.on("SIGINT", () => supervisor.stop(0));
process.on("SIGTERM", () => supervisor.stop(0));

const startWorker = () =>
  supervisor.start({
    name: "wrangler dev",
    command: join(BIN, "wrangler"),
    args: [
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
    ],
    // No banner and no update notice; no network needed for the placeholder `request.cf`.
    env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" },
    readable: readableLogLine("worker"),
  });
// wrangler bundles the Worker and starts workerd: seconds, up to a minute on a first start or a
// busy machine. Said, so the wait is not a silence.
console.log("Starting the Worker (wrangler dev): up to a minute the first time…");
let worker = startWorker();

const workerUrl = `http://localhost:${HTTP_PORT}`;
await waitForWorker(workerUrl);
await supervisor.stillStarting();
watchWorker(workerUrl);
// wrangler.toml's cron trigger (every minute): sends webhook deliveries whose queue message was lost,
// and erases the closed sessions past their project's retention.
runScheduledEvery(workerUrl, CRON_EVERY_MS);

// The bridge runs as deployed: the one-file bundle, built now from the source. One bridge listens
// on the SSH port itself; a fleet listens on ports of its own, behind HAProxy on the SSH port.
await buildBridge();
await supervisor.stillStarting();
const bridges = await fleetBridges(BRIDGES, SSH_PORT, HTTP_ADDRESS);
const SSH_LISTEN_HOST = process.env.SSH_LISTEN_HOST ?? "127.0.0.1";
const bridgePids = new Map<string, number | undefined>();
for (const bridge of bridges) {
  const child = supervisor.start({
    name: bridges.length === 1 ? "ssh-bridge" : bridge.id,
    command: bridgeCommand()[0],
    args: bridgeCommand()[1],
    env: {
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
    readable: readableLogLine(bridges.length === 1 ? "bridge" : bridge.id),
    restartable: true,
  });
  bridgePids.set(bridge.id, child.pid);
}
// Asked over HTTP: a probe of the SSH port would be a connection of its own, logged as one.
for (const bridge of bridges) await waitForBridge(`http://${healthAddress(bridge)}/readyz`);
await supervisor.stillStarting();
if (haproxy)
  // Beside the local databases (STATE_DIR): each `npm start` of its own has a balancer of its own.
  await startBalancer(supervisor, haproxy, {
    dir: join(WRANGLER_STATE, "haproxy"),
    listenHost: SSH_LISTEN_HOST,
    listenPort: SSH_PORT,
    bridges,
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
await supervisor.stillStarting();

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
supervisor.announced = true;

/**
 * Every port this start listens on is free: else one line names it and what to do, and nothing
 * is started (wrangler would fail later, after the bridges and the banner, in its own words).
 */
async function checkPortsFree() {
  const httpPort = Number(/:(\d+)$/.exec(HTTP_ADDRESS)?.[1] ?? 9464);
  const ports: [number, string][] = [
    [HTTP_PORT, "the Worker's port (PORT)"],
    [SSH_PORT, "the SSH port (SSH_PORT)"],
    ...Array.from({ length: BRIDGES }, (_, i): [number, string] => [
      httpPort + i,
      `${BRIDGES === 1 ? "the bridge's" : `bridge-${i + 1}'s`} health port (HTTP_ADDRESS${i > 0 ? ` + ${i}` : ""})`,
    ]),
  ];
  for (const [port, what] of ports) {
    // An npm start killed a moment ago still holds its ports until its guards have stopped its
    // parts (process-guard.ts): a few seconds, waited for.
    const deadline = Date.now() + PORT_PATIENCE_MS;
    while (!(await bindable(port)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    if (await bindable(port)) continue;
    console.error(
      `keyproof cannot start: ${what}, ${port}, is taken by another process (another npm start?). Stop it, or give this one another: PORT=8788 SSH_PORT=2223 HTTP_ADDRESS=127.0.0.1:9474 npm start`,
    );
    process.exit(1);
  }
}

/**
 * Keeps the Worker answering: when it stops (a workerd crash wrangler could not cure), the whole
 * `wrangler dev` is started again, on the same state, and the bridge finds it by itself.
 */
function watchWorker(url: string) {
  let misses = 0;
  let restarting = false;
  const timer = setInterval(async () => {
    if (supervisor.stopping || restarting) return;
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
    await supervisor.replace(worker);
    // Its workerd may hold the port a moment after wrangler itself has gone: a new wrangler
    // started at once found it taken and stopped everything.
    const deadline = Date.now() + PORT_PATIENCE_MS;
    while (!(await bindable(HTTP_PORT)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    worker = startWorker();
    await waitForWorker(url);
    if (!supervisor.stopping) console.error("The Worker answers again.");
    misses = 0;
    restarting = false;
  }, WORKER_CHECK_EVERY_MS);
  timer.unref();
}

async function waitForBridge(readyz: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !supervisor.stopping) {
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
  while (Date.now() < deadline && !supervisor.stopping) {
    // The Worker's code answers this (401 unsigned) once it runs; not logged at the info level.
    const answered = await fetch(`${url}/internal/v1/health`).then(
      (response) => response.status === 401 || response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (supervisor.stopping) return;
  console.error(`The Worker did not answer at ${url} within ${READY_TIMEOUT_MS / 1000} s.`);
  supervisor.stop(1);
}
