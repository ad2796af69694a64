/**
 * Bridge memory with many idle connections (each authenticated and waiting at the must_confirm
 * prompt), and what happens at the connection cap.
 *   node bench/bridge-memory.ts [connections] [runs]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { greets, waitForGreeting } from "../test-support/ssh-greeting.ts";
import { emptyNodeRss, HEAP_SNAPSHOT_OPTIONS, heapBreakdown } from "./heap-breakdown.ts";
import {
  machine,
  rssMegabytes,
  scriptArgs,
  spawnBridge,
  summary,
  table,
  writeSection,
} from "./lib.ts";

/** Opens one authenticated connection that stays at the confirmation prompt. */
function idleClient(port: number, username: string, privateKey: string): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on("ready", () =>
        client.shell(false, (error, stream) => {
          if (error) return reject(error);
          stream.once("data", () => resolve(client));
        }),
      )
      .on("keyboard-interactive", (_n, _i, _l, _p, finish) => finish([]))
      .on("error", reject)
      .connect({
        host: "127.0.0.1",
        port,
        username,
        privateKey,
        tryKeyboard: true,
        readyTimeout: 60_000,
      });
  });
}

/** `count` idle clients on `port`, opened 50 at a time. */
async function idleClients(port: number, identifier: string, privateKey: string, count: number) {
  const clients: ssh2.Client[] = [];
  for (let start = 0; start < count; start += 50) {
    const batch = Math.min(50, count - start);
    clients.push(
      ...(await Promise.all(
        Array.from({ length: batch }, () => idleClient(port, identifier, privateKey)),
      )),
    );
  }
  return clients;
}

export async function runBridgeMemoryBench(connections = 1000, runs = 3, write = true) {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-bench-mem-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "user_key")]);
  const privateKey = readFileSync(join(dir, "user_key"), "utf8");
  const worker = await startLocalWorker();
  const { apiKey } = await seedProject(worker);
  const perRun: {
    baseline: number;
    loaded: number;
    perConnectionKb: number;
    capRefused: boolean;
  }[] = [];
  /** A bridge with one session to wait in, greeting on its port. */
  const start = async (env: Record<string, string> = {}) => {
    const port = await freePort();
    const bridge = await spawnBridge(worker, {
      port,
      hostKeyDir: join(dir, "bridge-keys"),
      env: { MAX_CONNECTIONS: String(connections), ...env },
    });
    const session = (await (
      await fetch(`${worker.url}/api/v1/ssh/collect/sessions/`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify({ multi_connection: true, must_confirm: true, timeout: 3600 }),
      })
    ).json()) as { connection_identifier: string };
    await waitForGreeting(port);
    const load = () => idleClients(port, session.connection_identifier, privateKey, connections);
    const stop = async (clients: ssh2.Client[]) => {
      for (const client of clients) client.end();
      bridge.kill("SIGTERM");
      await new Promise((resolve) => bridge.once("exit", resolve));
    };
    return { port, pid: bridge.pid ?? 0, load, stop };
  };
  try {
    for (let run = 0; run < runs; run++) {
      const { port, pid, load, stop } = await start();
      const baseline = rssMegabytes(pid);
      const clients = await load();
      const loaded = rssMegabytes(pid);
      const capRefused = !(await greets(port));
      perRun.push({
        baseline,
        loaded,
        perConnectionKb: ((loaded - baseline) * 1024) / connections,
        capRefused,
      });
      await stop(clients);
    }
    // What the memory is made of, from a run of its own (a snapshot leaves the process larger).
    const snapshotting = await start({ NODE_OPTIONS: HEAP_SNAPSHOT_OPTIONS });
    const atRest = await heapBreakdown(snapshotting.pid, process.cwd());
    const clients = await snapshotting.load();
    const withConnections = await heapBreakdown(snapshotting.pid, process.cwd());
    await snapshotting.stop(clients);
    const emptyNode = await emptyNodeRss();
    const kinds = [
      ...new Set([...Object.keys(atRest.kinds), ...Object.keys(withConnections.kinds)]),
    ];
    const markdown = `## 4. Bridge memory with ${connections} idle connections

\`node bench/bridge-memory.ts ${connections} ${runs}\` — ${connections} \`ssh2\` clients each prove a key and sit at the \`must_confirm\` prompt; RSS of the bridge process from \`/proc\`. The bridge runs with \`MAX_CONNECTIONS=${connections}\`, so one more connection meets the cap. Median (min–max) over runs.

${table(["RSS idle MB", `RSS with ${connections} connections MB`, "KB per connection", "connection past the cap"], [[summary(perRun.map((r) => r.baseline)), summary(perRun.map((r) => r.loaded)), summary(perRun.map((r) => r.perConnectionKb)), perRun.every((r) => r.capRefused) ? "closed at once, bridge keeps serving" : "NOT refused"]])}

What it is made of (\`--heapsnapshot-signal\`, a run of its own, \`bench/heap-breakdown.ts\`): an empty Node with the same flags takes **${emptyNode.toFixed(1)} MB** of RSS. The JS heap, by kind (MB):

${table(
  ["Kind", "at rest", `with ${connections} connections`],
  kinds.map((kind) => [kind, atRest.kinds[kind] ?? 0, withConnections.kinds[kind] ?? 0]),
)}

The largest single pieces at rest: ${atRest.largest.join("; ") || "none over 0.5 MB"}.

Machine: ${machine()}.`;
    if (write) writeSection("bridge-memory", markdown);
    return { perRun, emptyNode, atRest, withConnections, markdown };
  } finally {
    await worker.stop();
    removeState(worker);
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runBridgeMemoryBench(...args)).markdown);
