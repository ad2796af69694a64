import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { ROOT } from "../../../scripts/local-dev.ts";

/** Debian's Chromium, which .ci/run installs; Playwright never downloads a browser here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** `npm run screenshots` refreshes the docs' images; other runs keep theirs out of the tree. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(ROOT, "docs", "screenshots")
  : mkdtempSync(join(tmpdir(), "keyproof-screenshots-"));

/** Headless Chromium with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does)`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function screenshot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}
