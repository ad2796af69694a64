import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { apiClient, type Session } from "./helpers/api.ts";
import { launchChromium, screenshot } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/**
 * Every page of the web app, as a new user meets it on a phone and a laptop, light and dark:
 * nothing wider than the screen, no text on a button or field below WCAG AA contrast.
 */

const ctx = useBridge();
const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
} as const;
const SCHEMES = ["light", "dark"] as const;
/** The pages docs/screenshots shows (`npm run screenshots`), as `page-viewport-scheme`. */
const SCREENSHOTS = new Set([
  "project-home-laptop-light",
  "project-home-laptop-dark",
  "project-home-phone-light",
  "project-home-phone-dark",
  "sessions-list-laptop-light",
  "sessions-list-phone-dark",
  "verify-session-laptop-dark",
  "verify-session-phone-light",
  "webhook-phone-dark",
  "docs-phone-light",
]);
/** WCAG 2 AA for text. */
const MIN_CONTRAST = 4.5;
/** axe-core's rules for WCAG 2.0 and 2.1, levels A and AA: what every page must pass. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const AXE_SOURCE = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** axe-core's violations on the page as it is: `rule (impact): element` for each node. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a script: the pages' CSP rightly refuses inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<{ rule: string; nodes: string[] }[]>(`(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: "tag", values: ${JSON.stringify(AXE_TAGS)} },
    });
    return result.violations.map((violation) => ({
      rule: violation.id + " (" + violation.impact + ")",
      nodes: violation.nodes.map((node) => node.target.join(" ")),
    }));
  })()`);
  return violations.map(
    (violation) =>
      `${violation.rule}: ${violation.nodes.length} × ${violation.nodes.slice(0, 3).join(", ")}`,
  );
}

let browser: Browser;
let receiver: WebhookReceiver;
/** The signed-in account's cookies, shared by every viewport's context. */
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
const site = {
  project: "",
  apiKey: "",
  webhook: "",
  collect: null as unknown as Session,
  verify: null as unknown as Session,
};

/** A project with something in every page: proofs of both kinds, a failed attempt, deliveries. */
async function buildSite() {
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop });
  const page = await context.newPage();
  const base = ctx.worker.url;
  await page.goto(`${base}/signup`);
  await page.fill('input[name="email"]', `walk-${crypto.randomUUID()}@example.com`);
  await page.fill('input[name="password"]', "a long enough password");
  await page.click('button[type="submit"]');
  await page.waitForURL(/\/projects$/);
  await page.fill('input[name="name"]', "Acme onboarding with a rather long project name");
  await page.click('form[action="/projects"] button');
  await page.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
  site.project = page.url();
  await page.goto(`${site.project}/settings`);
  await page.fill('form[action$="/api-keys"] input[name="name"]', "walk");
  await page.click('form[action$="/api-keys"] button');
  site.apiKey = (await page.textContent("#new-api-key")) ?? "";
  const api = apiClient(base, site.apiKey);

  // A failing webhook, so deliveries show a failure and the Retry it allows.
  await page.goto(`${site.project}/webhooks/new`);
  await page.fill(
    'input[name="url"]',
    `${receiver.url}/status/500/walk-with-a-long-path/${"x".repeat(60)}`,
  );
  await page.click('button:has-text("Create webhook")');
  await page.waitForURL(/\/webhooks\/wh_[0-9a-z]+/);
  site.webhook = page.url();
  await page.click('button:has-text("Send test event")');

  const alice = makeKey("ed25519");
  const bob = makeKey("ed25519");
  site.collect = await api.createSession("collect", {
    external_id: `customer-${"9".repeat(80)}`,
    multi_key: true,
  });
  await runSsh({ port: ctx.bridge.port, user: site.collect.connection_identifier, keys: [alice] });
  site.verify = await api.createSession("verify", {
    keys: [{ name: "alice laptop", public_key: alice.publicKey }],
    max_attempts: 3,
  });
  await runSsh({ port: ctx.bridge.port, user: site.verify.connection_identifier, keys: [bob] });
  await runSsh({ port: ctx.bridge.port, user: site.verify.connection_identifier, keys: [alice] });
  expect((await api.getSession("verify", site.verify.id)).status).toBe("verified");
  signedIn = await context.storageState();
  await context.close();
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  browser = await launchChromium();
  await buildSite();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

