/**
 * What the cost, storage, burst and profile benches run against: `wrangler dev` metering itself
 * (or not), a real bridge, a webhook receiver, a seeded project, and the calls an integrator and a
 * user make (`proofRig`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { waitForGreeting } from "../test-support/ssh-greeting.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import type { Count, Meters } from "../worker/src/lib/meter.ts";
import { signChallenge, spawnBridge, sshArgs } from "./lib.ts";

/** The counted units, as the benches' tables name them. */
export const COLUMNS: [Count, string][] = [
  ["workerInvocations", "Worker invocations"],
  ["durableObjectRequests", "DO requests"],
  ["durableObjectRowsRead", "DO rows read"],
  ["durableObjectRowsWritten", "DO rows written"],
  ["d1RowsRead", "D1 rows read"],
  ["d1RowsWritten", "D1 rows written"],
  ["d1WriteTransactions", "D1 write transactions"],
  ["queueMessages", "Queue messages"],
  ["alarmsSet", "alarms set"],
  ["logLines", "log lines"],
];

/**
 * What the cost and storage benches run against: `wrangler dev` metering itself, a real bridge,
 * a webhook receiver, a seeded project, and the calls an integrator and a user make.
 */
export async function proofRig(vars: Record<string, string> = {}) {
  const worker = await startLocalWorker({
    vars: { SIMULATED_D1_PRIMARY_MS: "0", METERING: "on", ...vars },
  });
  const receiver = await startWebhookReceiver();
  const { apiKey, shard } = await seedProject(worker);
  const dir = mkdtempSync(join(tmpdir(), "keyproof-cost-"));
  const bridgePort = await freePort();
  const bridge = await spawnBridge(worker, {
    port: bridgePort,
    hostKeyDir: join(dir, "bridge-keys"),
  });
  await waitForGreeting(bridgePort);
  const keyPath = join(dir, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", keyPath]);

  const meters = async (reset = false): Promise<Meters> =>
    (await fetch(`${worker.url}/__dev/meters`, { method: reset ? "DELETE" : "GET" })).json();
  /** Until the counts stop moving: pushes to D1 and webhook deliveries happen after answers. */
  async function settled(): Promise<Meters> {
    let last = await meters();
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const now = await meters();
      quiet = JSON.stringify(now) === JSON.stringify(last) ? quiet + 1 : 0;
      last = now;
    }
    return last;
  }
  /** The units `action` costs, everything it caused included. */
  async function measure(action: () => Promise<unknown>): Promise<Meters> {
    await settled();
    await meters(true);
    await action();
    return settled();
  }
  const api = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: { "x-api-key": apiKey, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
  const ssh = (identifier: string) =>
    execFileSync("ssh", sshArgs(bridgePort, keyPath, identifier), {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  /** A signature proof, sent as from `address` where the rig trusts `cf-connecting-ip`. */
  const sign = async (challenge: string, url: string, address = "127.0.0.1") => {
    const signature = await signChallenge(keyPath, challenge);
    return fetch(url, {
      method: "POST",
      body: signature,
      headers: { "content-type": "text/plain", "cf-connecting-ip": address },
    });
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    bridge.kill("SIGTERM");
    await receiver.close();
    await worker.stop();
    removeState(worker);
  };
  /** The seeded project's shard's size now: the index bytes its sessions take. */
  const shardBytes = async () => (await settled()).d1SizeBytes[shard] ?? 0;
  return {
    worker,
    receiver,
    apiKey,
    shard,
    api,
    ssh,
    sign,
    keyPath,
    bridgePort,
    meters,
    settled,
    measure,
    shardBytes,
    stop,
  };
}
