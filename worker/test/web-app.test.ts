import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accounts } from "../src/db/directory.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, directory } from "./helpers.ts";
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
    // The form comes back with the email kept, the password not, and the problem beside it.
    const weak = await browser.post("/signup", { email: "weak@example.com", password: "short" });
    expect(weak.status).toBe(400);
    expect(weak.html).toMatch(
      /<span class="field-error" id="password-error" role="alert">Use a password of at least 10 characters<\/span>/,
    );
    expect(weak.html).toContain('value="weak@example.com"');
    expect(weak.html).not.toContain("short");
    const { email } = await signedUpBrowser();
    const taken = await browser.post("/signup", { email, password: "another long password" });
    expect(taken.status).toBe(400);
    expect(taken.html).toContain("No account can be created with this email");
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

  it("counts wrong passwords per account and address, so the owner can still sign in", async () => {
    const { email, password } = await signedUpBrowser();
    const attacker = new Browser();
    for (let i = 0; i < 10; i++) {
      const page = await attacker.post("/signin", { email, password: "wrong password!!" });
      expect(page.status).toBe(401);
    }
    const limited = await attacker.post("/signin", { email, password });
    expect(limited.status).toBe(429);
    expect(limited.html).toContain("Too many attempts");
    // The owner, from their own address, is not locked out by someone else's guesses.
    const owner = new Browser();
    expect((await owner.post("/signin", { email, password })).status).toBe(303);
    // Signing in successfully is never counted.
    for (let i = 0; i < 12; i++) {
      expect((await new Browser().post("/signin", { email, password })).status).toBe(303);
    }
  });

  it("limits sign-ups per address", async () => {
    const browser = new Browser();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      browser.cookies.clear();
      const page = await browser.post("/signup", {
        email: `burst-${crypto.randomUUID()}@example.com`,
        password: "correct horse battery",
      });
      statuses.push(page.status);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
  });

  it("refuses forms without the CSRF token, or with another one", async () => {
    const { browser } = await signedUpBrowser();
    expect((await browser.post("/projects", { name: "No token" }, null)).status).toBe(403);
    expect((await browser.post("/projects", { name: "Bad token" }, "0".repeat(32))).status).toBe(
      403,
    );
    // A token that was valid, but for another signed-in session.
    const other = await signedUpBrowser();
    await other.browser.get("/projects");
    const foreign = await browser.post("/projects", { name: "Foreign token" }, other.browser.csrf);
    expect(foreign.status).toBe(403);
    // The anonymous cookie value no longer passes once signed in.
    const cookieToken = browser.cookies.get("kp_csrf") ?? null;
    expect((await browser.post("/projects", { name: "Cookie token" }, cookieToken)).status).toBe(
      403,
    );
    const projects = await browser.get("/projects");
    for (const name of ["No token", "Bad token", "Foreign token", "Cookie token"])
      expect(projects.html).not.toContain(name);
  });

  it.each([
    ["another site", "//evil.example/", "/projects"],
    ["a tab that browsers drop", "/\t/evil.example/phish", "/projects"],
    ["a backslash", "/\\evil.example", "/projects"],
    ["CR LF", "/projects\r\nSet-Cookie: x=y", "/projects"],
    ["an absolute URL", "https://evil.example/", "/projects"],
    [
      "a path on this site",
      "/projects/prj_x/sessions?kind=verify#top",
      "/projects/prj_x/sessions?kind=verify#top",
    ],
  ])("after sign-in, follows next= only to this site (%s)", async (_, next, location) => {
    const { email, password } = await signedUpBrowser();
    const browser = new Browser();
    const page = await browser.post("/signin", { email, password, next });
    expect(page.status).toBe(303);
    expect(page.location).toBe(location);
  });

  it("refuses a form body over 64 KiB before reading it, signed in or not", async () => {
    const huge = `email=a%40b.c&password=${"x".repeat(30 * 1024 * 1024)}`;
    for (const path of ["/signin", "/signup", "/projects"]) {
      const response = await call(path, {
        method: "POST",
        rawBody: huge,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status).toBe(413);
    }
  });

  it("uses __Host- cookies over HTTPS and sends security headers", async () => {
    const browser = new Browser("https://keyproof.example");
    const page = await browser.post("/signup", {
      email: `https-${crypto.randomUUID()}@example.com`,
      password: "correct horse battery",
    });
    expect(page.status).toBe(303);
    // The welcome banner rides in a cookie too, named the same way.
    expect([...browser.cookies.keys()].sort()).toEqual([
      "__Host-kp_csrf",
      "__Host-kp_flash",
      "__Host-kp_session",
    ]);
    expect((await browser.get("/projects")).status).toBe(200);
    const response = await call("/signin");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(await response.text()).not.toMatch(/<script>[^<]/);
  });

  it.each([
    "/projects/%0d%0aSet-Cookie:%20x=y",
    "/projects/%0d%0a/settings",
    "/projects/prj_x/sessions/%0d%0a",
    "/projects/%00/webhooks/%ff",
    "/invitations/%0d%0a",
  ])("answers %s without a 500, signed in or not", async (path) => {
    const { browser } = await signedUpBrowser();
    expect((await browser.get(path)).status).toBeLessThan(500);
    expect((await new Browser().get(path)).status).toBeLessThan(500);
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
    // Post, redirect, get: the page after the redirect shows the key, and only that once.
    const created = await browser.follow(
      await browser.post(`/projects/${projectId}/api-keys`, { name: "ci", expires_on: "" }),
    );
    const plaintext =
      created.html.match(/<code id="new-api-key">(kp_live_[0-9a-z]+)<\/code>/)?.[1] ?? "";
    expect(plaintext).toMatch(/^kp_live_/);
    expect((await call("/api/v1/auth/info/", { key: plaintext })).status).toBe(200);
    const settings = await browser.get(`/projects/${projectId}/settings`);
    expect(settings.html).not.toContain(plaintext);
    expect(settings.html.match(/api-keys\/key_[0-9a-z]+\/revoke/g)).toHaveLength(1);
    expect(settings.html).toContain(plaintext.slice(0, 12));
    const keyId = settings.html.match(/api-keys\/(key_[0-9a-z]+)\/revoke/)?.[1];
    // One click does not do it: the box naming what follows must be ticked.
    const unticked = await browser.follow(
      await browser.post(`/projects/${projectId}/api-keys/${keyId}/revoke`),
    );
    expect(unticked.html).toContain("Tick the box to confirm revoking the key.");
    expect((await call("/api/v1/auth/info/", { key: plaintext })).status).toBe(200);
    await browser.post(`/projects/${projectId}/api-keys/${keyId}/revoke`, { confirm: "revoke" });
    expect((await call("/api/v1/auth/info/", { key: plaintext })).status).toBe(401);
    expect((await browser.get(`/projects/${projectId}/settings`)).html).toContain("revoked");
  });

  it("refuses an API key expiring in the past", async () => {
    const { browser, projectId } = await browserWithProject();
    const page = await browser.post(`/projects/${projectId}/api-keys`, {
      name: "old",
      expires_on: "2020-01-01",
    });
    expect(page.status).toBe(400);
    expect(page.html).toMatch(
      /id="expires_on-error" role="alert">The expiry date must be in the future/,
    );
    expect(page.html).toContain(
      'name="name" required="" maxlength="100" placeholder="production" value="old"',
    );
  });

  it("invites with a single-use link that an owner can revoke", async () => {
    const { browser, projectId } = await browserWithProject("Shared");
    const friend = await signedUpBrowser();
    expect((await friend.browser.get(`/projects/${projectId}/sessions`)).status).toBe(404);
    const created = await browser.follow(await browser.post(`/projects/${projectId}/invitations`));
    const link = created.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/invitations\/[0-9a-z]{32}$/);
    // The link is shown once; the settings page lists the invitation without it.
    const settings = await browser.get(`/projects/${projectId}/settings`);
    expect(settings.html).not.toContain(path);
    expect(settings.html).toMatch(/invitations\/inv_[0-9a-z]+\/revoke/);
    // Signed out, the link leads to sign-in and back.
    const anonymous = await new Browser().get(path);
    expect(anonymous.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
    expect((await friend.browser.get(path)).html).toContain("Join Shared");
    const joined = await friend.browser.post(path);
    expect(joined.location).toContain(`/projects/${projectId}/sessions`);
    expect((await friend.browser.get("/projects")).html).toContain("Shared");
    // A member may leave; the project's only owner is not offered a way out.
    const leave = /<button type="submit" class="secondary">Leave<\/button>/;
    expect((await friend.browser.get(`/projects/${projectId}/settings`)).html).toMatch(leave);
    expect((await browser.get(`/projects/${projectId}/settings`)).html).not.toMatch(leave);
    // Used once, it is gone: nobody else joins with it.
    const third = await signedUpBrowser();
    expect((await third.browser.get(path)).status).toBe(404);
    expect((await third.browser.post(path)).status).toBe(404);
    expect((await third.browser.get(`/projects/${projectId}/sessions`)).status).toBe(404);
    // A revoked link does not work either.
    const second = await browser.follow(await browser.post(`/projects/${projectId}/invitations`));
    const secondPath = new URL(
      second.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "",
    ).pathname;
    const invitationId = second.html.match(/invitations\/(inv_[0-9a-z]+)\/revoke/)?.[1];
    await browser.post(`/projects/${projectId}/invitations/${invitationId}/revoke`);
    expect((await third.browser.post(secondPath)).status).toBe(404);
    // Members do not manage members; the owner removes them.
    expect((await friend.browser.post(`/projects/${projectId}/invitations`)).status).toBe(403);
    const friendId = [
      ...(await browser.get(`/projects/${projectId}/settings`)).html.matchAll(
        /members\/(acc_[0-9a-z]+)\/remove/g,
      ),
    ]
      .map((match) => match[1])
      .at(-1);
    await browser.post(`/projects/${projectId}/members/${friendId}/remove`);
    expect((await friend.browser.get(`/projects/${projectId}/sessions`)).status).toBe(404);
  });

  it("keeps an invitation through sign-up for someone with no account yet", async () => {
    const { browser, projectId } = await browserWithProject("Invited");
    const created = await browser.follow(await browser.post(`/projects/${projectId}/invitations`));
    const link = created.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    const path = new URL(link).pathname;
    const newcomer = new Browser();
    const signIn = await newcomer.get((await newcomer.get(path)).location ?? "");
    // The sign-in page's "Sign up" link carries where they were going, and the form keeps it.
    const signUpHref = signIn.html.match(/<a href="([^"]+)">Sign up<\/a>/)?.[1] ?? "";
    expect(signUpHref).toBe(`/signup?next=${encodeURIComponent(path)}`);
    const signUp = await newcomer.get(signUpHref.replaceAll("&amp;", "&"));
    expect(signUp.html).toContain(`<input type="hidden" name="next" value="${path}"/>`);
    const made = await newcomer.post("/signup", {
      email: `invited-${crypto.randomUUID()}@example.com`,
      password: "correct horse battery",
      next: path,
    });
    // Signed up, they land on the invitation, and can join.
    expect(made.location).toBe(path);
    expect((await newcomer.get(path)).html).toContain("Join Invited");
    const joined = await newcomer.post(path);
    expect(joined.location).toContain(`/projects/${projectId}/sessions`);
    // Somewhere else entirely is not where sign-up sends anyone.
    const elsewhere = await new Browser().post("/signup", {
      email: `elsewhere-${crypto.randomUUID()}@example.com`,
      password: "correct horse battery",
      next: "https://evil.example/",
    });
    expect(elsewhere.location).toBe("/projects");
  });

  it("lets only one of two people join with the same link at once", async () => {
    const { browser, projectId } = await browserWithProject("Race");
    const created = await browser.follow(await browser.post(`/projects/${projectId}/invitations`));
    const path = new URL(
      created.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "",
    ).pathname;
    const [a, b] = [await signedUpBrowser(), await signedUpBrowser()];
    await Promise.all([a.browser.get("/signin"), b.browser.get("/signin")]);
    const results = await Promise.all([a.browser.post(path), b.browser.post(path)]);
    expect(results.map((page) => page.status).sort()).toEqual([303, 404]);
    const members = await Promise.all(
      [a, b].map(
        async (user) => (await user.browser.get(`/projects/${projectId}/sessions`)).status,
      ),
    );
    expect(members.sort()).toEqual([200, 404]);
  });

  it("refuses an expired invitation", async () => {
    const { projectId } = await browserWithProject("Old");
    const { createInvitation } = await import("../src/domain/invitations.ts");
    const { token } = await createInvitation(
      directory(),
      projectId,
      (await directory().select().from(accounts).limit(1))[0]?.id ?? "",
      new Date(Date.now() - 8 * 86_400_000),
    );
    const friend = await signedUpBrowser();
    expect((await friend.browser.get(`/invitations/${token}`)).status).toBe(404);
    expect((await friend.browser.post(`/invitations/${token}`)).status).toBe(404);
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
    // A webhook's page sits under Settings in the navigation.
    expect(edited.html).toContain(
      `<a href="/projects/${projectId}/settings" aria-current="page">Settings</a>`,
    );
    // Settings names each of its areas, webhooks and members among them.
    const settings = await browser.get(`/projects/${projectId}/settings`);
    const areas = /<nav class="section-nav" aria-label="Settings">(.*?)<\/nav>/s.exec(
      settings.html,
    )?.[1];
    for (const area of ["api-keys", "webhooks", "members"]) {
      expect(areas).toContain(`href="#${area}"`);
      expect(settings.html).toContain(`id="${area}"`);
    }
    // Each id once on the page.
    const ids = [...settings.html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const tested = await browser.follow(await browser.post(`${path}/test`));
    expect(tested.html).toContain("Test event sent.");
    expect(tested.html).toMatch(/ping <span class="muted mono delivery-id" title="whi_\w+">whi_/);
    const bad = await browser.post(path, { url: "ftp://nope" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('value="ftp://nope"');
    expect(bad.html).toMatch(/id="url-error" role="alert">Must be an http or https URL/);
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
    const invalid = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "verify",
      keys: `${key("ed25519")?.openssh}\nssh-ed25519 garbage`,
    });
    // The form comes back as typed, naming the entry that is wrong beside the field.
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain("ssh-ed25519 garbage</textarea>");
    expect(invalid.html).toMatch(
      /id="keys-error" role="alert">Key 2: The key data is not valid base64/,
    );
  });

  it("trusts a CA from the form and shows how each key was held: security key and certificate", async () => {
    const { browser, projectId } = await browserWithProject();
    const form = await browser.get(`/projects/${projectId}/sessions/new?kind=verify`);
    for (const field of [
      "require_security_key",
      "require_user_verification",
      "certificate_authorities",
      "principal",
    ])
      expect(form.html).toContain(`name="${field}"`);
    const certified = env.TEST_KEYS.certificates[0];
    const [securityKey] = env.TEST_KEYS.securityKeys;
    const created = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "verify",
      keys: securityKey?.openssh ?? "",
      certificate_authorities: certified?.caOpenssh ?? "",
      principal: "deploy",
      require_user_verification: "on",
      multi_connection: "on",
    });
    const detail = await browser.follow(created);
    expect(detail.html).toContain("Trusted certificate authorities");
    expect(detail.html).toContain(certified?.caSha256);
    expect(detail.html).toContain("Certificates must list the principal &quot;deploy&quot;");
    expect(detail.html).toContain("security keys must check a PIN or biometric");
    const identifier = detail.html.match(/ssh -p 2222 ([0-9a-z]{26})@localhost/)?.[1] ?? "";
    await connectAndFinish(identifier, {
      keys: [
        { key: blobOf(securityKey?.openssh ?? ""), security_key: { flags: 0x05, counter: 9 } },
      ],
    });
    await connectAndFinish(identifier, { keys: [blobOf(certified?.openssh ?? "")] });
    const after = await browser.get(created.location?.split("?")[0] ?? "");
    expect(after.html).toContain(
      "Security key (ssh:): touched, PIN or biometric checked, counter 9",
    );
    expect(after.html).toMatch(
      /Certificate <span class="mono">alice<\/span> \(serial 18446744073709551615/,
    );
    expect(after.html).toContain('<span class="status status-valid">valid</span>');
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
      "No sessions match this filter.",
    );
    // By default both kinds, newest first, each row naming its kind.
    const verify = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "verify",
      keys: key("ed25519")?.openssh ?? "",
    });
    const verifyId = verify.location?.match(/(vs_[0-9a-z]+)/)?.[1] ?? "";
    const all = await browser.get(`/projects/${projectId}/sessions`);
    expect(all.html).toContain("1–4 of 4");
    expect(all.html.match(/sessions\/((?:cs|vs)_[0-9a-z]+)/)?.[1]).toBe(verifyId);
    expect(all.html).toContain('<td data-label="Kind">Verification</td>');
    expect(all.html).toContain('<td data-label="Kind">Collection</td>');
  });

  it("tells a project with no sessions what to do next", async () => {
    const { browser, projectId } = await browserWithProject();
    const empty = await browser.get(`/projects/${projectId}/sessions`);
    expect(empty.html).toContain("No sessions yet.");
    expect(empty.html).toContain(`href="/projects/${projectId}/sessions/new?kind=collect"`);
    expect(empty.html).toContain(`href="/projects/${projectId}/sessions/new?kind=verify"`);
    expect(empty.html).not.toContain("<table");
  });

  it("honours the 409 rules for complete and deletes", async () => {
    const { browser, projectId } = await browserWithProject();
    const detail = await browser.post(`/projects/${projectId}/sessions`, { kind: "collect" });
    const path = detail.location?.split("?")[0] ?? "";
    const refused = await browser.follow(await browser.post(`${path}/complete`));
    expect(refused.html).toContain("Only a multi-connection session can be completed");
    const unticked = await browser.follow(await browser.post(`${path}/delete`));
    expect(unticked.html).toContain("Tick the box to confirm deleting the session.");
    expect((await browser.get(path)).status).toBe(200);
    const deleted = await browser.follow(
      await browser.post(`${path}/delete`, { confirm: "delete" }),
    );
    expect(deleted.html).toContain("Session deleted.");
    // The list it lands on no longer has it: the page's own write, read back at once.
    expect(deleted.html).not.toContain(path.split("/").at(-1));
    expect((await browser.get(path)).status).toBe(404);
  });
});
