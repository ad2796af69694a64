import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, Socket } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildBridge } from "../../scripts/build-bridge.ts";
import { haproxyBinary, haproxyConfig, haproxyServers } from "../../scripts/fleet.ts";
import { ROOT } from "../../scripts/local-dev.ts";
import { stopWithThisProcess } from "../../scripts/process-guard.ts";
import { freePort } from "../../test-support/local-worker.ts";
import { greets, waitForGreeting } from "../../test-support/ssh-greeting.ts";
import { UNAVAILABLE_MESSAGE } from "../../worker/src/protocol/terminal.ts";
import { apiClient } from "./helpers/api.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/**
 * The bridge as deployed: the one-file bundle, run by a plain `node` from a
 * directory with no node_modules, in front of the shared Worker.
 */

const workerUrl = inject("workerUrl");
const api = apiClient(workerUrl, inject("apiKey"));
const scratch = mkdtempSync(join(tmpdir(), "keyproof-operators-"));
let bundle: string;

/** A `node` of 20 or later that is not this repository's: the system's if there is one. */
const plainNode =
  ["/usr/bin/node", "/usr/local/bin/node"].find((path) => {
    if (!existsSync(path)) return false;
    const major = Number(
      execFileSync(path, ["--version"], { encoding: "utf8" }).slice(1).split(".")[0],
    );
    return major >= 20;
  }) ?? process.execPath;

beforeAll(async () => {
  bundle = await buildBridge(join(scratch, "keyproof-bridge.mjs"));
});

