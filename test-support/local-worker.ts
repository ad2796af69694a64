import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BIN,
  freePort,
  localShards,
  newAttestationKeySet,
  ROOT,
  runScheduledEvery,
} from "../scripts/local-dev.ts";
import { stopWithThisProcess } from "../scripts/process-guard.ts";
import { accountSql, projectWithKeySql } from "../scripts/seed-sql.ts";
import { copyMigratedState, localD1File, queryD1File, writeD1File } from "./local-d1.ts";

export { freePort } from "../scripts/local-dev.ts";

export interface LocalWorker {
  url: string;
  port: number;
  /** The JWK set that signs its attestations (its first key's private part included). */
  attestationKeys: string;
  secret: string;
  persistTo: string;
  /** Where wrangler's inspector listens: DevTools' protocol, for a CPU profile (bench/profile.ts). */
  inspectorPort: number;
  /** Stops wrangler and workerd: SIGTERM by default, or SIGKILL, a crash with nothing finished. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  start(): Promise<void>;
}

/** A real `wrangler dev` (workerd, local D1/DO/Queues) on its own port and its own state. */
export async function startLocalWorker(
  options: {
    /** A state directory migrated already (copyMigratedState); a new one by default. */
    persistTo?: string;
    port?: number;
    secret?: string;
    vars?: Record<string, string>;
    /** Another wrangler configuration (the benchmarks' minimal Worker). */
    config?: string;
    /** A path that answers 200 once the Worker is up. */
    readyPath?: string;
    /** Keep wrangler.toml's ENVIRONMENT (production) instead of switching to development. */
    shippedEnvironment?: boolean;
    /** The JWK set that signs attestations; a new one by default. */
    attestationKeys?: string;
    /**
     * Keep wrangler's local trace explorer on, as `npm start` has it (or LOCAL_OBSERVABILITY=on,
     * to measure what it costs); benches and tests have it off.
     */
    localObservability?: boolean;
    /** Run the cron handler this often, as `npm start` does every minute. */
    scheduledEveryMs?: number;
  } = {},
) {
  const persistTo = options.persistTo ?? mkdtempSync(join(tmpdir(), "keyproof-worker-"));
  // A state of its own starts as a copy of the migrated template (one given is migrated already).
  if (!options.persistTo) await copyMigratedState(persistTo, options.config);
  let port = options.port ?? (await freePort());
  const secret = options.secret ?? randomBytes(24).toString("base64url");
  const attestationKeys = options.attestationKeys ?? newAttestationKeySet();
  let inspectorPort = await freePort();
  let child: ChildProcess | null = null;
  let stopScheduled: (() => void) | null = null;
  let started = false;

  /** wrangler dev on the current ports: true once it answers, false if it exited before. */
  const spawnWrangler = async (): Promise<boolean> => {
    child = spawn(
      join(BIN, "wrangler"),
      [
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--persist-to",
        persistTo,
        ...(options.config ? ["--config", options.config] : []),
        "--var",
        `BRIDGE_SECRET:${secret}`,
        "--var",
        `ATTESTATION_KEYS:${attestationKeys}`,
        "--var",
        "SSH_HOST:127.0.0.1",
        "--var",
        `PUBLIC_URL:http://127.0.0.1:${port}`,
        "--var",
        "RATE_LIMIT_PER_MINUTE:100000",
        ...(options.shippedEnvironment
          ? []
          : ["--var", "ENVIRONMENT:development", "--var", "TRUST_CF_CONNECTING_IP:false"]),
        ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => [
          "--var",
          `${name}:${value}`,
        ]),
        "--test-scheduled",
        "--inspector-port",
        String(inspectorPort),
        "--show-interactive-dev-session=false",
        "--log-level",
        "error",
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
        detached: true,
        env: {
          ...process.env,
          CI: "1",
          CLOUDFLARE_CF_FETCH_ENABLED: "false",
          // wrangler's local trace explorer streams every invocation (each Durable Object call
          // and D1 query a span) to a collector Worker in the same workerd, which stores them:
          // a third of a request's local CPU, and no part of the deployed Worker. Off here.
          X_LOCAL_OBSERVABILITY:
            (options.localObservability ?? process.env.LOCAL_OBSERVABILITY === "on")
              ? "true"
              : "false",
        },
      },
    );
    const spawned = child;
    stopWithThisProcess(spawned, { group: true });
    const exited = new Promise<false>((resolve) => spawned.once("exit", () => resolve(false)));
    const ready = `http://127.0.0.1:${port}${options.readyPath ?? "/api/v1/openapi.json"}`;
    const gone = () => spawned.exitCode !== null || spawned.signalCode !== null;
    const up = waitForHttp(ready, 60_000, gone);
    // Once it has exited, the wait's own end is nobody's to report.
    up.catch(() => {});
    if (await Promise.race([up, exited])) return true;
    child = null;
    return false;
  };

