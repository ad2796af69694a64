import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call } from "./helpers.ts";
import { Browser, browserWithProject, signedUpBrowser } from "./web-client.ts";

const key = (label: string) => env.TEST_KEYS.accepted.find((fixture) => fixture.label === label);

describe("accounts", () => {
  it("shows the landing page and sends anonymous visitors to sign in", async () => {
    const browser = new Browser();
    expect((await browser.get("/")).html).toContain("Create an account");
    const projects = await browser.get("/projects");
    expect(projects.status).toBe(303);
    expect(projects.location).toBe("/signin?next=%2Fprojects");
    expect((await browser.get("/app.css")).html).toContain("--accent");
  });

  it("signs up, signs out and signs in again with HttpOnly, Secure, SameSite cookies", async () => {
    const { browser, email, password } = await signedUpBrowser();
    const home = await browser.get("/projects");
    expect(home.html).toContain(email);
    const raw = await (await call("/signin")).headers.getSetCookie();
    expect(raw.join("\n")).toMatch(/kp_csrf=.*HttpOnly.*Secure.*SameSite=Lax/i);
    const signedOut = await browser.post("/signout");
    expect(signedOut.location).toBe("/");
    expect((await browser.get("/projects")).status).toBe(303);
    const signedIn = await browser.post("/signin", { email, password, next: "/projects" });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/projects");
    expect((await browser.get("/projects")).html).toContain(email);
  });

  it("refuses weak passwords and taken emails with a message", async () => {
    const browser = new Browser();
    const weak = await browser.follow(
      await browser.post("/signup", { email: "weak@example.com", password: "short" }),
    );
    expect(weak.html).toContain("at least 10 characters");
    const { email } = await signedUpBrowser();
    const taken = await browser.follow(
      await browser.post("/signup", { email, password: "another long password" }),
    );
    expect(taken.html).toContain("already exists");
  });

  it("answers a wrong password and an unknown email with the same generic message", async () => {
    const { email } = await signedUpBrowser();
    const browser = new Browser();
    const wrong = await browser.post("/signin", { email, password: "wrong password!!" });
    const unknown = await browser.post("/signin", {
      email: `nobody-${crypto.randomUUID()}@example.com`,
      password: "wrong password!!",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = "That email and password do not match an account.";
    expect(wrong.html).toContain(message);
    expect(unknown.html).toContain(message);
    expect(browser.cookies.has("kp_session")).toBe(false);
  });

  it("limits sign-in attempts per email", async () => {
    const { email } = await signedUpBrowser();
    const browser = new Browser();
    for (let i = 0; i < 10; i++)
      expect((await browser.post("/signin", { email, password: "wrong password!!" })).status).toBe(
        401,
      );
    const limited = await browser.post("/signin", { email, password: "correct horse battery" });
    expect(limited.status).toBe(429);
    expect(limited.html).toContain("Too many attempts");
  });

  it("refuses forms without the CSRF token, or with another one", async () => {
    const { browser } = await signedUpBrowser();
    expect((await browser.post("/projects", { name: "No token" }, null)).status).toBe(403);
    expect((await browser.post("/projects", { name: "Bad token" }, "0".repeat(32))).status).toBe(
      403,
    );
    const projects = await browser.get("/projects");
    expect(projects.html).not.toContain("No token");
    expect(projects.html).not.toContain("Bad token");
  });

  it("does not follow a next= that leaves the site", async () => {
    const { email, password } = await signedUpBrowser();
    const browser = new Browser();
    const page = await browser.post("/signin", { email, password, next: "//evil.example/" });
    expect(page.location).toBe("/projects");
  });
});

describe("projects and settings", () => {
  it("creates and renames a project; another account gets 404", async () => {
    const { browser, projectId } = await browserWithProject("Alpha");
    expect((await browser.get("/projects")).html).toContain("Alpha");
    await browser.post(`/projects/${projectId}/rename`, { name: "Beta" });
    expect((await browser.get(`/projects/${projectId}/settings`)).html).toContain("Beta");
    const stranger = await signedUpBrowser();
    for (const path of ["settings", "sessions", "webhooks/new", "sessions/new"]) {
      expect((await stranger.browser.get(`/projects/${projectId}/${path}`)).status).toBe(404);
    }
    expect(
      (await stranger.browser.post(`/projects/${projectId}/rename`, { name: "Taken" })).status,
    ).toBe(404);
  });

  it("shows a new API key exactly once, and revokes it", async () => {
    const { browser, projectId } = await browserWithProject();
    const created = await browser.post(`/projects/${projectId}/api-keys`, {
      name: "ci",
      expires_on: "",
    });
    const plaintext =
      created.html.match(/<code id="new-api-key">(kp_live_[0-9a-z]+)<\/code>/)?.[1] ?? "";
    expect(plaintext).toMatch(/^kp_live_/);
    expect((await call("/api/v1/auth/info/", { key: plaintext })).status).toBe(200);
    const settings = await browser.get(`/projects/${projectId}/settings`);
    expect(settings.html).not.toContain(plaintext);
    expect(settings.html).toContain(plaintext.slice(0, 12));
    const keyId = settings.html.match(/api-keys\/(key_[0-9a-z]+)\/revoke/)?.[1];
    await browser.post(`/projects/${projectId}/api-keys/${keyId}/revoke`);
    expect((await call("/api/v1/auth/info/", { key: plaintext })).status).toBe(401);
    expect((await browser.get(`/projects/${projectId}/settings`)).html).toContain("revoked");
  });

  it("refuses an API key expiring in the past", async () => {
    const { browser, projectId } = await browserWithProject();
    const page = await browser.follow(
      await browser.post(`/projects/${projectId}/api-keys`, {
        name: "old",
        expires_on: "2020-01-01",
      }),
    );
    expect(page.html).toContain("must be in the future");
  });

  it("adds and removes members by email", async () => {
    const { browser, projectId } = await browserWithProject("Shared");
    const friend = await signedUpBrowser();
    expect((await friend.browser.get(`/projects/${projectId}/sessions`)).status).toBe(404);
    await browser.post(`/projects/${projectId}/members`, { email: friend.email.toUpperCase() });
    expect((await friend.browser.get("/projects")).html).toContain("Shared");
    expect((await friend.browser.get(`/projects/${projectId}/sessions`)).status).toBe(200);
    const unknown = await browser.follow(
      await browser.post(`/projects/${projectId}/members`, { email: "ghost@example.com" }),
    );
    expect(unknown.html).toContain("No account uses this email");
    const settings = await browser.get(`/projects/${projectId}/settings`);
    const friendId = [...settings.html.matchAll(/members\/(acc_[0-9a-z]+)\/remove/g)]
      .map((match) => match[1])
      .at(-1);
    await browser.post(`/projects/${projectId}/members/${friendId}/remove`);
    expect((await friend.browser.get(`/projects/${projectId}/sessions`)).status).toBe(404);
  });
});

describe("webhooks in the browser", () => {
  it("creates, edits, reveals, tests and deletes a webhook", async () => {
    const { browser, projectId } = await browserWithProject();
    const created = await browser.post(`/projects/${projectId}/webhooks`, {
      url: `${env.RECEIVER_URL}/ok/web-${crypto.randomUUID()}`,
      method: "post",
      events: ["ping", "verified"],
      headers: "X-Team: keys",
      retries: "3",
      initial_backoff: "5",
      backoff_multiplier: "2",
      enabled: "on",
    });
    const hookPage = await browser.follow(created);
    expect(hookPage.html).toContain("Webhook created.");
    const path = created.location?.split("?")[0] ?? "";
    expect(hookPage.html).toContain("X-Team: keys");
    expect(hookPage.html).not.toContain("whsec_");
    expect((await browser.post(`${path}/secret`)).html).toMatch(/<code id="webhook-secret">whsec_/);
    const edited = await browser.follow(
      await browser.post(path, {
        url: `${env.RECEIVER_URL}/ok/edited`,
        method: "put",
        retries: "1",
        initial_backoff: "1",
        backoff_multiplier: "1",
      }),
    );
    expect(edited.html).toContain("/ok/edited");
    expect(edited.html).toContain('value="put" selected');
    const tested = await browser.follow(await browser.post(`${path}/test`));
    expect(tested.html).toContain("Test event sent.");
    expect(tested.html).toMatch(/ping <span class="muted mono">whi_/);
    const bad = await browser.follow(await browser.post(path, { url: "ftp://nope" }));
    expect(bad.html).toContain("url: Must be an http or https URL");
    await browser.post(`${path}/delete`);
    expect((await browser.get(path)).status).toBe(404);
  });
});

describe("sessions in the browser", () => {
  it("creates a collection session and shows its command, connections and fingerprints", async () => {
    const { browser, projectId } = await browserWithProject();
    const created = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "collect",
      external_id: "web-user",
      ssh_message: "Thanks",
    });
    const detail = await browser.follow(created);
    const identifier = detail.html.match(/ssh -p 2222 ([0-9a-z]{26})@localhost/)?.[1] ?? "";
    expect(identifier).not.toBe("");
    expect(detail.html).toContain("Nobody has connected yet.");
    const ed = key("ed25519");
    await connectAndFinish(identifier, { keys: [blobOf(ed?.openssh ?? "")] });
    const after = await browser.get(created.location?.split("?")[0] ?? "");
    expect(after.html).toContain(`<code class="fingerprint">${ed?.sha256}</code>`);
    expect(after.html).toMatch(/status-completed/);
    expect(after.html).toContain("key_collected");
  });

  it("creates a verification session from pasted keys in several formats", async () => {
    const { browser, projectId } = await browserWithProject();
    const keys = [key("ed25519")?.openssh, key("ecdsa-384")?.rfc4716, key("rsa-2048")?.pem[0]].join(
      "\n",
    );
    const detail = await browser.follow(
      await browser.post(`/projects/${projectId}/sessions`, {
        kind: "verify",
        keys,
        max_attempts: "2",
        match_all_keys: "on",
      }),
    );
    for (const label of ["ed25519", "ecdsa-384", "rsa-2048"])
      expect(detail.html).toContain(key(label)?.sha256);
    expect(detail.html).toContain("Failed attempts: 0 of 2");
    const invalid = await browser.follow(
      await browser.post(`/projects/${projectId}/sessions`, {
        kind: "verify",
        keys: "ssh-ed25519 garbage",
      }),
    );
    expect(invalid.html).toContain("keys[0].public_key");
  });

  it("lists with kind and status filters and pages", async () => {
    const { browser, projectId } = await browserWithProject();
    for (let i = 0; i < 3; i++)
      await browser.post(`/projects/${projectId}/sessions`, {
        kind: "collect",
        external_id: `c${i}`,
        multi_connection: "on",
      });
    const list = await browser.get(`/projects/${projectId}/sessions?kind=collect`);
    expect(list.html).toContain("1–3 of 3");
    const firstId = list.html.match(/sessions\/(cs_[0-9a-z]+)/)?.[1];
    await browser.post(`/projects/${projectId}/sessions/${firstId}/complete`);
    expect(
      (await browser.get(`/projects/${projectId}/sessions?kind=collect&status=completed`)).html,
    ).toContain("1–1 of 1");
    expect((await browser.get(`/projects/${projectId}/sessions?kind=verify`)).html).toContain(
      "No sessions.",
    );
  });

  it("honours the 409 rules for complete and deletes", async () => {
    const { browser, projectId } = await browserWithProject();
    const detail = await browser.post(`/projects/${projectId}/sessions`, { kind: "collect" });
    const path = detail.location?.split("?")[0] ?? "";
    const refused = await browser.follow(await browser.post(`${path}/complete`));
    expect(refused.html).toContain("Only a multi-connection session can be completed");
    const deleted = await browser.follow(await browser.post(`${path}/delete`));
    expect(deleted.html).toContain("Session deleted.");
    expect((await browser.get(path)).status).toBe(404);
  });
});
