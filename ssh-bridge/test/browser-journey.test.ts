import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { launchChromium, screenshot } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
let browser: Browser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

describe("the whole journey in a real browser", () => {
  it("signs up, makes a project and key, runs ssh, sees the fingerprint, and delivers a test webhook", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const base = ctx.worker.url;
    const email = `journey-${crypto.randomUUID()}@example.com`;

    await page.goto(`${base}/signup`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', "a long enough password");
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/projects/);
    await expect.poll(() => page.textContent("body")).toContain("Welcome to keyproof");

    await page.fill('input[name="name"]', "Acme onboarding");
    await page.click('form[action="/projects"] button');
    // A new project opens on its overview, which points to Settings for the API key.
    await page.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
    await expect.poll(() => page.textContent("body")).toContain("create an API key in Settings");
    await page.click('nav.links a:has-text("Settings")');
    await page.waitForURL(/\/projects\/prj_[0-9a-z]+\/settings/);

    await page.fill('form[action$="/api-keys"] input[name="name"]', "production");
    await page.click('form[action$="/api-keys"] button');
    const apiKey = (await page.textContent("#new-api-key")) ?? "";
    expect(apiKey).toMatch(/^kp_live_[0-9a-z]{32}$/);
    await screenshot(page, "api-key-created");
    const info = await fetch(`${base}/api/v1/auth/info/`, { headers: { "x-api-key": apiKey } });
    expect(info.status).toBe(200);
    await page.reload();
    expect(await page.textContent("body")).not.toContain(apiKey);

    await page.click("text=Sessions");
    await page.click("text=New collection session");
    await page.fill('textarea[name="ssh_message"]', "Thanks, you can close this window.");
    await page.click('button:has-text("Create session")');
    await page.waitForURL(/\/sessions\/cs_[0-9a-z]+/);
    const command = (await page.textContent("#ssh-command")) ?? "";
    const identifier = command.match(/([0-9a-z]{26})@/)?.[1] ?? "";
    expect(identifier).not.toBe("");

    const key = makeKey("ed25519");
    const ssh = await runSsh({ port: ctx.bridge.port, user: identifier, keys: [key] });
    expect(ssh.stdout).toContain(key.sha256);
    await page.reload();
    await expect.poll(() => page.textContent(".fingerprint")).toBe(key.sha256);
    await screenshot(page, "session-detail");

    const settingsUrl = page.url().replace(/\/sessions\/.*/, "/settings");
    await page.goto(settingsUrl);
    await page.click("text=Add a webhook");
    await page.fill('input[name="url"]', `${receiver.url}/ok/journey`);
    await page.click('button:has-text("Create webhook")');
    await page.waitForURL(/\/webhooks\/wh_[0-9a-z]+/);
    await page.click('button:has-text("Send test event")');
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.textContent("table.deliveries");
        },
        { timeout: 20_000, interval: 500 },
      )
      .toContain("succeeded");
    expect(
      receiver.requestsTo("/ok/journey").map((request) => JSON.parse(request.body).event),
    ).toEqual(["ping"]);
    await screenshot(page, "webhook-deliveries");

    await page.close();
  });
});
