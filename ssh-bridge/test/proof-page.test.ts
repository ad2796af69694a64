import { execFile } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyTypeName } from "../../worker/src/protocol/terminal.ts";
import { launchChromium, screenshot } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

interface ProofSession {
  id: string;
  connection_identifier: string;
  proof_url: string;
  sign_command: string;
}

/** The proof page, marked so the test can tell a live update from a reload. */
async function openProofPage(session: ProofSession, viewport = LAPTOP): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(session.proof_url);
  await page.evaluate(() => {
    (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  return page;
}

const headline = (page: Page) => page.textContent("#proof-headline");
const stillTheSamePage = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded === true);

describe("the hosted proof page in Chromium", () => {
  it("follows an ssh login live, and names the host key ssh meets", async () => {
    const session = (await ctx.api.createSession("collect", {
      ssh_banner: "Acme asks you to prove your SSH key.",
      must_confirm: true,
    })) as unknown as ProofSession;
    const phone = await openProofPage(session, PHONE);
    const laptop = await openProofPage(session, LAPTOP);
    expect(await headline(laptop)).toBe("Waiting for you to connect.");
    const shown = (await laptop.textContent("#host-keys")) ?? "";
    // Each named as ssh names it when it asks: "ED25519 key fingerprint is SHA256:...".
    for (const key of ctx.bridge.hostKeys)
      expect(shown).toContain(`${keyTypeName(key.algorithm)} ${key.fingerprint}`);
    expect(shown).toMatch(/ED25519 SHA256:/);
    expect(shown).toMatch(/RSA SHA256:/);
    await screenshot(phone, "proof-page-waiting-phone");
    await screenshot(laptop, "proof-page-waiting-laptop");

    const key = makeKey("ed25519");
    const login = runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [key],
      input: "y\n",
      inputDelayMs: 3000,
      extraArgs: ["-v"],
    });
    // The bridge asks for a y: the page says so, but shows no key before the user agreed.
    await expect.poll(() => headline(laptop), { timeout: 10_000 }).toContain("press y");
    expect(await laptop.textContent("#proof-keys")).not.toContain(key.sha256);
    const result = await login;
    expect(result.stdout).toContain("Collected 1 key:");
    // What ssh printed on first contact is one of the fingerprints the page showed.
    const met = result.stderr.match(/Server host key: \S+ (SHA256:\S+)/)?.[1] ?? "none";
    expect(shown).toContain(met);

    for (const page of [laptop, phone]) {
      await expect
        .poll(() => headline(page), { timeout: 10_000 })
        .toBe("Done: your key was received.");
      expect(await page.textContent("#proof-keys")).toContain(key.sha256);
      expect(await stillTheSamePage(page)).toBe(true);
      // The instructions are gone once there is nothing left to do.
      expect(await page.isVisible("#ssh-command")).toBe(false);
    }
    await screenshot(phone, "proof-page-done-phone");
    await screenshot(laptop, "proof-page-done-laptop");
    await laptop.emulateMedia({ colorScheme: "dark" });
    await screenshot(laptop, "proof-page-done-dark");
  });

  it("follows a signature proof live, run from the command the page shows", async () => {
    const session = (await ctx.api.createSession("verify", {
      keys: [{ public_key: makeKey("ecdsa").publicKey }],
    })) as unknown as ProofSession;
    const key = makeKey("ed25519");
    const verify = (await ctx.api.request(
      "POST",
      "/ssh/verify/sessions/",
      {
        keys: [{ public_key: key.publicKey }],
      },
      201,
    )) as unknown as ProofSession;
    const page = await openProofPage(verify, PHONE);
    const shownCommand = (await page.textContent("#sign-command")) ?? "";
    expect(shownCommand).toBe(verify.sign_command);
    const signed = await new Promise<string>((resolve) =>
      execFile("sh", ["-c", shownCommand.replace("~/.ssh/id_ed25519", key.path)], (_, stdout) =>
        resolve(stdout),
      ),
    );
    expect(signed).toContain("Verified: you hold the key this session expects.");
    await expect
      .poll(() => headline(page), { timeout: 10_000 })
      .toBe("Verified: you hold the key this session expects.");
    expect(await page.textContent("#proof-keys")).toContain(key.sha256);
    expect(await stillTheSamePage(page)).toBe(true);
    // A session the user never touched is still waiting.
    const untouched = await openProofPage(session);
    expect(await headline(untouched)).toBe("Waiting for you to connect.");
  });

  it("shows a 404 page for an identifier that names no session", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${ctx.worker.url}/p/${"0".repeat(26)}`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("No proof page here");
  });
});
