import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ROOT } from "./local-dev.ts";
import { stopWithThisProcess } from "./process-guard.ts";

/**
 * A part that stops once everything is up, whatever its exit (a drain, a crash, `kill -9`), is
 * started again after this, as systemd's `Restart=always` does in production (deploy/); the
 * others keep serving meanwhile.
 */
const RESTART_AFTER_MS = 1_000;
/** ... unless it stopped this often within RESTART_WINDOW_MS: a crash loop stops everything. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** How long the parts have to stop on Ctrl-C before they are killed. */
const STOP_GRACE_MS = 5_000;

/** One part of `npm start`: how it runs, how its lines are shown, whether it comes back. */
export interface Part {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Its output as the terminal shows it (null: not shown); without, its output as it is. */
  readable?: (line: string) => string | null;
  /** Started again when it stops, once everything is up (the bridges). */
  restartable?: boolean;
}

/**
 * The processes `npm start` runs: each in a group of its own (stopping wrangler stops the workerd
 * under it too, hung or not), none outliving `npm start` (process-guard.ts), a restartable one
 * started again when it stops. Before everything is up, any part that stops is a failure to start:
 * all of it stops.
 */
export class Supervisor {
  readonly #children: ChildProcess[] = [];
  /** Processes being replaced on purpose: their exit is not a failure. */
  readonly #replacing = new Set<ChildProcess>();
  /** When each restartable part stopped lately, by name. */
  readonly #stops = new Map<string, number[]>();
  #stopping = false;
  /** Everything is up and was announced: from here a restartable part that stops comes back. */
  announced = false;

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Once something stopped everything, nothing more is started or announced: the exit comes. */
  stillStarting(): Promise<void> {
    return this.#stopping ? new Promise<never>(() => {}) : Promise.resolve();
  }

  start(part: Part): ChildProcess {
    const { readable } = part;
    const child = spawn(part.command, part.args, {
      cwd: ROOT,
      env: { ...process.env, ...part.env },
      stdio: ["ignore", readable ? "pipe" : "inherit", readable ? "pipe" : "inherit"],
      detached: true,
    });
    stopWithThisProcess(child, { group: true });
    if (readable)
      for (const [stream, print] of [
        [child.stdout, console.log],
        [child.stderr, console.error],
      ] as const)
        if (stream)
          createInterface({ input: stream }).on("line", (line) => {
            const shown = readable(line);
            if (shown !== null) print(shown);
          });
    child.on("exit", (code, signal) => this.#exited(part, child, code, signal));
    this.#children.push(child);
    return child;
  }

  #exited(part: Part, child: ChildProcess, code: number | null, signal: string | null) {
    this.#children.splice(this.#children.indexOf(child), 1);
    if (this.#stopping || this.#replacing.delete(child)) return;
    const how = signal ?? `exit ${code}`;
    if (!part.restartable || !this.announced) {
      console.error(`${part.name} stopped (${how}); stopping everything.`);
      return this.stop(code || 1);
    }
    if (this.#crashLooping(part.name)) {
      console.error(
        `${part.name} stopped (${how}), ${MAX_RESTARTS} times within ${RESTART_WINDOW_MS / 1000} s; stopping everything.`,
      );
      return this.stop(code || 1);
    }
    console.error(`${part.name} stopped (${how}); starting it again.`);
    setTimeout(() => {
      if (this.#stopping) return;
      const again = this.start(part);
      console.error(`${part.name} started again (pid ${again.pid}).`);
    }, RESTART_AFTER_MS);
  }

  /** Whether `name` has stopped MAX_RESTARTS times within RESTART_WINDOW_MS, counting this time. */
  #crashLooping(name: string): boolean {
    const now = Date.now();
    const recent = [...(this.#stops.get(name) ?? []), now].filter(
      (at) => at > now - RESTART_WINDOW_MS,
    );
    this.#stops.set(name, recent);
    return recent.length >= MAX_RESTARTS;
  }

  /** Stops every part (SIGTERM, then SIGKILL after STOP_GRACE_MS) and exits with `exitCode`. */
  stop(exitCode = 0) {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const child of this.#children) killGroup(child, "SIGTERM");
    const deadline = setTimeout(() => {
      for (const child of this.#children) killGroup(child, "SIGKILL");
      process.exit(exitCode);
    }, STOP_GRACE_MS);
    deadline.unref();
    Promise.all(
      this.#children.map(
        (child) =>
          new Promise((resolve) =>
            child.exitCode !== null ? resolve(null) : child.on("exit", resolve),
          ),
      ),
    ).then(() => process.exit(exitCode));
  }

  /** Stops `child` (its whole group) for a new one to take its place. */
  async replace(child: ChildProcess) {
    this.#replacing.add(child);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    killGroup(child, "SIGTERM");
    const late = setTimeout(() => killGroup(child, "SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(late);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
