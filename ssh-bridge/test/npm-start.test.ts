import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, seedProject } from "../../test-support/local-worker.ts";
import { type RunningStack, startStack } from "../../test-support/npm-start.ts";
import { apiClient } from "./helpers/api.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/**
 * Issue 44.21: `npm start` comes back from a crashed workerd, and waits out a busy D1 file; issue
 * 52: one `npm start` a state directory, and nothing left behind when a part fails to start.
 */

const RUNNING = /keyproof is running\./;
const stacks: RunningStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop();
});

/** The local D1 databases' SQLite files under a state directory. */
function d1Files(stateDir: string): string[] {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")
    .map((name) => join(dir, name));
}

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
  it("starts wrangler dev again when its workerd died and every request hangs, and proofs go on", async () => {
    const stack = await startStack();
    stacks.push(stack);
    await stack.printed(RUNNING);
    // What README shows, and no more: no wrangler banner, no table of bindings (issue 44.18).
    expect(stack.output()).not.toMatch(/⛅️|Your Worker has access|^Binding\s/m);
    const { apiKey } = await seedProject({ persistTo: stack.stateDir });
    const api = apiClient(stack.url, apiKey);
    expect((await api.createSession("collect")).status).toBe("pending");

    // workerd dies under wrangler, as in a fault run: wrangler brings one back that hangs.
    const port = new URL(stack.url).port;
    execFileSync("pkill", ["-KILL", "-f", `workerd serve .*entry=127.0.0.1:${port}`]);
    await stack.printed(/starting wrangler dev again/, 60_000);
    await stack.printed(/The Worker answers again\./, 90_000);

    // The API answers, and the bridge, which was never restarted, takes proofs again.
    const session = await until(() => api.createSession("collect"), 30_000);
    const key = makeKey("ed25519");
    const proof = await until(async () => {
      const result = await runSsh({
        port: stack.sshPort,
        user: session.connection_identifier,
        keys: [key],
      });
      return result.code === 0 ? result : null;
    }, 60_000);
    expect(proof.stdout).toContain(key.sha256);
    expect((await api.getSession("collect", session.id)).status).toBe("completed");
    expect(await stack.stop()).toBe(0);
  }, 240_000);

  it("waits for another npm start on the same STATE_DIR, and starts once it has stopped (issue 52, item 13)", async () => {
    const first = await startStack();
    stacks.push(first);
    await first.printed(RUNNING);
    const second = await startStack({ stateDir: first.stateDir });
    stacks.push(second);
    await second.printed(
      new RegExp(`Another npm start \\(pid ${first.process.pid}\\) uses .*; waiting up to 30 s`),
      30_000,
    );
    // Never two on one state: it does not start while the first runs.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(second.output()).not.toMatch(RUNNING);
    expect(await first.stop()).toBe(0);
    await second.printed(RUNNING);
    expect(await second.stop()).toBe(0);
  }, 240_000);

  it("stops everything it started, and announces nothing, when a bridge fails to start (item 26)", async () => {
    // Bridge 2's health port (HTTP_ADDRESS's port + 1) is taken.
    const healthPort = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(healthPort + 1, "127.0.0.1", resolve));
    try {
      const stack = await startStack({
        env: { BRIDGES: "2", HTTP_ADDRESS: `127.0.0.1:${healthPort}` },
      });
      stacks.push(stack);
      const code = await new Promise<number | null>((resolve) =>
        stack.process.once("exit", resolve),
      );
      expect(code).toBe(1);
      expect(stack.output()).toMatch(/bridge-2 stopped \(exit 1\); stopping everything\./);
      expect(stack.output()).not.toMatch(RUNNING);
      // No balancer left behind holding the SSH port.
      const balancers = spawnSync("pgrep", ["-f", join(stack.stateDir, "haproxy")], {
        encoding: "utf8",
      });
      expect(balancers.stdout.trim()).toBe("");
      const free = createServer();
      await new Promise<void>((resolve, reject) => {
        free.once("error", reject);
        free.listen(stack.sshPort, "127.0.0.1", resolve);
      });
      free.close();
    } finally {
      taken.close();
    }
  }, 240_000);

  it("waits while another process holds the local D1 file, then starts", async () => {
    const first = await startStack();
    stacks.push(first);
    await first.printed(RUNNING);
    await first.stop();
    // Another writer holds the D1 file for a few seconds, as a second wrangler would.
    const [file = ""] = d1Files(first.stateDir);
    const holder = new DatabaseSync(file);
    holder.exec("BEGIN EXCLUSIVE");
    const released = setTimeout(() => {
      holder.exec("COMMIT");
      holder.close();
    }, 6_000);
    try {
      const second = await startStack({ stateDir: first.stateDir });
      stacks.push(second);
      await second.printed(RUNNING);
      expect(second.output()).not.toMatch(/SQLITE_BUSY|database is locked/);
      expect(await second.stop()).toBe(0);
    } finally {
      clearTimeout(released);
      if (holder.isOpen) {
        holder.exec("COMMIT");
        holder.close();
      }
    }
  }, 240_000);
});
