import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { bindable } from "../../scripts/local-dev.ts";
import { copyMigratedState, localD1File } from "../../test-support/local-d1.ts";
import { freePort, seedProject } from "../../test-support/local-worker.ts";
import { type RunningStack, startStack } from "../../test-support/npm-start.ts";
import { apiClient } from "./helpers/api.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/**
 * `npm start` as a user runs it: one start a state directory, a crashed workerd brought back, a
 * busy D1 file waited out, and nothing left behind when a part fails to start. One state
 * directory goes through it all, so the stack is started three times, not once a check.
 */

const RUNNING = /keyproof is running\./;
const stacks: RunningStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop();
});

async function started(options: Parameters<typeof startStack>[0] = {}) {
  const stack = await startStack(options);
  stacks.push(stack);
  return stack;
}

/** The command lines of the processes that name `stateDir` (wrangler, workerd, HAProxy). */
const processesUsing = (stateDir: string) =>
  spawnSync("pgrep", ["-af", stateDir], { encoding: "utf8" }).stdout.trim();

const exitOf = (stack: RunningStack) =>
  stack.process.exitCode !== null
    ? Promise.resolve(stack.process.exitCode)
    : new Promise<number | null>((resolve) => stack.process.once("exit", resolve));

async function until<T>(probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => null);
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("npm start", () => {
  it("starts on a new state directory, one at a time, again after a workerd crash, and after a busy D1 file", async () => {
    // The first start ever: migrations, a bridge secret, host keys; what README shows, no more.
    const first = await started();
    await first.printed(RUNNING);
    expect(first.output()).not.toMatch(/⛅️|Your Worker has access|^Binding\s/m);
    // The wait between the migrations and the banner says what it is.
    expect(first.output()).toMatch(
      /Applying local D1 migrations…\n(.*\n)*Starting the Worker \(wrangler dev\)/,
    );

    // A second on the same state waits for the first, and never runs beside it.
    const second = await started({ stateDir: first.stateDir });
    await second.printed(
      new RegExp(`Another npm start \\(pid ${first.process.pid}\\) uses .*; waiting up to 30 s`),
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(second.output()).not.toMatch(RUNNING);
    expect(await first.stop()).toBe(0);
    await second.printed(RUNNING);

    // Its workerd dies under wrangler, as in a fault run: wrangler brings one back that hangs,
    // and npm start starts wrangler dev again; the bridge, never restarted, takes proofs again.
    const { apiKey } = await seedProject({ persistTo: second.stateDir });
    const api = apiClient(second.url, apiKey);
    expect((await api.createSession("collect")).status).toBe("pending");
    const port = new URL(second.url).port;
    execFileSync("pkill", ["-KILL", "-f", `workerd serve .*entry=127.0.0.1:${port}`]);
    await second.printed(/starting wrangler dev again/, 60_000);
    await second.printed(/The Worker answers again\./, 90_000);
    const session = await until(() => api.createSession("collect"), 30_000);
    const key = makeKey("ed25519");
    const proof = await until(async () => {
      const result = await runSsh({
        port: second.sshPort,
        user: session.connection_identifier,
        keys: [key],
      });
      return result.code === 0 ? result : null;
    }, 60_000);
    expect(proof.stdout).toContain(key.sha256);
    expect((await api.getSession("collect", session.id)).status).toBe("completed");
    expect(await second.stop()).toBe(0);

    // Another writer holds the D1 file for a few seconds, as a second wrangler would.
    const holder = new DatabaseSync(await localD1File(second.stateDir, "DIRECTORY"));
    holder.exec("BEGIN EXCLUSIVE");
    const released = setTimeout(() => {
      holder.exec("COMMIT");
      holder.close();
    }, 6_000);
    try {
      const third = await started({ stateDir: second.stateDir });
      await third.printed(RUNNING);
      expect(third.output()).not.toMatch(/SQLITE_BUSY|database is locked/);
      // Killed outright, it leaves nothing behind: not wrangler, workerd or the bridge.
      third.process.kill("SIGKILL");
      await until(
        async () =>
          processesUsing(third.stateDir) === "" && (await bindable(third.port)) ? true : null,
        15_000,
      );
    } finally {
      clearTimeout(released);
      if (holder.isOpen) {
        holder.exec("COMMIT");
        holder.close();
      }
    }
  }, 360_000);

  it("stops everything it started, and announces nothing, when a part fails to start", async () => {
    // Its port taken: one line says which and what to do, at once; nothing is started.
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const refused = await started({ port });
      expect(await exitOf(refused)).toBe(1);
      expect(refused.output()).toMatch(
        new RegExp(`keyproof cannot start: the Worker's port \\(PORT\\), ${port}, is taken`),
      );
      expect(refused.output()).not.toMatch(/Applying local D1 migrations|Address already in use/);
    } finally {
      taken.close();
    }
    // A bridge that cannot start (its setting refused) stops everything started before it.
    const stateDir = mkdtempSync(join(tmpdir(), "keyproof-state-"));
    await copyMigratedState(stateDir);
    const stack = await started({ stateDir, env: { BRIDGES: "2", DRAIN_SECONDS: "soon" } });
    const code = await exitOf(stack);
    expect(code).not.toBe(0);
    expect(stack.output()).toMatch(
      new RegExp(`bridge-\\d stopped \\(exit ${code}\\); stopping everything\\.`),
    );
    expect(stack.output()).not.toMatch(RUNNING);
    // Nothing left behind: no wrangler, workerd or balancer, and the ports are free again.
    await until(async () => (processesUsing(stateDir) === "" ? true : null), 15_000);
    expect(await bindable(stack.sshPort)).toBe(true);
    expect(await bindable(stack.port)).toBe(true);
  }, 240_000);
});
