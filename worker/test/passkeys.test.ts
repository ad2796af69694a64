import { env } from "cloudflare:workers";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { seal } from "../src/lib/sealed.ts";
import { Browser, signedUpBrowser } from "./web-client.ts";
import { TestPasskey } from "./webauthn-authenticator.ts";

const signedInAs = async (browser: Browser) => (await browser.get("/projects")).status === 200;

/** Adds a new passkey to the signed-in `browser`'s account, as the security page's script does. */
async function addPasskey(browser: Browser, name = "laptop", origin = browser.origin) {
  await browser.get("/account/security");
  const options = JSON.parse((await browser.post("/account/passkeys/options")).html);
  const passkey = await TestPasskey.create();
  const response = await passkey.register(
    options as PublicKeyCredentialCreationOptionsJSON,
    origin,
  );
  const added = await browser.post("/account/passkeys", {
    name,
    response: JSON.stringify(response),
  });
  return { passkey, added, options: options as PublicKeyCredentialCreationOptionsJSON };
}

/** An account with a passkey, and the recovery codes its first passkey made. */
async function withPasskey() {
  const user = await signedUpBrowser();
  const { passkey, added } = await addPasskey(user.browser);
  expect(added.status, added.html).toBe(200);
  return { ...user, passkey, page: added };
}

/** Asks this browser's sign-in page for WebAuthn's options, as /passkey.js does. */
async function signInOptions(browser: Browser, form: Record<string, string> = {}) {
  await browser.get("/signin");
  const asked = await browser.post("/signin/passkey/options", form);
  expect(asked.status, asked.html).toBe(200);
  return JSON.parse(asked.html) as PublicKeyCredentialRequestOptionsJSON;
}

async function signInWith(browser: Browser, passkey: TestPasskey, origin = browser.origin) {
  const answer = await passkey.answer(await signInOptions(browser), origin);
  return browser.post("/signin/passkey", { response: JSON.stringify(answer) });
}

describe("passkeys on the account's security page", () => {
  it("adds a named, discoverable passkey, with recovery codes the first time, and removes it", async () => {
    const { browser, page } = await withPasskey();
    expect(page.html).toContain("Your recovery codes, shown this once");
    expect(page.html).toContain("laptop");
    // The options ask for a discoverable credential for this site, excluding the one it has.
    const second = await addPasskey(browser, "phone");
    expect(second.options.rp.id).toBe("localhost");
    expect(second.options.authenticatorSelection?.residentKey).toBe("required");
    expect(second.options.excludeCredentials).toHaveLength(1);
    expect(second.added.status).toBe(303);
    const security = await browser.get("/account/security");
    expect(security.html).toContain("phone");
    expect(security.html).toContain("Passkey added");
    const ids = [
      ...security.html.matchAll(/action="\/account\/passkeys\/(apk_[0-9a-z]+)\/remove"/g),
    ];
    expect(ids).toHaveLength(2);
    const removed = await browser.post(`/account/passkeys/${ids[1]?.[1]}/remove`);
    expect(removed.status).toBe(303);
    const after = await browser.get("/account/security");
    expect(after.html).toContain("Passkey removed");
    expect([...after.html.matchAll(/\/account\/passkeys\/apk_[0-9a-z]+\/remove/g)]).toHaveLength(1);
  });

  it("refuses an answer made for another origin, a challenge used twice or never given", async () => {
    const { browser } = await signedUpBrowser();
    const elsewhere = await addPasskey(browser, "phished", "https://keyproof.example.net");
    expect(elsewhere.added.status).toBe(400);
    expect(elsewhere.added.html).toContain("origin");
    // A good answer sent twice: the challenge is spent by the first.
    await browser.get("/account/security");
    const options = JSON.parse((await browser.post("/account/passkeys/options")).html);
    const passkey = await TestPasskey.create();
    const response = JSON.stringify(await passkey.register(options, browser.origin));
    const cookies = new Map(browser.cookies);
    expect((await browser.post("/account/passkeys", { name: "once", response })).status).toBe(200);
    for (const [name, value] of cookies) browser.cookies.set(name, value);
    const twice = await browser.post("/account/passkeys", { name: "twice", response });
    expect(twice.status).toBe(400);
    expect(twice.html).toContain("expired or was used");
    // Another account's browser cannot register with this one's answer (no challenge of its own).
    const other = await signedUpBrowser();
    const stolen = await other.browser.post("/account/passkeys", { name: "x", response });
    expect(stolen.status).toBe(400);
    expect((await other.browser.get("/account/security")).html).toContain("No passkey yet");
  });
});