/** Every page the web app has, with what shows it has loaded. */
function pages(): { name: string; path: string }[] {
  const sessions = `${site.project}/sessions`;
  return [
    { name: "projects", path: "/projects" },
    { name: "project-home", path: site.project },
    { name: "settings", path: `${site.project}/settings` },
    { name: "webhook", path: site.webhook },
    { name: "sessions-list", path: sessions },
    { name: "new-collect", path: `${sessions}/new?kind=collect` },
    { name: "new-verify", path: `${sessions}/new?kind=verify` },
    { name: "collect-session", path: `${sessions}/${site.collect.id}` },
    { name: "verify-session", path: `${sessions}/${site.verify.id}` },
    { name: "docs", path: "/docs" },
    { name: "proof-page", path: `/p/${site.collect.connection_identifier}` },
    { name: "signup", path: "/signup" },
    { name: "signin", path: "/signin" },
    { name: "account-security", path: "/account/security" },
  ].map((page) => ({ ...page, path: page.path.replace(ctx.worker.url, "") }));
}

/**
 * What makes a page fail, measured inside it: its width against the viewport, with the outermost
 * elements that stick out, and the contrast of the text on every visible button, link-button,
 * field and menu against what is behind it. (A string: it runs in the page, not in Node.)
 */
const AUDIT_SCRIPT = `(() => {
  const width = document.documentElement.clientWidth;
  const culprits = [];
  for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    const parent = element.parentElement && element.parentElement.getBoundingClientRect();
    if (parent && parent.right > width + 0.5) continue;
    culprits.push("<" + element.tagName.toLowerCase() + ' class="' + element.className + '"> to ' + Math.round(box.right) + "px");
  }
  const rgba = (value) => {
    const [r = 0, g = 0, b = 0, a = 1] = (value.match(/[\\d.]+/g) || []).map(Number);
    return { r, g, b, a };
  };
  const channel = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = ({ r, g, b }) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const behind = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color.a > 0.5) return color;
    }
    return rgba(getComputedStyle(document.documentElement).backgroundColor);
  };
  const contrasts = [];
  for (const element of document.querySelectorAll("button, .button, select, input:not([type=hidden]), textarea, summary")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(element);
    const text = luminance(rgba(style.color));
    const back = luminance(behind(element));
    contrasts.push({
      what: "<" + element.tagName.toLowerCase() + ' class="' + element.className + '"> "' + (element.textContent || "").trim().slice(0, 30) + '" (' + style.color + " on " + style.backgroundColor + ")",
      ratio: (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05),
    });
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, culprits, contrasts };
})()`;

interface Audit {
  scrollWidth: number;
  width: number;
  culprits: string[];
  contrasts: { what: string; ratio: number }[];
}

describe("every page of the web app, on a phone and a laptop, light and dark", () => {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS))
    for (const colorScheme of SCHEMES)
      it(`fits ${viewport.width} px in ${colorScheme}, with readable buttons and fields, and passes axe-core's WCAG 2.1 AA rules`, async () => {
        const context = await browser.newContext({
          viewport,
          colorScheme,
          storageState: signedIn,
          isMobile: viewportName === "phone",
          hasTouch: viewportName === "phone",
        });
        const page = await context.newPage();
        const problems: string[] = [];
        try {
          for (const { name, path } of pages()) {
            const response = await page.goto(`${ctx.worker.url}${path}`);
            expect(response?.status(), `${name} ${path}`).toBe(200);
            const audit = await page.evaluate<Audit>(AUDIT_SCRIPT);
            if (audit.scrollWidth > audit.width)
              problems.push(
                `${name}: ${audit.scrollWidth}px wide in ${audit.width}px: ${audit.culprits.slice(0, 3).join(", ")}`,
              );
            for (const { what, ratio } of audit.contrasts)
              if (ratio < MIN_CONTRAST) problems.push(`${name}: ${ratio.toFixed(2)}:1 ${what}`);
            // WCAG 2.1 A and AA, as axe-core checks them: none on any page.
            for (const violation of await axeViolations(page))
              problems.push(`${name}: axe ${violation}`);
            const shot = `${name}-${viewportName}-${colorScheme}`;
            // The reference is 50,000 px long on a phone: its first screen says enough.
            if (SCREENSHOTS.has(shot)) await screenshot(page, shot, name !== "docs");
          }
        } finally {
          await context.close();
        }
        expect(problems).toEqual([]);
      });
});

