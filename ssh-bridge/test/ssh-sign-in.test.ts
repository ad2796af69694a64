import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "./helpers/chromium.ts";
import { makeKey } from "./helpers/ssh.ts";

/**
 * Signing in to the dashboard by proving an SSH key, with a real Chromium and OpenSSH's own
 * ssh-keygen: the key registered on the account's security page, the command the sign-in page
 * shows run as it is (with the key's path), its output pasted back.
 */

const base = inject("workerUrl");
const key = makeKey("ed25519");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const newPage = async () => (await browser.newContext()).newPage();

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

describe("the dashboard's sign-in with an SSH key", () => {
  it("signs in the browser that asked with the key ssh-keygen proves, and no other browser", async () => {
    const email = `ssh-sign-in-${crypto.randomUUID()}@example.com`;
    const owner = await newPage();
    await owner.goto(`${base}/signup`);
    await owner.fill('input[name="email"]', email);
    await owner.fill('input[name="password"]', "a long enough password");
    await owner.click('button[type="submit"]');
    await owner.waitForURL(/\/projects$/);
    // Registered from the security page every signed-in page links to.
    await owner.click('a[href="/account/security"]');
    await owner.fill('form[action="/account/ssh-keys"] input[name="name"]', "test key");
    await owner.fill('form[action="/account/ssh-keys"] textarea[name="public_key"]', key.publicKey);
    await owner.click('form[action="/account/ssh-keys"] button');
    expect(await owner.textContent("#recovery-codes")).toContain("shown this once");
    expect(await owner.textContent("body")).toContain(key.sha256);

    // A new browser signs in with the key alone.
    const laptop = await newPage();
    await laptop.goto(`${base}/signin`);
    await laptop.click('a[href="/signin/ssh"]');
    const signature = await signOn(laptop);
    expect(signature).toContain("-----BEGIN SSH SIGNATURE-----");

    // The same signature pasted into another browser (its own code differs) signs in nobody.
    const elsewhere = await newPage();
    await elsewhere.goto(`${base}/signin/ssh`);
    await elsewhere.fill('textarea[name="signature"]', signature);
    await elsewhere.click('form[action="/signin/ssh"] button');
    expect(await elsewhere.textContent("body")).toContain("not over this sign-in code");
    await elsewhere.goto(`${base}/projects`);
    expect(elsewhere.url()).toMatch(/\/signin/);

    await laptop.fill('textarea[name="signature"]', signature);
    await laptop.click('form[action="/signin/ssh"] button');
    await laptop.waitForURL(/\/projects$/);
    await laptop.goto(`${base}/account/security`);
    expect(await laptop.textContent("body")).toContain(email);
    expect(await laptop.textContent("#log ~ div")).toContain("Signed in");
  });
});
