import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { buildBridge } from "../scripts/build-bridge.ts";
import { BIN, BRIDGE_NODE_ENV, bridgeCommand, ROOT } from "../scripts/local-dev.ts";
import { stopWithThisProcess } from "../scripts/process-guard.ts";

export const RESULTS_FILE = join(ROOT, "docs", "benchmarks.md");

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    Number.NaN
  );
}

export const median = (values: number[]) => percentile(values, 50);

/** Median over runs, with the spread (min–max) a reader needs to trust it. */
export function summary(values: number[], digits = 1): string {
  const fmt = (value: number) => value.toFixed(digits);
  return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

export function machine(): string {
  const workerd = execFileSync(join(BIN, "workerd"), ["--version"], { encoding: "utf8" }).trim();
  return `${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, ${workerd}`;
}

/** CPU seconds a process (and the children it has reaped) used, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  return ticks / 100;
}

export function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((row) => row.startsWith("VmRSS:"));
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024;
}

/** Pids of every process whose command line contains `needle` (for workerd, spawned by wrangler). */
export function pidsMatching(needle: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", needle], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Until the processes `pids` names use less than `share` of one core over half a second (at most
 * `maxMs`): work an earlier step left running, such as the pushes of sessions just created, is
 * not counted against the next measurement.
 */
export async function quiet(pids: () => number[], share = 0.05, maxMs = 60_000): Promise<void> {
  const cpu = () =>
    pids().reduce((sum, pid) => {
      try {
        return sum + cpuSeconds(pid);
      } catch {
        return sum; // exited meanwhile
      }
    }, 0);
  const deadline = Date.now() + maxMs;
  let last = cpu();
  while (Date.now() < deadline) {
    await sleep(500);
    const now = cpu();
    if (now - last < share * 0.5) return;
    last = now;
  }
}

/** Runs `task` with at most `concurrency` in flight; returns each call's duration in ms. */
export async function loop(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<number[]> {
  const durations: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        const i = next++;
        const started = performance.now();
        await task(i);
        durations.push(performance.now() - started);
      }
    }),
  );
  return durations;
}

/** Replaces (or appends) one benchmark's section of docs/benchmarks.md. */
export function writeSection(name: string, markdown: string) {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const current = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, "utf8") : "# Benchmarks\n";
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  writeFileSync(
    RESULTS_FILE,
    pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`,
  );
}

export function table(header: string[], rows: (string | number)[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

let bundled: Promise<string> | null = null;

/**
 * A real bridge process, as deployed (the bundle, built once per run), talking to `worker`,
 * with `env` on top.
 */
export async function spawnBridge(
  worker: { url: string; secret: string },
  options: { port: number; hostKeyDir: string; env?: Record<string, string> },
): Promise<ChildProcess> {
  bundled ??= buildBridge();
  await bundled;
  const [node, args] = bridgeCommand();
  const bridge = spawn(node, args, {
    env: {
      ...process.env,
      ...BRIDGE_NODE_ENV,
      WORKER_URL: worker.url,
      BRIDGE_SECRET: worker.secret,
      SSH_PORT: String(options.port),
      SSH_LISTEN_HOST: "127.0.0.1",
      HOST_KEY_DIR: options.hostKeyDir,
      // Health and metrics on any free port: several bridges may run at once.
      HTTP_ADDRESS: "127.0.0.1:0",
      // The load generator is one address: it must not meet the per-address limit.
      CONNECTIONS_PER_ADDRESS_PER_MINUTE: "1000000",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  stopWithThisProcess(bridge, { group: false });
  return bridge;
}

/**
 * When the module is run as a script (`node bench/x.ts 200 8 3`): its numeric arguments, each
 * undefined when left out; null when it was imported.
 */
export function scriptArgs(moduleUrl: string): (number | undefined)[] | null {
  if (moduleUrl !== `file://${process.argv[1]}`) return null;
  return process.argv
    .slice(2)
    .map((arg) => (Number.isFinite(Number(arg)) ? Number(arg) : undefined));
}

/**
 * Signature proofs from many users, as production sees them: the Worker believes the edge's
 * `cf-connecting-ip` (TRUST_CF_CONNECTING_IP), and each proof comes from an address of its own,
 * so the per-address limit (60 a minute) counts each user, not the bench.
 */
export const MANY_USERS_VARS = { TRUST_CF_CONNECTING_IP: "true" };

/** The `n`th user's address (10.0.0.0/8), for `cf-connecting-ip`. */
export const userAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * `ssh-keygen -Y sign`'s signature of `challenge` with the key at `keyPath`, without blocking
 * the event loop: a bench's webhook receiver shares it, and a synchronous signature at each of
 * many proofs at once holds every delivery's answer back.
 */
export function signChallenge(keyPath: string, challenge: string) {
  return new Promise<string>((resolve, reject) => {
    const child = execFile(
      "ssh-keygen",
      ["-Y", "sign", "-n", "keyproof", "-f", keyPath],
      { encoding: "utf8" },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end(challenge);
  });
}

/** `ssh`'s arguments for a proof as `identifier` through the bridge on `port`, with `keyPath` only. */
export const sshArgs = (port: number, keyPath: string, identifier: string) => [
  "-p",
  String(port),
  "-F",
  "/dev/null",
  "-o",
  "StrictHostKeyChecking=no",
  "-o",
  "UserKnownHostsFile=/dev/null",
  "-o",
  "IdentitiesOnly=yes",
  "-o",
  "IdentityAgent=none",
  "-o",
  "LogLevel=ERROR",
  "-i",
  keyPath,
  "-T",
  `${identifier}@127.0.0.1`,
];
