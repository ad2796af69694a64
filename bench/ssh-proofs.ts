/**
 * SSH proof throughput and latency: keyproof's bridge (a full collection proof, the result read
 * back through the API) against OpenSSH's sshd accepting the same public-key logins, with `ssh2`
 * clients in this process or (`openssh`) a real `ssh` process a login.
 *   node bench/ssh-proofs.ts [total] [concurrency] [runs] [openssh]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { waitForGreeting } from "../test-support/ssh-greeting.ts";
import { startSshd } from "../test-support/sshd.ts";
import {
  cpuSeconds,
  loop,
  machine,
  percentile,
  pidsMatching,
  quiet,
  scriptArgs,
  spawnBridge,
  sshArgs,
  summary,
  table,
  writeSection,
} from "./lib.ts";

interface Target {
  name: string;
  port: number;
  pids: () => number[];
  /** One login: what the client does once authenticated. */
  run: (client: ssh2.Client, done: () => void) => void;
  /** What a real `ssh` asks to run (none: a shell). */
  command?: string;
  user: (i: number) => string;
  after?: (i: number) => Promise<void>;
}

/** One login with an `ssh2` client on a TCP_NODELAY socket (as interactive SSH clients use). */
function login(target: Target, i: number, privateKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = connect(target.port, "127.0.0.1");
    sock.setNoDelay(true);
    const client = new ssh2.Client();
    client
      .on("ready", () => target.run(client, () => client.end()))
      .on("keyboard-interactive", (_n, _i, _l, _p, finish) => finish([]))
      .on("close", () => resolve())
      .on("error", reject)
      .connect({
        sock,
        username: target.user(i),
        privateKey,
        tryKeyboard: true,
        readyTimeout: 30_000,
      });
  });
}

/** One login with OpenSSH's client, a process of its own, as a user runs it. */
function opensshLogin(target: Target, i: number, keyPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = [
      ...sshArgs(target.port, keyPath, target.user(i)),
      ...(target.command ? [target.command] : []),
    ];
    const child = spawn("ssh", args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`ssh to ${target.name}: ${code} ${stderr.slice(0, 200)}`)),
    );
  });
}

type Clients = "ssh2" | "openssh";

/** Logins each server takes, uncounted, before the timed runs. */
const WARM_UP_LOGINS = 50;