  const worker: LocalWorker = {
    url: `http://127.0.0.1:${port}`,
    port,
    secret,
    attestationKeys,
    persistTo,
    inspectorPort,
    async start() {
      // A free port can be taken by another process before wrangler binds it (tests and benches
      // run side by side), and wrangler then exits at once: a first start picks new ports and
      // goes again. A restart keeps its URL, which its callers hold.
      for (let attempt = 1; !(await spawnWrangler()); attempt++) {
        if (started || options.port !== undefined || attempt === START_ATTEMPTS)
          throw new Error(`wrangler dev exited before http://127.0.0.1:${port} came up`);
        port = await freePort();
        inspectorPort = await freePort();
        Object.assign(worker, { url: `http://127.0.0.1:${port}`, port, inspectorPort });
      }
      started = true;
      if (options.scheduledEveryMs)
        stopScheduled = runScheduledEvery(worker.url, options.scheduledEveryMs);
    },
    async stop(signal = "SIGTERM") {
      stopScheduled?.();
      if (!child?.pid) return;
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      process.kill(-child.pid, signal);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      child = null;
    },
  };
  await worker.start();
  return worker;
}

/**
 * A new account and project with a live and a test API key, written straight into the local D1
 * files (a running Worker reads them at once), on the shard holding fewest projects.
 */
export async function seedProject(
  worker: Pick<LocalWorker, "persistTo">,
): Promise<{ projectId: string; apiKey: string; testApiKey: string; shard: string }> {
  const now = new Date().toISOString();
  const { account, insert } = await accountSql(
    `test-${randomBytes(6).toString("hex")}@example.com`,
    "password",
    now,
  );
  const directory = await localD1File(worker.persistTo, "DIRECTORY");
  const held = new Map(
    queryD1File<{ shard: string; n: number }>(
      directory,
      "SELECT shard, count(*) AS n FROM projects GROUP BY shard",
    ).map((row) => [row.shard, row.n]),
  );
  const [shard = "INDEX_0"] = localShards().sort((a, b) => (held.get(a) ?? 0) - (held.get(b) ?? 0));
  const project = await projectWithKeySql(account.id, "Bridge tests", shard, now);
  writeD1File(await localD1File(worker.persistTo, shard), project.shardStatements);
  writeD1File(directory, [insert, ...project.statements]);
  return {
    projectId: project.projectId,
    apiKey: project.apiKey,
    testApiKey: project.testApiKey,
    shard,
  };
}

/**
 * A new account with a password and nothing else, written straight into the local directory: for
 * a browser test that signs in (sign-ups are limited per address, and every test is 127.0.0.1).
 */
export async function seedAccount(persistTo: string, password: string) {
  const email = `account-${randomBytes(6).toString("hex")}@example.com`;
  const { insert } = await accountSql(email, password, new Date().toISOString());
  writeD1File(await localD1File(persistTo, "DIRECTORY"), [insert]);
  return { email, password };
}

export function removeState(worker: LocalWorker) {
  rmSync(worker.persistTo, { recursive: true, force: true });
}

/** Times a first start picks new ports when another process took one first. */
const START_ATTEMPTS = 3;

/**
 * True once `url` answers 200, false as soon as `gaveUp` says so; thrown after `timeoutMs`.
 */
async function waitForHttp(url: string, timeoutMs: number, gaveUp: () => boolean = () => false) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gaveUp()) return false;
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}