interface RunningBridge {
  child: ChildProcess;
  sshPort: number;
  http: string;
  /** Every JSON line it wrote on stdout. */
  lines: Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** The bundle, run as an operator would, with `env` on top of working settings. */
async function runBundle(env: Record<string, string> = {}, waitUntilListening = true) {
  const sshPort = await freePort();
  const httpPort = await freePort();
  // Only what an operator's unit file would set: nothing of this repository's environment.
  const settings: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    WORKER_URL: workerUrl,
    BRIDGE_SECRET: inject("bridgeSecret"),
    SSH_PORT: String(sshPort),
    SSH_LISTEN_HOST: "127.0.0.1",
    HTTP_ADDRESS: `127.0.0.1:${httpPort}`,
    HOST_KEY_DIR: inject("hostKeyDir"),
    CONNECTIONS_PER_ADDRESS_PER_MINUTE: "100000",
    ...env,
  };
  const child = spawn(plainNode, [bundle], {
    cwd: scratch,
    env: settings as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  stopWithThisProcess(child, { group: false });
  const lines: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr?.on("data", (data) => (stderr += data));
  if (child.stdout)
    createInterface({ input: child.stdout }).on("line", (line) =>
      lines.push(JSON.parse(line) as Record<string, unknown>),
    );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const bridge: RunningBridge = {
    child,
    sshPort,
    http: `http://127.0.0.1:${httpPort}`,
    lines,
    stderr: () => stderr,
    exited,
  };
  if (waitUntilListening) await waitForGreeting(sshPort, 20_000);
  return bridge;
}

const running: RunningBridge[] = [];
async function startBundle(env: Record<string, string> = {}) {
  const bridge = await runBundle(env);
  running.push(bridge);
  return bridge;
}
afterAll(() => {
  for (const bridge of running) bridge.child.kill("SIGKILL");
});

/** One sample of `name{labels}` in a Prometheus text exposition; 0 when absent. */
/**
 * A series' value: `name` with at least `labels` (`{outcome="collected"}`); every series also
 * carries the bridge's own `bridge` label.
 */
function sample(text: string, name: string, labels = ""): number {
  const wanted = labels
    .replace(/^\{|\}$/g, "")
    .split(",")
    .filter(Boolean);
  const line = text.split("\n").find((entry) => {
    const match = /^([a-z_]+)(?:\{(.*)\})? /.exec(entry);
    const present = (match?.[2] ?? "").split(",");
    return match?.[1] === name && wanted.every((pair) => present.includes(pair));
  });
  return Number(line?.split(" ").at(-1) ?? 0);
}

const readyz = async (bridge: RunningBridge) => (await fetch(`${bridge.http}/readyz`)).status;

/** Until the proof page says the user is at the confirmation prompt. */
async function atPrompt(identifier: string) {
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${workerUrl}/p/${identifier}/status`)).json()) as { state: string })
          .state,
      { timeout: 15_000 },
    )
    .toBe("confirming");
}

describe("the bundle", () => {
  it("runs with a plain node and no node_modules, and logs JSON lines", async () => {
    expect(existsSync(join(scratch, "node_modules"))).toBe(false);
    const bridge = await startBundle();
    expect((await fetch(`${bridge.http}/healthz`)).status).toBe(200);
    const listening = bridge.lines.find((line) => line.msg === "listening");
    expect(listening).toMatchObject({ level: "info", address: `127.0.0.1:${bridge.sshPort}` });
    expect(Date.parse(String(listening?.time))).not.toBeNaN();
  });
});

describe("metrics", () => {
  it("move after a real ssh proof, with label values from fixed sets only", async () => {
    const bridge = await startBundle();
    const before = await (await fetch(`${bridge.http}/metrics`)).text();
    const session = await api.createSession("collect");
    const result = await runSsh({
      port: bridge.sshPort,
      user: session.connection_identifier,
      keys: [makeKey()],
    });
    expect(result.stdout).toContain("Collected 1 key");
    await expect
      .poll(async () => {
        const after = await (await fetch(`${bridge.http}/metrics`)).text();
        return sample(after, "keyproof_bridge_connections_total", '{outcome="collected"}');
      })
      .toBe(sample(before, "keyproof_bridge_connections_total", '{outcome="collected"}') + 1);
    const after = await (await fetch(`${bridge.http}/metrics`)).text();
    const moved = (name: string, labels = "") =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved("keyproof_bridge_key_proofs_total", '{result="proven"}')).toBe(1);
    expect(moved("keyproof_bridge_login_duration_seconds_count")).toBe(1);
    for (const endpoint of ["open", "finish"])
      expect(
        moved("keyproof_bridge_worker_request_duration_seconds_count", `{endpoint="${endpoint}"}`),
      ).toBe(1);
    expect(sample(after, "keyproof_bridge_worker_errors_total", '{endpoint="open"}')).toBe(0);
    expect(sample(after, "keyproof_bridge_connections_active")).toBe(0);
    expect(after).toContain("process_resident_memory_bytes");
    expect(after).not.toContain(session.connection_identifier);
    expect(after).not.toContain("127.0.0.1");
    // Which bridge of a fleet: its BRIDGE_ID (the host name by default) labels every series.
    expect(after).toContain(`keyproof_bridge_connections_active{bridge="${hostname()}"} 0`);

    // The connection's line carries the id its Worker calls were made under.
    const line = bridge.lines.find((entry) => entry.identifier === session.connection_identifier);
    expect(line).toMatchObject({ level: "info", msg: "connection closed", outcome: "collected" });
    expect(line?.request_id).toMatch(/^[0-9a-f]{16}$/);
    expect(line?.error).toBeNull();
  });
});

/** A TCP forwarder to the Worker that can be stopped and started again on the same port. */
async function workerProxy() {
  const target = new URL(workerUrl);
  const port = await freePort();
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client);
        sockets.add(upstream);
        upstream.connect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server ? server.close(() => resolve()) : resolve();
    });
  await start();
  return { url: `http://127.0.0.1:${port}`, start, stop };
}

describe("readiness", () => {
  it("goes 503 when the Worker stops answering and back to 200 when it returns", async () => {
    const proxy = await workerProxy();
    const bridge = await startBundle({ WORKER_URL: proxy.url });
    await expect.poll(() => readyz(bridge), { timeout: 10_000 }).toBe(200);
    await proxy.stop();
    await expect.poll(() => readyz(bridge), { timeout: 12_000 }).toBe(503);
    const body = await (await fetch(`${bridge.http}/readyz`)).text();
    expect(body).toMatch(/^not ready: cannot reach the Worker: Worker unreachable/);
    expect((await fetch(`${bridge.http}/healthz`)).status).toBe(200);
    await proxy.start();
    await expect.poll(() => readyz(bridge), { timeout: 12_000 }).toBe(200);
    const metrics = await (await fetch(`${bridge.http}/metrics`)).text();
    expect(
      sample(metrics, "keyproof_bridge_worker_errors_total", '{endpoint="health"}'),
    ).toBeGreaterThan(0);
    await proxy.stop();
  }, 45_000);
});

describe("behind HAProxy while no bridge can reach the Worker", () => {
  it("still gives ssh users the bridge's sentence that the service is away", async () => {
    const haproxy = haproxyBinary();
    expect(haproxy, "HAProxy must be installed (.ci/run installs it)").not.toBeNull();
    const proxy = await workerProxy();
    // As `BRIDGES=2 npm start` runs its bridges: each believes the balancer's PROXY header.
    // (It greets no one before their PROXY header: its health port says when it is up.)
    const bridge = await runBundle(
      { WORKER_URL: proxy.url, PROXY_PROTOCOL: "true", PROXY_PROTOCOL_TRUSTED: "127.0.0.1" },
      false,
    );
    running.push(bridge);
    await proxy.stop();
    await expect.poll(() => readyz(bridge), { timeout: 12_000 }).toBe(503);
    const dir = mkdtempSync(join(tmpdir(), "keyproof-balancer-"));
    const statsSocket = join(dir, "haproxy.sock");
    const listenPort = await freePort();
    const config = join(dir, "haproxy.cfg");
    const http = new URL(bridge.http);
    writeFileSync(
      config,
      haproxyConfig({
        listenHost: "127.0.0.1",
        listenPort,
        statsSocket,
        bridges: [
          {
            id: "bridge-1",
            sshPort: bridge.sshPort,
            httpHost: http.hostname,
            httpPort: Number(http.port),
          },
        ],
      }),
    );
    const balancer = spawn(haproxy ?? "haproxy", ["-db", "-f", config], { stdio: "ignore" });
    stopWithThisProcess(balancer, { group: false });
    try {
      // The balancer has counted the bridge out (not ready) before the user comes.
      await expect
        .poll(
          async () => (await haproxyServers(statsSocket).catch(() => new Map())).get("bridge-1"),
          { timeout: 10_000 },
        )
        .toBe("DOWN");
      const result = await runSsh({ port: listenPort, user: "0".repeat(26), keys: [makeKey()] });
      expect(`${result.stdout}${result.stderr}`).toContain(UNAVAILABLE_MESSAGE);
    } finally {
      balancer.kill("SIGKILL");
    }
  }, 45_000);
});

describe("draining", () => {
  const prover = makeKey();

  it("on SIGTERM: not ready at once, no new connections, and the user at the prompt can still say y", async () => {
    const bridge = await runBundle();
    const session = await api.createSession("collect", { must_confirm: true });
    const user = runSsh({
      port: bridge.sshPort,
      user: session.connection_identifier,
      keys: [makeKey()],
      input: "y\n",
      inputDelayMs: 6_000,
      timeoutMs: 30_000,
    });
    await atPrompt(session.connection_identifier);
    expect(await readyz(bridge)).toBe(200);
    bridge.child.kill("SIGTERM");
    await expect.poll(() => readyz(bridge), { timeout: 2_000, interval: 50 }).toBe(503);
    expect(await (await fetch(`${bridge.http}/readyz`)).text()).toContain("draining");
    expect(await greets(bridge.sshPort)).toBe(false);
    const result = await user;
    expect(result.stdout).toContain("Collected 1 key");
    expect((await api.getSession("collect", session.id)).status).toBe("completed");
    expect(await bridge.exited).toBe(0);
    expect(bridge.lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["draining", "connection closed", "stopped"]),
    );
  }, 45_000);

  it("a second signal tells whoever is left and ends at once, recorded as the interruption it was", async () => {
    const bridge = await runBundle();
    const session = await api.createSession("verify", {
      must_confirm: true,
      keys: [{ public_key: prover.publicKey }],
      max_attempts: 2,
    });
    const user = runSsh({
      port: bridge.sshPort,
      user: session.connection_identifier,
      keys: [prover],
      silent: true,
      timeoutMs: 30_000,
    });
    await atPrompt(session.connection_identifier);
    bridge.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = Date.now();
    bridge.child.kill("SIGINT");
    expect(await bridge.exited).toBe(0);
    expect(Date.now() - second).toBeLessThan(5_000);
    // The sentence stands on its own line, not after the prompt's question.
    const lines = (await user).stdout.split(/\r?\n/);
    expect(lines).toContain("keyproof is restarting; please connect again.");
    // The user never answered: not a decline, not an attempt; an event says what happened.
    const after = await api.getSession("verify", session.id);
    expect(after.connections[0]).toMatchObject({ outcome: "interrupted", confirmed: false });
    expect(after).toMatchObject({ status: "pending", failed_attempts: 0 });
    const eventTypes = async () =>
      (
        await api.request<{ items: { type: string }[] }>("GET", `/events/?session_id=${session.id}`)
      ).items.map((event) => event.type);
    await expect.poll(eventTypes).toContain("connection_interrupted");
    // The log line (and the metric, labelled alike) says interrupted, not declined.
    expect(bridge.lines.find((line) => line.msg === "connection closed")).toMatchObject({
      outcome: "interrupted",
    });
  }, 45_000);
});

describe("settings", () => {
  it.each([
    ["HTTP_ADDRESS", "localhost"],
    ["HTTP_ADDRESS", "127.0.0.1:99999"],
    ["HTTP_ADDRESS", "http://127.0.0.1:9464"],
    ["LOG_LEVEL", "loud"],
    ["DRAIN_SECONDS", "soon"],
    ["DRAIN_SECONDS", "-5"],
    ["DRAIN_SECONDS", "1.5"],
  ])(
    "a malformed %s (%s) stops the bridge at start with a sentence naming it",
    async (name, value) => {
      const bridge = await runBundle({ [name]: value }, false);
      expect(await bridge.exited).toBe(2);
      expect(bridge.stderr()).toMatch(new RegExp(`^keyproof bridge: ${name} must be`));
      expect(bridge.stderr()).toContain(value);
      expect(bridge.lines).toEqual([]);
    },
  );
});

describe("the systemd unit", () => {
  const unit = join(ROOT, "deploy", "keyproof-bridge.service");
  const text = readFileSync(unit, "utf8");

  it("is hardened, and drains longer than DRAIN_SECONDS before systemd kills it", () => {
    for (const directive of [
      "ProtectSystem=strict",
      "ProtectHome=true",
      "PrivateDevices=true",
      "ProtectKernelTunables=true",
      "ProtectKernelModules=true",
      "ProtectKernelLogs=true",
      "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
      "RestrictNamespaces=true",
      "SystemCallFilter=@system-service",
      "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
      "NoNewPrivileges=true",
    ])
      expect(text).toContain(`\n${directive}\n`);
    expect(text).not.toMatch(/^MemoryDenyWriteExecute=/m);
    const drain = Number(/^Environment=DRAIN_SECONDS=(\d+)$/m.exec(text)?.[1]);
    const notice = Number(/^Environment=DRAIN_NOTICE_SECONDS=(\d+)$/m.exec(text)?.[1]);
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1]);
    expect(drain).toBe(180);
    // The balancer's turn (deploy/haproxy.cfg takes a bridge out in 2 s), then the drain.
    expect(notice).toBeGreaterThanOrEqual(2);
    expect(stop).toBeGreaterThan(notice + drain);
    expect(text).toMatch(/^ExecStart=\/usr\/bin\/node .*keyproof-bridge\.mjs$/m);
  });

  const analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find(existsSync);
  it.runIf(analyze)("passes systemd-analyze verify", () => {
    const result = spawnSync(analyze ?? "", ["verify", unit], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
