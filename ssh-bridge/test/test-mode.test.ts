import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { apiClient, type Session } from "./helpers/api.ts";
import { launchChromium } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/**
 * A test key from the web
 * app, a test session proved by the real `ssh` and by the test helper, the dashboard's switch
 * showing one mode at a time, and "Delete all test data" leaving live data alone.
 */

const ctx = useBridge();
let browser: Browser;
let page: Page;
let project = "";

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${ctx.worker.url}/signup`);
  await page.fill('input[name="email"]', `modes-${crypto.randomUUID()}@example.com`);
  await page.fill('input[name="password"]', "a long enough password");
  await page.click('button[type="submit"]');
  await page.waitForURL(/\/projects$/);
  await page.fill('input[name="name"]', "Modes");
  await page.click('form[action="/projects"] button');
  await page.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
  project = page.url();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A key made on the settings page, in `mode`. */
async function newKey(mode: "live" | "test") {
  await page.goto(`${project}/settings`);
  await page.fill('form[action$="/api-keys"] input[name="name"]', `${mode} key`);
  await page.selectOption('form[action$="/api-keys"] select[name="mode"]', mode);
  await page.click('form[action$="/api-keys"] button');
  return (await page.textContent("#new-api-key")) ?? "";
}

const listedIds = () =>
  page.$$eval("table tbody td:nth-child(1)", (cells) =>
    cells.map((cell) => cell.textContent?.trim() ?? ""),
  );

describe("test mode, end to end", () => {
  it("keeps test data apart in the dashboard, and deletes it without touching live data", async () => {
    const liveKey = await newKey("live");
    const testKey = await newKey("test");
    expect(liveKey).toMatch(/^kp_live_/);
    expect(testKey).toMatch(/^kp_test_/);
    expect(await page.textContent("table")).toMatch(/test[\s\S]*live|live[\s\S]*test/);
    const live = apiClient(ctx.worker.url, liveKey);
    const test = apiClient(ctx.worker.url, testKey);

    // A test session is proved by the real ssh like a live one; another by the helper.
    const alice = makeKey("ed25519");
    const liveSession = await live.createSession("collect");
    const overSsh = await test.createSession("collect");
    const helped = await test.createSession("verify", { keys: [{ public_key: alice.publicKey }] });
    for (const session of [liveSession, overSsh])
      await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [alice] });
    await test.request<Session>(
      "POST",
      `/test_helpers/ssh/verify/sessions/${helped.id}/simulate/`,
      { action: "prove" },
    );
    expect((await test.getSession("collect", overSsh.id)).status).toBe("completed");
    expect((await test.getSession("verify", helped.id)).status).toBe("verified");
    // A live key is told the helper does not exist.
    await live.request(
      "POST",
      `/test_helpers/ssh/verify/sessions/${helped.id}/simulate/`,
      { action: "prove" },
      404,
    );

    // Live by default: only the live session, and a quiet line to switch.
    await page.goto(`${project}/sessions`);
    expect(await listedIds()).toEqual([liveSession.id]);
    expect(await page.textContent("#mode-switch")).toContain("Live data");

    // Switched, remembered across pages, and marked on every one of them.
    await page.click("#mode-switch button");
    await page.waitForURL(/\/sessions$/);
    expect((await listedIds()).sort()).toEqual([overSsh.id, helped.id].sort());
    expect(await page.textContent("#mode-switch")).toContain("TEST DATA");
    await page.goto(project);
    expect(await page.textContent("#mode-switch")).toContain("TEST DATA");
    // The helper's connection reaches the index by its object's push, a moment after its answer.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.textContent("main");
        },
        { timeout: 10_000 },
      )
      .toMatch(/2 of 2 connections/);
    await page.goto(`${project}/sessions/${overSsh.id}`);
    expect(await page.textContent("h1")).toContain("Test");

    // Deleting test data: the box must be ticked; then test data is gone and live data stays.
    await page.goto(`${project}/settings`);
    await page.check('#test-data input[name="confirm"]');
    await Promise.all([page.waitForURL(/\/settings/), page.click("#test-data button")]);
    expect(await page.textContent("main")).toContain("All test data is deleted");
    await test.request("GET", `/ssh/collect/sessions/${overSsh.id}/`, undefined, 404);
    await test.request("GET", `/ssh/verify/sessions/${helped.id}/`, undefined, 404);
    expect((await live.getSession("collect", liveSession.id)).status).toBe("completed");
    await page.goto(`${project}/sessions`);
    expect(await listedIds()).toEqual([]);
    // Its identifier is unknown over ssh from then on.
    const refused = await runSsh({
      port: ctx.bridge.port,
      user: overSsh.connection_identifier,
      keys: [alice],
    });
    expect(refused.stdout + refused.stderr).toContain("There is no keyproof session");

    await page.click("#mode-switch button");
    await page.waitForURL(/\/sessions$/);
    expect(await listedIds()).toEqual([liveSession.id]);
  });
});

describe("the CI-style test the READMEs print (examples/hosted-flow/ci-test.ts)", () => {
  /** A README's command line, as a new user copies it, with this run's URL and key put in. */
  const printedIn = (readme: string) =>
    readFileSync(join(ROOT, readme), "utf8")
      .split("\n")
      .find((line) => line.startsWith("KEYPROOF_URL=") && line.includes("ci-test"));

  it.each(["README.md", "examples/hosted-flow/README.md"])(
    "runs as %s prints it, in a shell whose node is the system's, with the seeded test key, and refuses a live key",
    async (readme) => {
      const printed = printedIn(readme);
      expect(printed).toBeDefined();
      const run = (key: string) =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const command = (printed ?? "")
            .replace(/KEYPROOF_URL=\S+/, `KEYPROOF_URL=${ctx.worker.url}`)
            .replace(/KEYPROOF_TEST_API_KEY=\S+/, `KEYPROOF_TEST_API_KEY=${key}`);
          // A new user's shell: the machine's own node first, not node_modules/.bin's (npm scripts').
          const path = (process.env.PATH ?? "")
            .split(":")
            .filter((dir) => !dir.includes("node_modules"))
            .join(":");
          const child = spawn("sh", ["-c", command], {
            cwd: ROOT,
            env: { ...process.env, PATH: path },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          child.stdout?.on("data", (data: Buffer) => (output += data));
          child.stderr?.on("data", (data: Buffer) => (output += data));
          const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
          child.on("close", (code) => {
            clearTimeout(timer);
            resolve({ code, output });
          });
        });
      const passed = await run(inject("testApiKey"));
      expect(passed.output).toMatch(/^ok: vs_\w+ verified in test mode/m);
      expect(passed.code).toBe(0);
      const refused = await run(inject("apiKey"));
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain("KEYPROOF_TEST_API_KEY");
    },
    90_000,
  );
});

describe("README's test-helper recipe", () => {
  /** The block of README that makes a test session and reads its id into ID. */
  const recipe = readFileSync(join(ROOT, "README.md"), "utf8")
    .split("```sh\n")
    .find((block) => block.startsWith("TEST_KEY=") && block.includes("simulate/"));

  const expected = makeKey("ed25519").publicKey;
  it.each([
    ["collect", "{}", '"key_type":"ssh-ed25519"'],
    [
      "verify",
      JSON.stringify({ keys: [{ public_key: expected, name: "k" }] }),
      `"public_key":"${expected}"`,
    ],
  ])("reads the %s session's own id, and the helper proves it", async (kind, body, proved) => {
    expect(recipe).toBeDefined();
    const script = (recipe ?? "")
      .split("```")[0]
      ?.replaceAll("localhost:8787", new URL(ctx.worker.url).host)
      .replace(/^TEST_KEY=\S+/m, `TEST_KEY=${inject("testApiKey")}`)
      .replaceAll("/ssh/collect/", `/ssh/${kind}/`)
      .replace("-d '{}'", `-d '${body}'`)
      .replace('"key_type":"ssh-ed25519"', proved)
      .replace(/^curl -s -X POST (\S+simulate\/)/m, 'echo "ID=$ID"; curl -s -X POST $1');
    const output = await new Promise<string>((resolve) => {
      const child = spawn("sh", ["-c", script ?? ""], { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout?.on("data", (data: Buffer) => (text += data));
      child.on("close", () => resolve(text));
    });
    const id = /^ID=(\S+)$/m.exec(output)?.[1] ?? "";
    expect(id).toMatch(kind === "collect" ? /^cs_/ : /^vs_/);
    expect(output).toContain(`"id":"${id}"`);
    expect(output).toMatch(kind === "collect" ? /"status":"completed"/ : /"status":"verified"/);
  });
});
