import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedAccount } from "../../test-support/local-worker.ts";
import { launchChromium } from "./helpers/chromium.ts";

/**
 * Passkeys in a real Chromium, with its virtual authenticator (the DevTools protocol's WebAuthn
 * domain) standing in for the device: the browser's own WebAuthn, the page's /passkey.js and the
 * Worker's checks together. Chromium takes no IP address as a passkey's site, so the pages are
 * opened at `localhost`.
 */
const base = inject("workerUrl").replace("127.0.0.1", "localhost");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A page whose tab has a platform authenticator that holds discoverable credentials. */
async function pageWithAuthenticator(): Promise<{ page: Page; cdp: CDPSession; id: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp, id: authenticatorId };
}

async function signInWithPassword(page: Page, account: { email: string; password: string }) {
  await page.goto(`${base}/signin`);
  await page.fill('input[name="email"]', account.email);
  await page.fill('input[name="password"]', account.password);
  await page.click('form[action="/signin"] button');
}

async function signOut(page: Page) {
  await page.click('form[action="/signout"] button');
  await page.waitForURL(`${base}/`);
}

describe("passkeys in the dashboard", () => {
  it("adds a passkey, signs in with it alone and after the password, and not once removed", async () => {
    const account = await seedAccount(inject("persistTo"), "a long enough password");
    const { page, cdp, id } = await pageWithAuthenticator();
    await signInWithPassword(page, account);
    await page.waitForURL(`${base}/projects`);

    // Added from the security page every signed-in page links to.
    await page.click('a[href="/account/security"]');
    await page.fill('form[action="/account/passkeys"] input[name="name"]', "this laptop");
    await page.click('form[action="/account/passkeys"] button');
    await page.waitForSelector("#recovery-codes");
    expect(await page.textContent("#passkeys ~ div")).toContain("this laptop");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: id });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe("localhost");

    // A passkey alone: no email typed.
    await signOut(page);
    await page.goto(`${base}/signin`);
    await page.click('form[action="/signin/passkey"] button');
    await page.waitForURL(`${base}/projects`);
    await page.goto(`${base}/account/security`);
    expect(await page.textContent("#log ~ div")).toContain("Signed in");
    expect(await page.textContent("#browsers ~ div")).toContain("passkey");

    // The password alone no longer signs in: the passkey is asked for next.
    await signOut(page);
    await signInWithPassword(page, account);
    await page.waitForURL(`${base}/signin/ssh`);
    expect(await page.textContent("h1")).toBe("Prove it is you");
    await page.click('form[action="/signin/passkey"] button');
    await page.waitForURL(`${base}/projects`);

    // Removed: the authenticator still holds it, and it signs in nobody.
    await page.goto(`${base}/account/security`);
    await page.click('form[action^="/account/passkeys/apk_"] button');
    await page.waitForSelector("text=Passkey removed.");
    await signOut(page);
    await page.goto(`${base}/signin`);
    await page.click('form[action="/signin/passkey"] button');
    await page.waitForLoadState();
    expect(await page.textContent(".flash")).toContain("not registered to an account");
    await page.goto(`${base}/projects`);
    expect(page.url()).toContain("/signin");
  });

  it("shows no passkey button to a browser without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    expect(await page.isVisible('form[action="/signin"] button')).toBe(true);
    expect(await page.isVisible('form[action="/signin/passkey"] button')).toBe(false);
    await context.close();
  });

  it("tells a user whose device holds no passkey for keyproof so, and signs nobody in", async () => {
    const { page } = await pageWithAuthenticator();
    await page.goto(`${base}/signin`);
    await page.click('form[action="/signin/passkey"] button');
    await page.waitForSelector("[data-passkey-status]:has-text('No passkey was used')");
    expect(page.url()).toBe(`${base}/signin`);
  });
});