async function measure(
  target: Target,
  total: number,
  concurrency: number,
  key: { privateKey: string; path: string },
  clients: Clients,
  workerPids: number[],
) {
  // The creates' pushes to D1 and the last run's tail are done before either server is timed
  // (this bench's own workerd: another's on the machine is not waited for).
  await quiet(() => [...target.pids(), ...workerPids]);
  const cpuBefore = target.pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const clientBefore = process.cpuUsage();
  // This bench's own workerd (others may run on the machine: tests beside a smoke run).
  const workerdBefore = new Map(workerPids.map((pid) => [pid, cpuSeconds(pid)]));
  const started = performance.now();
  const latencies = await loop(total, concurrency, async (i) => {
    if (clients === "openssh") await opensshLogin(target, i, key.path);
    else await login(target, i, key.privateKey);
    await target.after?.(i);
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = target.pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const workerd = workerPids.reduce(
    (sum, pid) => sum + cpuSeconds(pid) - (workerdBefore.get(pid) ?? 0),
    0,
  );
  return {
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsEach: (cpu * 1000) / total,
    clientCpuMsEach: (client.user + client.system) / 1000 / total,
    workerdCpuMsEach: (workerd * 1000) / total,
  };
}

export async function runSshProofBench(
  total = 300,
  concurrency = 16,
  runs = 3,
  write = true,
  clients: Clients = "ssh2",
) {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-bench-ssh-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "user_key")]);
  const key = {
    path: join(dir, "user_key"),
    privateKey: readFileSync(join(dir, "user_key"), "utf8"),
  };
  const publicKey = readFileSync(join(dir, "user_key.pub"), "utf8").trim();
  const worker = await startLocalWorker();
  const { apiKey } = await seedProject(worker);
  const bridgePort = await freePort();
  const bridge = await spawnBridge(worker, {
    port: bridgePort,
    hostKeyDir: join(dir, "bridge-keys"),
  });
  await waitForGreeting(bridgePort);
  const workerPids = pidsMatching(`workerd serve.*127.0.0.1:${worker.port}`);
  const sshdPort = await freePort();
  const sshd = await startSshd({ dir, port: sshdPort, authorizedKeys: [publicKey] });
  const api = (path: string, init?: RequestInit) =>
    fetch(`${worker.url}/api/v1${path}`, {
      ...init,
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
    });
  try {
    const results = {
      bridge: [] as Awaited<ReturnType<typeof measure>>[],
      sshd: [] as Awaited<ReturnType<typeof measure>>[],
    };
    // Run -1 warms both servers up (the Worker's isolate and objects, the bridge's and sshd's
    // first logins) and is not counted: the first timed run had been the bridge's slowest by 40 %.
    for (let run = -1; run < runs; run++) {
      const counted = run >= 0 ? results : { bridge: [], sshd: [] };
      const logins = run >= 0 ? total : Math.min(total, WARM_UP_LOGINS);
      const sessions = await Promise.all(
        Array.from(
          { length: logins },
          async () =>
            (await (
              await api("/ssh/collect/sessions/", { method: "POST", body: "{}" })
            ).json()) as { id: string; connection_identifier: string },
        ),
      );
      counted.bridge.push(
        await measure(
          {
            name: "bridge",
            port: bridgePort,
            pids: () => [bridge.pid ?? 0],
            user: (i) => sessions[i]?.connection_identifier ?? "",
            run: (client, done) =>
              client.shell(false, (error, stream) =>
                error ? done() : stream.on("close", done).resume(),
              ),
            after: async (i) => {
              const session = (await (
                await api(`/ssh/collect/sessions/${sessions[i]?.id}/`)
              ).json()) as { status: string };
              if (session.status !== "completed")
                throw new Error(`session ${sessions[i]?.id} is ${session.status}`);
            },
          },
          logins,
          concurrency,
          key,
          clients,
          workerPids,
        ),
      );
      counted.sshd.push(
        await measure(
          {
            name: "sshd",
            port: sshdPort,
            pids: () => [sshd.process.pid ?? 0],
            user: () => "root",
            command: "true",
            run: (client, done) =>
              client.exec("true", (error, stream) =>
                error ? done() : stream.on("close", done).resume(),
              ),
          },
          logins,
          concurrency,
          key,
          clients,
          workerPids,
        ),
      );
    }
    const workerdCpu = workerPids.length;
    const pick = (list: typeof results.bridge, field: keyof (typeof list)[number]) =>
      list.map((item) => item[field]);
    const cpuCell = (list: typeof results.bridge) =>
      `${summary(pick(list, "cpuMsEach"), 1)} (+ Worker ${summary(pick(list, "workerdCpuMsEach"), 1)})`;
    const rows = [
      [
        "keyproof bridge (proof + result via API)",
        summary(pick(results.bridge, "perSecond")),
        summary(pick(results.bridge, "p50")),
        summary(pick(results.bridge, "p99")),
        cpuCell(results.bridge),
      ],
      [
        "OpenSSH sshd (publickey login + `true`)",
        summary(pick(results.sshd, "perSecond")),
        summary(pick(results.sshd, "p50")),
        summary(pick(results.sshd, "p99")),
        summary(pick(results.sshd, "cpuMsEach"), 1),
      ],
    ];
    const ratio = (field: "perSecond" | "cpuMsEach") =>
      (
        pick(results.bridge, field).reduce((a, b) => a + b, 0) /
        pick(results.sshd, field).reduce((a, b) => a + b, 0)
      ).toFixed(2);
    const clientsAre =
      clients === "openssh"
        ? "The clients are OpenSSH's `ssh`, one process a login (as `bench/lib.ts`'s `sshArgs`), the same for both servers: their CPU is on the same two cores."
        : "The clients are `ssh2` in one Node process on TCP_NODELAY sockets, the same for both servers.";
    const markdown = `## ${clients === "openssh" ? "1b. SSH proofs with OpenSSH's own client" : "1. SSH proofs: bridge against sshd"}

\`node bench/ssh-proofs.ts ${total} ${concurrency} ${runs}${clients === "openssh" ? " openssh" : ""}\` — ${total} logins per run, ${concurrency} at a time, ${runs} runs. ${clientsAre} A bridge login is a full collection proof (key exchange, unsigned query, signed proof, result on the terminal) followed by a GET that reads the completed session from the API; an sshd login is public-key authentication and \`exec true\`. CPU is from \`/proc\`: the bridge process, or sshd with every child it forked. Each server first takes ${Math.min(total, WARM_UP_LOGINS)} logins that are not counted, and is timed from a quiet machine: the Worker and the server under 5 % of a core (the ${total} creates' pushes to D1 done). Median (min–max) over runs.

${table(["Server", "logins/s", "p50 ms", "p99 ms", "CPU ms per login"], rows)}

Ratio bridge/sshd: **${ratio("perSecond")}×** logins per second, **${ratio("cpuMsEach")}×** CPU per login for the SSH server alone (the bridge's Worker calls ran in ${workerdCpu} local workerd processes, counted separately above).
Machine: ${machine()}.`;
    if (write) writeSection(clients === "openssh" ? "ssh-proofs-openssh" : "ssh-proofs", markdown);
    return { results, markdown };
  } finally {
    bridge.kill("SIGTERM");
    sshd.stop();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [total, concurrency, runs] = args;
  const clients = process.argv.includes("openssh") ? "openssh" : "ssh2";
  console.log((await runSshProofBench(total, concurrency, runs, true, clients)).markdown);
}