describe("the dashboard as a new user meets it", () => {
  async function laptopPage() {
    const context = await browser.newContext({
      viewport: VIEWPORTS.laptop,
      storageState: signedIn,
    });
    return { context, page: await context.newPage() };
  }

  it("lists both kinds of session by default, with a button for each", async () => {
    const { context, page } = await laptopPage();
    const api = apiClient(ctx.worker.url, site.apiKey);
    const fresh = await api.createSession("verify", {
      keys: [{ public_key: makeKey("ed25519").publicKey }],
    });
    await page.goto(`${site.project}/sessions`);
    const column = (n: number) =>
      page.$$eval(`table tbody td:nth-child(${n})`, (cells) =>
        cells.map((cell) => cell.textContent?.trim()),
      );
    const [ids, kinds] = [await column(1), await column(2)];
    expect([ids[0], kinds[0]]).toEqual([fresh.id, "Verification"]);
    expect(ids).toEqual(expect.arrayContaining([site.collect.id, site.verify.id]));
    expect(kinds).toContain("Collection");
    expect(await page.textContent(".title-row")).toMatch(
      /New collection session[\s\S]*New verification session/,
    );
    await context.close();
  });

  it("follows the kind with its statuses, without a submit button", async () => {
    const { context, page } = await laptopPage();
    await page.goto(`${site.project}/sessions`);
    expect(await page.isVisible('form[data-filters] button[type="submit"]')).toBe(false);
    await Promise.all([
      page.waitForURL(/kind=collect/),
      page.selectOption('select[name="kind"]', "collect"),
    ]);
    const statuses = () =>
      page.$$eval('select[name="status"] option', (options) =>
        options
          .filter((option) => !option.hasAttribute("hidden"))
          .map((option) => option.getAttribute("value")),
      );
    expect(await statuses()).toEqual(["", "pending", "completed", "expired"]);
    expect(await page.textContent("tbody")).not.toContain(site.verify.id);
    await Promise.all([
      page.waitForURL(/kind=verify/),
      page.selectOption('select[name="kind"]', "verify"),
    ]);
    expect(await statuses()).toEqual(["", "pending", "verified", "failed", "expired"]);
    await context.close();
  });

  it("keeps what the user typed when a form comes back, with the error beside the field", async () => {
    const { context, page } = await laptopPage();
    await page.goto(`${site.project}/sessions/new?kind=verify`);
    await page.fill('input[name="external_id"]', "order-1234");
    await page.fill('textarea[name="keys"]', "not a key at all");
    await page.fill('input[name="timeout"]', "5");
    await page.check('input[name="must_confirm"]');
    // Past the browser's own checks (min=60), as a browser without them would send it.
    await page.$eval("form.stack", (form) => form.setAttribute("novalidate", ""));
    const response = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      page.click('button:has-text("Create session")'),
    ]).then(([answer]) => answer);
    expect(response.status()).toBe(400);
    expect(await page.inputValue('input[name="external_id"]')).toBe("order-1234");
    expect(await page.inputValue('textarea[name="keys"]')).toBe("not a key at all");
    expect(await page.inputValue('input[name="timeout"]')).toBe("5");
    expect(await page.isChecked('input[name="must_confirm"]')).toBe(true);
    const timeoutError = await page.textContent("label:has(input[name=timeout]) .field-error");
    expect(timeoutError).toBe("timeout must be at least 60");
    expect(page.url()).not.toMatch(/error|notice|timeout/);

    // Sign-up states its rule before anyone fails it, and keeps the email when they do.
    const visitor = await browser.newContext({ viewport: VIEWPORTS.phone });
    const signup = await visitor.newPage();
    await signup.goto(`${ctx.worker.url}/signup`);
    expect(await signup.textContent("#password-rule")).toBe("At least 10 characters.");
    await signup.fill('input[name="email"]', "not-an-email@");
    await signup.$eval('input[name="email"]', (input) => input.removeAttribute("type"));
    await signup.fill('input[name="password"]', "a long enough password");
    await signup.click('button[type="submit"]');
    await signup.waitForLoadState();
    expect(await signup.inputValue('input[name="email"]')).toBe("not-an-email@");
    expect(await signup.inputValue('input[name="password"]')).toBe("");
    expect(await signup.textContent(".field-error")).toBe("Enter a valid email address");
    expect(signup.url()).toBe(`${ctx.worker.url}/signup`);
    await visitor.close();

    // The webhook form too.
    await page.goto(`${site.project}/webhooks/new`);
    await page.$eval("form.stack", (form) => form.setAttribute("novalidate", ""));
    await page.fill('input[name="url"]', "ftp://example.com/hook");
    await page.click('button:has-text("Create webhook")');
    await page.waitForLoadState();
    expect(await page.inputValue('input[name="url"]')).toBe("ftp://example.com/hook");
    expect(await page.textContent("label:has(input[name=url]) .field-error")).toBeTruthy();
    await context.close();
  });

  it("shows the project at a glance: proofs per day, success rate and key types", async () => {
    const { context, page } = await laptopPage();
    const readCharts = async () => {
      await page.goto(site.project);
      return page.$$eval("svg.chart", (svgs) =>
        svgs.map((svg) => ({
          label: svg.getAttribute("aria-label") ?? "",
          bars: [...svg.querySelectorAll("rect.bar")].filter(
            (bar) =>
              Number(bar.getAttribute("width")) > 0 && Number(bar.getAttribute("height")) > 0,
          ).length,
        })),
      );
    };
    // The home reads D1's index, which each session's object feeds just after a change.
    await expect
      .poll(async () => (await readCharts())[1]?.label, { timeout: 10_000 })
      .toBe("2 of 3 connections proved a key that counted");
    const charts = await readCharts();
    expect(charts).toHaveLength(3);
    // Three connections: alice collected, bob not expected, alice verified.
    expect(charts[0]?.label).toMatch(/^2 proofs in 30 days/);
    expect(charts[1]?.label).toBe("2 of 3 connections proved a key that counted");
    expect(charts[2]?.label).toBe("ED25519: 2");
    for (const chart of charts) expect(chart.bars).toBeGreaterThan(0);
    expect(await page.textContent(".cards")).toContain("67 %");
    await context.close();
  });

  it("fits the signed-in header on one row, with a menu on a phone", async () => {
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone, storageState: signedIn });
    const page = await phone.newPage();
    await page.goto(`${site.project}/sessions`);
    const header = await page.$eval(
      "header.site",
      (element) => element.getBoundingClientRect().height,
    );
    // One row is ~55 px (the menu button is the tallest thing in it); two would be over 90.
    expect(header).toBeLessThan(64);
    expect(await page.isVisible("header nav.links")).toBe(false);
    await page.click("header .menu summary");
    expect(await page.isVisible('header .menu a:has-text("Settings")')).toBe(true);
    expect(await page.isVisible('header .menu button:has-text("Sign out")')).toBe(true);
    await phone.close();

    const { context, page: laptop } = await laptopPage();
    await laptop.goto(`${site.project}/sessions`);
    expect(
      await laptop.$eval("header.site", (element) => element.getBoundingClientRect().height),
    ).toBeLessThan(64);
    const tops: number[] = [];
    for (const selector of [
      "header .brand",
      "header nav.links a",
      "header .account a",
      "header .account button",
    ])
      tops.push(await laptop.$eval(selector, (element) => element.getBoundingClientRect().bottom));
    // One baseline: the same font's text boxes end within a pixel of each other.
    for (const bottom of tops) expect(Math.abs(bottom - (tops[0] ?? 0))).toBeLessThanOrEqual(2);
    expect(await laptop.getAttribute('header nav.links a[aria-current="page"]', "href")).toMatch(
      /\/sessions$/,
    );
    const icon = await fetch(
      `${ctx.worker.url}${await laptop.getAttribute('link[rel="icon"]', "href")}`,
    );
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toContain("<svg");
    await context.close();
  });
  // Last: it adds a connection to the project the overview counts.
  it("redacts a closed session only once the box is ticked, and then shows none of its keys", async () => {
    const { context, page } = await laptopPage();
    const api = apiClient(ctx.worker.url, site.apiKey);
    const carol = makeKey("ed25519");
    const session = await api.createSession("collect", { external_id: "carol-at-acme" });
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [carol] });
    await page.goto(`${site.project}/sessions/${session.id}`);
    expect(await page.textContent("main")).toContain(carol.sha256);
    // Unticked, the browser refuses to send the form: nothing is redacted.
    await page.click('#redact-form button[type="submit"]');
    expect(
      await page.$eval("#redact-form input[name=confirm]", (box) => box.matches(":invalid")),
    ).toBe(true);
    expect((await api.getSession("collect", session.id)).redacted_at).toBeNull();

    await page.check("#redact-form input[name=confirm]");
    await Promise.all([page.waitForURL(/\/sessions\/cs_/), page.click("#redact-form button")]);
    const text = (await page.textContent("main")) ?? "";
    expect(text).toContain("Session redacted");
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(carol.sha256);
    expect(text).not.toContain("carol-at-acme");
    expect(await page.$("#redact-form")).toBeNull();
    const redacted = await api.getSession("collect", session.id);
    expect(redacted.redacted_at).toEqual(expect.any(String));
    expect(redacted.external_id).toBeNull();
    await context.close();
  });

  it("asks before deleting a session or revoking a key, with each box beside its sentence", async () => {
    const { context, page } = await laptopPage();
    const api = apiClient(ctx.worker.url, site.apiKey);
    const session = await api.createSession("collect");
    await page.goto(`${site.project}/sessions/${session.id}`);
    // What destroys is red wherever it is offered: the Delete that opens the question as the
    // button that answers it (and Redact beside them).
    const background = (selector: string) =>
      page.$eval(selector, (element) => {
        // The page's own window: this file's types have no DOM library.
        const view = element.ownerDocument.defaultView as unknown as {
          getComputedStyle(of: unknown): { backgroundColor: string };
        };
        return view.getComputedStyle(element).backgroundColor;
      });
    expect(await background('details.confirm summary:has-text("Delete")')).toBe(
      await background('details.confirm form[action$="/delete"] button[type="submit"]'),
    );
    // One click opens the question; the button under it refuses to send until the box is ticked.
    await page.click('details.confirm summary:has-text("Delete")');
    const form = `details.confirm form[action$="/delete"]`;
    await page.click(`${form} button[type="submit"]`);
    expect(await page.$eval(`${form} input[name=confirm]`, (box) => box.matches(":invalid"))).toBe(
      true,
    );
    await api.request("GET", `/ssh/collect/sessions/${session.id}/`);
    await page.check(`${form} input[name=confirm]`);
    await Promise.all([page.waitForURL(/\/sessions$/), page.click(`${form} button`)]);
    expect(await page.textContent("main")).toContain("Session deleted.");
    await api.request("GET", `/ssh/collect/sessions/${session.id}/`, undefined, 404);

    // Every confirming checkbox sits on the line of its sentence, at its start.
    await page.goto(`${site.project}/settings`);
    await page.click("#api-keys ~ .table-wrap details.confirm summary, details.confirm summary");
    const boxes = await page.$$eval("label.check", (labels) =>
      labels
        .filter((label) => label.getBoundingClientRect().height > 0)
        .map((label) => {
          const box = label.querySelector("input")?.getBoundingClientRect() ?? {
            top: -1,
            left: -1,
          };
          const text = label.getBoundingClientRect();
          return { boxTop: box.top, textTop: text.top, boxLeft: box.left, textLeft: text.left };
        }),
    );
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(Math.abs(box.boxTop - box.textTop)).toBeLessThan(12);
      expect(Math.abs(box.boxLeft - box.textLeft)).toBeLessThan(8);
    }
    await context.close();
  });
});
