import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { stopWithThisProcess } from "../../scripts/process-guard.ts";
import { freePort } from "../../test-support/local-worker.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { apiClient } from "./helpers/api.ts";
import { launchChromium } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/** What a new user meets in the first hour. */

const ctx = useBridge();
let browser: Browser;
let receiver: WebhookReceiver;
/** A signed-in browser with a project and an API key made through the web app. */
const site = {
  context: null as unknown as BrowserContext,
  email: `first-hour-${crypto.randomUUID()}@example.com`,
  project: "",
  apiKey: "",
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  browser = await launchChromium();
  site.context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await site.context.newPage();
  await page.goto(`${ctx.worker.url}/signup`);
  await page.fill('input[name="email"]', site.email);
  await page.fill('input[name="password"]', "a long enough password");
  await page.click('button[type="submit"]');
  await page.waitForURL(/\/projects$/);
  await page.fill('input[name="name"]', "First hour");
  await page.click('form[action="/projects"] button');
  await page.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
  site.project = page.url();
  await page.goto(`${site.project}/settings`);
  await page.fill('form[action$="/api-keys"] input[name="name"]', "first");
  await page.click('form[action$="/api-keys"] button');
  site.apiKey = (await page.textContent("#new-api-key")) ?? "";
  await page.close();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const open = async (path: string) => {
  const page = await site.context.newPage();
  const response = await page.goto(path.startsWith("http") ? path : `${ctx.worker.url}${path}`);
  return { page, response };
};

describe("a browser never gets JSON", () => {
  it("lands on the settings section for an address trimmed from a page's, and on an HTML 404 for none", async () => {
    for (const [trimmed, section] of [
      ["webhooks", "webhooks"],
      ["api-keys", "api-keys"],
      ["members", "members"],
    ]) {
      const { page } = await open(`${site.project}/${trimmed}`);
      expect(page.url()).toBe(`${site.project}/settings#${section}`);
      expect(await page.isVisible(`h2#${section}`)).toBe(true);
      await page.close();
    }
    for (const path of ["/nope", `${site.project.replace(ctx.worker.url, "")}/nothing/here`]) {
      const { page, response } = await open(path);
      expect(response?.status()).toBe(404);
      expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
      expect(await page.textContent("h1")).toBe("Page not found");
      await page.close();
    }
  });

  it("renders every kind of page in standards mode, with no failed request for an icon", async () => {
    const api = apiClient(ctx.worker.url, site.apiKey);
    const session = await api.createSession("collect");
    for (const path of [
      site.project,
      `${site.project}/settings`,
      "/docs",
      `/p/${session.connection_identifier}`,
      "/nope",
    ]) {
      const page = await site.context.newPage();
      const failed: string[] = [];
      page.on("response", (response) => {
        if (response.status() >= 400 && !response.request().isNavigationRequest())
          failed.push(response.url());
      });
      await page.goto(path.startsWith("http") ? path : `${ctx.worker.url}${path}`);
      expect(await page.evaluate("document.compatMode"), path).toBe("CSS1Compat");
      // What browsers ask for by themselves is there.
      expect((await page.request.get(`${ctx.worker.url}/favicon.ico`)).status()).toBe(200);
      expect(failed, path).toEqual([]);
      await page.close();
    }
  });
});

describe("secrets shown once", () => {
  it("shows a new API key on the page the form redirects to, once: a reload makes no second key", async () => {
    const { page } = await open(`${site.project}/settings`);
    await page.fill('form[action$="/api-keys"] input[name="name"]', "once");
    await page.click('form[action$="/api-keys"] button');
    const key = (await page.textContent("#new-api-key")) ?? "";
    expect(key).toMatch(/^kp_live_/);
    expect(page.url()).toBe(`${site.project}/settings#api-keys`);
    await page.reload();
    expect(await page.textContent("body")).not.toContain(key);
    const named = await page.locator("td[data-label=Name]", { hasText: /^once$/ }).count();
    expect(named).toBe(1);
    await page.close();
  });
});

describe("session pages", () => {
  it("take return_url and a webhook in the form, showing the webhook's secret once", async () => {
    const { page } = await open(`${site.project}/sessions/new?kind=collect`);
    await page.fill('input[name="return_url"]', `${receiver.url}/ok/back?state=form`);
    await page.fill('input[name="webhook_url"]', `${receiver.url}/ok/session-hook`);
    await page.click('button:has-text("Create session")');
    await page.waitForURL(/\/sessions\/cs_[0-9a-z]+$/);
    const secret = (await page.textContent("#webhook-secret")) ?? "";
    expect(secret).toMatch(/^whsec_/);
    const id = page.url().split("/").pop() ?? "";
    const api = apiClient(ctx.worker.url, site.apiKey);
    const session = (await api.getSession("collect", id)) as unknown as {
      return_url: string;
      webhooks: { url: string }[];
    };
    expect(session.return_url).toBe(`${receiver.url}/ok/back?state=form`);
    expect(session.webhooks.map((hook) => hook.url)).toEqual([`${receiver.url}/ok/session-hook`]);
    await page.reload();
    expect(await page.textContent("body")).not.toContain(secret);
    await page.close();
  });

  it("give out no command once the session is closed", async () => {
    const api = apiClient(ctx.worker.url, site.apiKey);
    const session = await api.createSession("collect");
    const { page } = await open(`${site.project}/sessions/${session.id}`);
    expect(await page.isVisible("#ssh-command")).toBe(true);
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [makeKey()] });
    await page.reload();
    expect(await page.isVisible("#ssh-command")).toBe(false);
    expect(await page.textContent("body")).not.toContain("Give this command to the user");
    expect(await page.textContent("#session-closed")).toContain("accepts no more connections");
    await page.close();
  });

  it("keep a delivery's id on one line, on a phone and a laptop", async () => {
    const api = apiClient(ctx.worker.url, site.apiKey);
    const hook = await api.request<{ id: string }>(
      "POST",
      "/webhooks/",
      { url: `${receiver.url}/ok/ids` },
      201,
    );
    await api.request("POST", `/webhooks/${hook.id}/test/`, undefined, 202);
    for (const width of [390, 1280]) {
      const page = await site.context.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${site.project}/webhooks/${hook.id}`);
      const id = page.locator(".delivery-id").first();
      await expect.poll(() => id.count()).toBe(1);
      const lines = await page.evaluate(`(() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector(".delivery-id"));
        return range.getClientRects().length;
      })()`);
      expect(lines, `${width} px`).toBe(1);
      await page.close();
    }
  });
});

describe("the dark mode switch", () => {
  it("switches the theme and remembers it on every page", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: "light",
      storageState: await site.context.storageState(),
    });
    const page = await context.newPage();
    await page.goto(`${site.project}/settings`);
    const background = () => page.evaluate("getComputedStyle(document.body).backgroundColor");
    const light = await background();
    await page.click("footer.site form.theme button");
    await page.waitForURL(`${site.project}/settings`);
    expect(await page.getAttribute("html", "data-theme")).toBe("dark");
    expect(await background()).not.toBe(light);
    await page.goto(`${site.project}/sessions`);
    expect(await page.getAttribute("html", "data-theme")).toBe("dark");
    await page.click("footer.site form.theme button");
    expect(await page.getAttribute("html", "data-theme")).toBe("light");
    await page.click("footer.site form.theme button");
    expect(await page.getAttribute("html", "data-theme")).toBeNull();
    await context.close();
  });
});

describe("the proof page's way back", () => {
  it("continues the browser that watched the proof, once; a later visitor is only told to close it", async () => {
    const api = apiClient(ctx.worker.url, site.apiKey);
    const key = makeKey();
    const session = await api.createSession("verify", {
      keys: [{ public_key: key.publicKey }],
      return_url: `${receiver.url}/ok/returned?state=abc`,
    });
    const watcher = await browser.newContext();
    const page = await watcher.newPage();
    await page.goto(`${ctx.worker.url}/p/${session.connection_identifier}`);
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [key] });
    // Done: the page says it takes the user back (never "close this page") and does.
    await expect.poll(() => page.isVisible("#proof-continue")).toBe(true);
    expect(await page.textContent("#proof-detail")).not.toContain("close this page");
    await page.waitForURL(/\/ok\/returned\?/, { timeout: 10_000 });
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("abc");
    expect(back.searchParams.get("keyproof_status")).toBe("verified");
    expect(back.searchParams.get("keyproof_attestation")?.split(".")).toHaveLength(3);
    // Once: going back to the continue step leads nowhere.
    await page.goto(`${ctx.worker.url}/p/${session.connection_identifier}/continue`);
    expect(await page.textContent("#continue-refused")).toContain("already continued");
    await watcher.close();
    // Someone who opens the link later sees the outcome, no way back and nothing of the URL.
    const later = await browser.newContext();
    const stranger = await later.newPage();
    await stranger.goto(`${ctx.worker.url}/p/${session.connection_identifier}`);
    expect(await stranger.isVisible("#proof-continue")).toBe(false);
    expect(await stranger.textContent("#proof-detail")).toBe("You can close this page.");
    expect(await stranger.content()).not.toContain("returned");
    await later.close();
  });
});

describe("a proof page someone else opened first", () => {
  it("never locks out the user's own browser: each browser that watched continues once", async () => {
    const api = apiClient(ctx.worker.url, site.apiKey);
    const key = makeKey();
    const session = await api.createSession("collect", {
      return_url: `${receiver.url}/ok/returned?state=user-1`,
    });
    const proofUrl = `${ctx.worker.url}/p/${session.connection_identifier}`;
    // Whoever held the identifier opened the page before the user did.
    const early = await browser.newContext();
    const earlyPage = await early.newPage();
    await earlyPage.goto(proofUrl);
    const own = await browser.newContext();
    const ownPage = await own.newPage();
    await ownPage.goto(proofUrl);
    // The early browser takes its continue step the moment the proof is done.
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [key] });
    await earlyPage.waitForURL(/\/ok\/returned\?/, { timeout: 10_000 });
    // The user's own browser continues too, to the integrator's return URL with its state.
    await ownPage.waitForURL(/\/ok\/returned\?/, { timeout: 10_000 });
    expect(new URL(ownPage.url()).searchParams.get("state")).toBe("user-1");
    expect(await ownPage.content()).not.toContain("already continued");
    // Each once.
    await ownPage.goto(`${proofUrl}/continue`);
    expect(await ownPage.textContent("#continue-refused")).toContain("already continued");
    await early.close();
    await own.close();
  });
});

describe("README's webhook receiver", () => {
  it("runs as printed, answers a stray request 400 and keeps running, and verifies a real one", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const snippet = /```js\n(import \{ createServer \}[\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(snippet).toContain("wh.verify");
    const port = await freePort();
    const dir = join(ROOT, ".keyproof", "readme-receiver");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "receiver.mjs"), snippet.replace("9000", String(port)));
    const secret = `whsec_${Buffer.from("a readme receiver secret!").toString("base64")}`;
    const child = spawn(process.execPath, [join(dir, "receiver.mjs")], {
      env: { ...process.env, SECRET: secret },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stopWithThisProcess(child, { group: false });
    let output = "";
    child.stdout?.on("data", (data: Buffer) => {
      output += data.toString();
    });
    try {
      const url = `http://127.0.0.1:${port}/`;
      await expect
        .poll(() => fetch(url, { method: "POST", body: "{}" }).then((r) => r.status), {
          timeout: 10_000,
        })
        .toBe(400);
      const body = JSON.stringify({ event: "ping", payload: { message: "hello" } });
      const id = "msg_readme";
      const timestamp = new Date();
      const signature = new Webhook(secret).sign(id, timestamp, body);
      const signed = await fetch(url, {
        method: "POST",
        body,
        headers: {
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
          "webhook-signature": signature,
        },
      });
      expect(signed.status).toBe(204);
      await expect.poll(() => output).toContain("ping");
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });
});

/**
 * Signing in to the dashboard by proving an SSH key, with OpenSSH's own ssh-keygen: the key
 * registered on the account's security page, the command the sign-in page shows run as it is
 * (with the key's path), its output pasted back. (Here, with this file's account: sign-ups from
 * one address are limited, and the bridge's tests all come from 127.0.0.1.)
 */
describe("the dashboard's sign-in with an SSH key", () => {
  const key = makeKey("ed25519");

  /** Runs the sign-in page's command with the test key, as the user would in a terminal. */
  async function signOn(page: Page): Promise<string> {
    const command = (await page.textContent("pre.command code"))?.trim() ?? "";
    expect(command).toMatch(
      /^printf '%s' 'keyproof-signin:[^']+' \| ssh-keygen -Y sign -n keyproof-signin -f ~\/\.ssh\/id_ed25519$/,
    );
    return execFileSync("sh", ["-c", command.replace("~/.ssh/id_ed25519", key.path)], {
      encoding: "utf8",
    });
  }

  it("signs in the browser that asked with the key ssh-keygen proves, and no other browser", async () => {
    const owner = await site.context.newPage();
    await owner.goto(`${ctx.worker.url}/projects`);
    // Registered from the security page every signed-in page links to.
    await owner.click('a[href="/account/security"]');
    await owner.fill('form[action="/account/ssh-keys"] input[name="name"]', "test key");
    await owner.fill('form[action="/account/ssh-keys"] textarea[name="public_key"]', key.publicKey);
    await owner.click('form[action="/account/ssh-keys"] button');
    expect(await owner.textContent("#recovery-codes")).toContain("shown this once");
    expect(await owner.textContent("body")).toContain(key.sha256);
    await owner.close();

    // A new browser signs in with the key alone.
    const laptop = await (await browser.newContext()).newPage();
    await laptop.goto(`${ctx.worker.url}/signin`);
    await laptop.click('a[href="/signin/ssh"]');
    const signature = await signOn(laptop);
    expect(signature).toContain("-----BEGIN SSH SIGNATURE-----");

    // The same signature pasted into another browser (its own code differs) signs in nobody.
    const elsewhere = await (await browser.newContext()).newPage();
    await elsewhere.goto(`${ctx.worker.url}/signin/ssh`);
    await elsewhere.fill('textarea[name="signature"]', signature);
    await elsewhere.click('form[action="/signin/ssh"] button');
    expect(await elsewhere.textContent("body")).toContain("not over this sign-in code");
    await elsewhere.goto(`${ctx.worker.url}/projects`);
    expect(elsewhere.url()).toMatch(/\/signin/);

    await laptop.fill('textarea[name="signature"]', signature);
    await laptop.click('form[action="/signin/ssh"] button');
    await laptop.waitForURL(/\/projects$/);
    await laptop.goto(`${ctx.worker.url}/account/security`);
    expect(await laptop.textContent("body")).toContain(site.email);
    expect(await laptop.textContent("#log ~ div")).toContain("Signed in");
  });
});