describe("signing in with a passkey", () => {
  it("signs in with the passkey alone, once per challenge, and says so in the security log", async () => {
    const { passkey, email } = await withPasskey();
    const browser = new Browser();
    const options = await signInOptions(browser);
    // The sign-in page's passkey form waits, hidden, for /passkey.js (it needs WebAuthn).
    const signinPage = await browser.get("/signin");
    expect(signinPage.html).toMatch(/<form[^>]*action="\/signin\/passkey"[^>]*hidden/);
    expect(signinPage.html).toContain('<script src="/passkey.js"');
    // Discoverable: no account named, no credential listed.
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.rpId).toBe("localhost");
    const answer = JSON.stringify(await passkey.answer(options, browser.origin));
    const copy = new Browser();
    for (const [name, value] of browser.cookies) copy.cookies.set(name, value);
    copy.csrf = browser.csrf;
    const signedIn = await browser.post("/signin/passkey", { response: answer });
    expect(signedIn.status, signedIn.html).toBe(303);
    expect(signedIn.location).toBe("/projects");
    expect(await signedInAs(browser)).toBe(true);
    const security = await browser.get("/account/security");
    expect(security.html).toContain(email);
    expect(security.html).toContain("passkey</td>");
    expect(security.html).not.toContain(">never<");
    // The same answer replayed from a copy of the browser: refused, nothing signed in.
    const replayed = await copy.post("/signin/passkey", { response: answer });
    expect(replayed.status).toBe(401);
    expect(await signedInAs(copy)).toBe(false);
  });

  it("refuses a cross-origin answer, another browser's challenge, a late one and a removed passkey", async () => {
    const { browser: owner, passkey } = await withPasskey();
    const phished = await signInWith(new Browser(), passkey, "https://keyproof.example.net");
    expect(phished.status).toBe(401);
    expect(phished.html).toContain("origin");
    // The refusal is in the security log of the account whose passkey it named.
    expect((await owner.get("/account/security")).html).toContain(
      "Sign-in failed: a passkey&#39;s answer was refused",
    );

    // An answer to one browser's challenge, planted in another (sign-in CSRF, phishing).
    const attacker = new Browser();
    const victim = new Browser();
    const attackers = await passkey.answer(await signInOptions(attacker), attacker.origin);
    await signInOptions(victim);
    const planted = await victim.post("/signin/passkey", { response: JSON.stringify(attackers) });
    expect(planted.status).toBe(401);
    expect(await signedInAs(victim)).toBe(false);

    // A challenge past its five minutes: the browser's code says when it ends.
    const late = new Browser();
    const lateOptions = await signInOptions(late);
    const code = Buffer.from(lateOptions.challenge, "base64url").toString();
    const expired = Math.floor(Date.now() / 1000) - 1;
    late.cookies.set("kp_ssh_signin", await seal(env, "ssh-sign-in", `${code} ${expired} - %2F`));
    const tooLate = await late.post("/signin/passkey", {
      response: JSON.stringify(await passkey.answer(lateOptions, late.origin)),
    });
    expect(tooLate.status).toBe(400);
    expect(tooLate.html).toContain("expired");
    expect(await signedInAs(late)).toBe(false);

    // Removed: it signs in nobody.
    const security = await owner.get("/account/security");
    const id = security.html.match(/\/account\/passkeys\/(apk_[0-9a-z]+)\/remove/)?.[1];
    await owner.post(`/account/passkeys/${id}/remove`);
    const gone = await signInWith(new Browser(), passkey);
    expect(gone.status).toBe(401);
    expect(gone.html).toContain("not registered");
    // Junk in place of WebAuthn's JSON is a refusal too.
    const junk = new Browser();
    await signInOptions(junk);
    const garbled = await junk.post("/signin/passkey", { response: "{not json" });
    expect(garbled.status).toBe(401);
  });

  it("is asked for after the password, only the account's own, and goes where it was going", async () => {
    const { email, password, passkey } = await withPasskey();
    const other = await withPasskey();
    const browser = new Browser();
    const next = "/account/security";
    const afterPassword = await browser.post("/signin", { email, password, next });
    expect(afterPassword.location).toBe("/signin/ssh");
    expect(await signedInAs(browser)).toBe(false);
    const step = await browser.get("/signin/ssh");
    expect(step.html).toContain("Use your passkey");
    // No SSH key on this account: no command to sign.
    expect(step.html).not.toContain("ssh-keygen -Y sign");
    const options = await signInOptions(browser);
    expect(options.allowCredentials?.map((allowed) => allowed.id)).toEqual([passkey.id]);
    const mixed = await browser.post("/signin/passkey", {
      response: JSON.stringify(await other.passkey.answer(options, browser.origin)),
    });
    expect(mixed.status).toBe(401);
    expect(mixed.html).toContain("not registered to this account");
    const own = await passkey.answer(await signInOptions(browser), browser.origin);
    const finished = await browser.post("/signin/passkey", { response: JSON.stringify(own) });
    expect(finished.status, finished.html).toBe(303);
    expect(finished.location).toBe(next);
    const security = await browser.get(next);
    expect(security.html).toContain("password and passkey");
  });

  it("refuses a passkey's attempts from one address after ten failures a minute", async () => {
    const { passkey } = await withPasskey();
    const browser = new Browser();
    for (let attempt = 0; attempt < 10; attempt++) {
      const answered = await signInWith(browser, passkey, "https://elsewhere.example");
      expect(answered.status).toBe(401);
    }
    const blocked = await signInWith(browser, passkey);
    expect(blocked.status).toBe(429);
    expect(await signedInAs(browser)).toBe(false);
  });
});

describe("a client whose User-Agent is 10 kB", () => {
  it("is refused every sign-in way, and nothing is signed in or logged against the account", async () => {
    const { email, password, passkey, browser: owner } = await withPasskey();
    const browser = new Browser();
    const options = await signInOptions(browser);
    browser.userAgent = `Mozilla/5.0 ${"x".repeat(10_240)}`;
    const refusals = [
      await browser.post("/signin", { email, password }),
      await browser.post("/signin/passkey", {
        response: JSON.stringify(await passkey.answer(options, browser.origin)),
      }),
      await browser.post("/signin/ssh", { signature: "x" }),
      await browser.post("/signup", { email: "ua@example.com", password: "long enough password" }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(400);
      expect(refused.html).toContain("User-Agent header is 10252 characters long");
    }
    browser.userAgent = null;
    expect(await signedInAs(browser)).toBe(false);
    const log = (await owner.get("/account/security")).html.split('id="log"')[1] ?? "";
    expect(log).not.toContain("Sign-in failed");
    expect(log).toContain("Passkey added");
  });
});
