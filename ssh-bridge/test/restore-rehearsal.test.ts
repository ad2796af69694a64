import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_STATE, ROOT } from "../../scripts/local-dev.ts";
import { localD1File, queryD1File } from "../../test-support/local-d1.ts";
import {
  type LocalWorker,
  removeState,
  seedProject,
  startLocalWorker,
} from "../../test-support/local-worker.ts";
import { apiClient } from "./helpers/api.ts";

/**
 * docs/operations.md's local rehearsal of a restore, its shell lines run as written: the restore
 * point (a shard saved aside), a project deleted, the shard restored, and the runbook's
 * step that marks a project deleted after the restore point deleted again.
 */

/** The rehearsal's `sh` block, in its steps (each after a comment line). */
function rehearsalSteps(): string[] {
  const doc = readFileSync(join(ROOT, "docs", "operations.md"), "utf8");
  const block = doc.split("**Rehearse it locally.**")[1]?.split("```sh\n")[1]?.split("```")[0];
  if (!block) throw new Error("docs/operations.md has no local rehearsal");
  const steps: string[][] = [[]];
  for (const line of block.trimEnd().split("\n")) {
    if (line.startsWith("# ")) steps.push([]);
    else steps.at(-1)?.push(line);
  }
  return steps.map((lines) => lines.join("\n"));
}

let worker: LocalWorker;
let cwd: string;

beforeAll(async () => {
  worker = await startLocalWorker({ scheduledEveryMs: 1000 });
  mkdirSync(LOCAL_STATE, { recursive: true });
  cwd = mkdtempSync(join(LOCAL_STATE, "rehearsal-"));
}, 90_000);

afterAll(async () => {
  await worker?.stop();
  if (worker) removeState(worker);
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** Runs `script` with the rehearsal's first line (its `state`) in front, as a user's shell would. */
const run = (first: string, script: string) =>
  execFileSync("sh", ["-c", `${first}\n${script}`], {
    cwd,
    env: { ...process.env, STATE_DIR: worker.persistTo },
    encoding: "utf8",
  });

/** A browser's sign-in and a form post, by fetch: the project's owner deleting it. */
async function deleteFromWebApp(projectId: string) {
  const cookies = new Map<string, string>();
  const send = async (path: string, form?: Record<string, string>) => {
    const response = await fetch(`${worker.url}${path}`, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      cookies.set(name, value);
    }
    const html = await response.text();
    return { status: response.status, csrf: html.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? "" };
  };
  const signin = await send("/signin");
  const email = queryD1File<{ email: string }>(
    await localD1File(worker.persistTo, "DIRECTORY"),
    "SELECT email FROM accounts JOIN project_members ON account_id = accounts.id WHERE project_id = ?",
    projectId,
  )[0]?.email;
  const signedIn = await send("/signin", {
    email: email ?? "",
    password: "password",
    _csrf: signin.csrf,
  });
  expect(signedIn.status).toBe(303);
  const settings = await send(`/projects/${projectId}/settings`);
  const deleted = await send(`/projects/${projectId}/delete`, {
    confirm: "Bridge tests",
    _csrf: settings.csrf,
  });
  expect(deleted.status).toBe(303);
}

describe("the restore runbook, rehearsed locally", () => {
  it("brings a deleted project's rows back with the saved shard, and its step erases them again", async () => {
    const [state = "", pointCopy = "", , restore = "", markDeleted = ""] = rehearsalSteps();
    const project = await seedProject(worker);
    expect(project.shard).toBe("INDEX_0");
    const api = apiClient(worker.url, project.apiKey);
    await api.createSession("collect");
    const shardFile = await localD1File(worker.persistTo, "INDEX_0");
    const count = (table: string) =>
      queryD1File<{ n: number }>(
        shardFile,
        `SELECT count(*) AS n FROM ${table} WHERE project_id = ?`,
        project.projectId,
      )[0]?.n ?? 0;
    await expect.poll(() => count("sessions"), { timeout: 10_000 }).toBe(1);

    // The restore point, taken with the service stopped.
    await worker.stop();
    run(state, pointCopy);
    await worker.start();

    // The damage: the project deleted from the web app, its rows erased from the shard.
    await deleteFromWebApp(project.projectId);
    await expect.poll(() => count("sessions"), { timeout: 30_000, interval: 500 }).toBe(0);

    // The restore brings its rows back, with no tombstone, the directory knowing no such project.
    await worker.stop();
    run(state, restore);
    expect(count("sessions")).toBe(1);
    await worker.start();

    // The runbook's step: marked deleted again, and the cron erases it within a minute.
    run(state, markDeleted);
    await expect.poll(() => count("sessions"), { timeout: 60_000, interval: 500 }).toBe(0);
  }, 240_000);
});
