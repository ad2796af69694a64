/**
 * SSH proof throughput and latency: keyproof's bridge (a full collection proof, the result read
 * back through the API) against OpenSSH's sshd accepting the same public-key logins.
 *   node bench/ssh-proofs.ts [total] [concurrency] [runs]
 */
import { execFileSync } from "node:child_process";
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

async function measure(target: Target, total: number, concurrency: number, privateKey: string) {
  // The creates' pushes to D1 and the last run's tail are done before either server is timed.
  await quiet(() => [...target.pids(), ...pidsMatching("workerd")]);
  const cpuBefore = target.pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const clientBefore = process.cpuUsage();
  // Per process, and only those alive at both ends: a workerd that exits mid-run (another
  // wrangler on the machine) would otherwise subtract its whole life from the figure.
  const workerdBefore = new Map(pidsMatching("workerd").map((pid) => [pid, cpuSeconds(pid)]));
  const started = performance.now();
  const latencies = await loop(total, concurrency, async (i) => {
    await login(target, i, privateKey);
    await target.after?.(i);
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = target.pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const workerd = pidsMatching("workerd").reduce((sum, pid) => {
    const before = workerdBefore.get(pid);
    return before === undefined ? sum : sum + cpuSeconds(pid) - before;
  }, 0);
  return {
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsEach: (cpu * 1000) / total,
    clientCpuMsEach: (client.user + client.system) / 1000 / total,
    workerdCpuMsEach: (workerd * 1000) / total,
  };
}

export async function runSshProofBench(total = 300, concurrency = 16, runs = 3, write = true) {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-bench-ssh-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "user_key")]);
  const privateKey = readFileSync(join(dir, "user_key"), "utf8");
  const publicKey = readFileSync(join(dir, "user_key.pub"), "utf8").trim();
  const worker = await startLocalWorker();
  const { apiKey } = await seedProject(worker);
  const bridgePort = await freePort();
  const bridge = await spawnBridge(worker, {
    port: bridgePort,
    hostKeyDir: join(dir, "bridge-keys"),
  });
  await waitForGreeting(bridgePort);
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
    for (let run = 0; run < runs; run++) {
      const sessions = await Promise.all(
        Array.from(
          { length: total },
          async () =>
            (await (
              await api("/ssh/collect/sessions/", { method: "POST", body: "{}" })
            ).json()) as { id: string; connection_identifier: string },
        ),
      );
      results.bridge.push(
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
          total,
          concurrency,
          privateKey,
        ),
      );
      results.sshd.push(
        await measure(
          {
            name: "sshd",
            port: sshdPort,
            pids: () => [sshd.process.pid ?? 0],
            user: () => "root",
            run: (client, done) =>
              client.exec("true", (error, stream) =>
                error ? done() : stream.on("close", done).resume(),
              ),
          },
          total,
          concurrency,
          privateKey,
        ),
      );
    }
    const workerdCpu = pidsMatching("workerd").length;
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
    const markdown = `## 1. SSH proofs: bridge against sshd

\`node bench/ssh-proofs.ts ${total} ${concurrency} ${runs}\` — ${total} logins per run, ${concurrency} at a time, ${runs} runs. The clients are \`ssh2\` in one Node process on TCP_NODELAY sockets, the same for both servers. A bridge login is a full collection proof (key exchange, unsigned query, signed proof, result on the terminal) followed by a GET that reads the completed session from the API; an sshd login is public-key authentication and \`exec true\`. CPU is from \`/proc\`: the bridge process, or sshd with every child it forked. Each server is timed from a quiet machine: the Worker and the server under 5 % of a core (the ${total} creates' pushes to D1 done). Median (min–max) over runs.

${table(["Server", "logins/s", "p50 ms", "p99 ms", "CPU ms per login"], rows)}

Ratio bridge/sshd: **${ratio("perSecond")}×** logins per second, **${ratio("cpuMsEach")}×** CPU per login for the SSH server alone (the bridge's Worker calls ran in ${workerdCpu} local workerd processes, counted separately above).
Machine: ${machine()}.`;
    if (write) writeSection("ssh-proofs", markdown);
    return { results, markdown };
  } finally {
    bridge.kill("SIGTERM");
    sshd.stop();
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runSshProofBench(...args)).markdown);
