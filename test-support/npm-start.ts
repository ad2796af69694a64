import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../scripts/local-dev.ts";
import { stopWithThisProcess } from "../scripts/process-guard.ts";
import { freePort } from "./local-worker.ts";

/** `npm start` as a user runs it (scripts/start.ts), on ports and state of its own. */
export interface RunningStack {
  url: string;
  /** The Worker's port (PORT). */
  port: number;
  sshPort: number;
  healthAddress: string;
  stateDir: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Resolves when it printed a line matching `pattern` (rejects after `timeoutMs`). */
  printed: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  /** Ctrl-C, and its exit code. */
  stop: () => Promise<number | null>;
  process: ChildProcess;
}

export async function startStack(
  options: { stateDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<RunningStack> {
  const port = options.port ?? (await freePort());
  const [sshPort, healthPort] = [await freePort(), await freePort()];
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "keyproof-state-"));
  const healthAddress = `127.0.0.1:${healthPort}`;
  const child = spawn(process.execPath, [join(ROOT, "scripts", "start.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      SSH_PORT: String(sshPort),
      HTTP_ADDRESS: healthAddress,
      STATE_DIR: stateDir,
      HOST_KEY_DIR: join(stateDir, "host-keys"),
      DRAIN_SECONDS: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  stopWithThisProcess(child, { group: false });
  let output = "";
  const waiting = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (data: Buffer) => {
      output += data.toString();
      for (const check of waiting) check();
    });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stack: RunningStack = {
    url: `http://127.0.0.1:${port}`,
    port,
    sshPort,
    healthAddress,
    stateDir,
    output: () => output,
    process: child,
    printed: (pattern, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`npm start did not print ${pattern} in ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const check = () => {
          if (!pattern.test(output)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
        void exited.then(() => {
          if (waiting.has(check)) check();
        });
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
  };
  return stack;
}
