import { describe, expect, it } from "vitest";
import { newTestSshKey, type TestSshKey } from "./ssh-signatures.ts";
import { Browser, type Page, signedUpBrowser } from "./web-client.ts";

/** The message this browser's sign-in page asks to be signed, from its command. */
const messageOn = (page: Page) =>
  page.html.match(/printf &#39;%s&#39; &#39;(keyproof-signin:[^&]+)&#39;/)?.[1] ??
  page.html.match(/printf '%s' '(keyproof-signin:[^']+)'/)?.[1] ??
  "";

/** A signed-up account with `key` registered: the recovery codes it was shown. */
async function withKey(key: TestSshKey) {
  const user = await signedUpBrowser();
  const added = await user.browser.post("/account/ssh-keys", {
    name: "laptop",
    public_key: key.publicKey,
  });
  expect(added.status, added.html).toBe(200);
  const codes = [
    ...added.html.matchAll(/\b([0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})\b/g),
  ].map((match) => match[1] ?? "");
  return { ...user, codes: [...new Set(codes)] };
}

/** Opens the SSH sign-in page in `browser` and signs its code with `key`. */
async function signedCode(browser: Browser, key: TestSshKey) {
  const page = await browser.get("/signin/ssh");
  expect(page.status).toBe(200);
  const message = messageOn(page);
  expect(message).toMatch(/^keyproof-signin:[a-z0-9.:-]+:[0-9a-z]{26}$/);
  return { message, signature: await key.sign(message, "keyproof-signin") };
}

const signedInAs = async (browser: Browser) => (await browser.get("/projects")).status === 200;

describe("signing in by proving an SSH key", () => {
  it("signs in the browser that asked, once, with a registered key only", async () => {
    const key = await newTestSshKey();
    const { codes } = await withKey(key);
    expect(codes).toHaveLength(10);

    const browser = new Browser();
    const { signature } = await signedCode(browser, key);
    const answer = await browser.post("/signin/ssh", { signature });
    expect(answer.status, answer.html).toBe(303);
    expect(await signedInAs(browser)).toBe(true);
    const security = await browser.get("/account/security");
    expect(security.html).toContain("SSH key</td>");

    // The same signature again, from a copy of the browser that holds the same code: used once.
    const replay = new Browser();
    const again = await signedCode(replay, key);
    const copy = new Browser();
    for (const [name, value] of replay.cookies) copy.cookies.set(name, value);
    copy.csrf = replay.csrf;
    expect((await replay.post("/signin/ssh", { signature: again.signature })).status).toBe(303);
    const reused = await copy.post("/signin/ssh", { signature: again.signature });
    expect(reused.status).toBe(401);
    expect(reused.html).toContain("used already");
    expect(await signedInAs(copy)).toBe(false);

    // Another key, not registered: nothing signed in.
    const stranger = await newTestSshKey();
    const other = new Browser();
    const strangers = await signedCode(other, stranger);
    const refused = await other.post("/signin/ssh", { signature: strangers.signature });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain("is not registered");
    expect(await signedInAs(other)).toBe(false);
  });

  it("never signs in a browser with a signature made for another browser's code", async () => {
    const key = await newTestSshKey();
    await withKey(key);
    const victim = new Browser();
    const attacker = new Browser();
    // The victim signs the attacker's code (phishing), or the attacker plants its own proof in
    // the victim's browser (sign-in CSRF): either way the code is not the browser's own.
    const attackers = await signedCode(attacker, key);
    await victim.get("/signin/ssh");
    const planted = await victim.post("/signin/ssh", { signature: attackers.signature });
    expect(planted.status).toBe(401);
    expect(await signedInAs(victim)).toBe(false);
    // A session's signature (namespace keyproof) is no sign-in either.
    const other = await signedCode(victim, key);
    const wrongNamespace = await victim.post("/signin/ssh", {
      signature: await key.sign(other.message, "keyproof"),
    });
    expect(wrongNamespace.status).toBe(401);
    expect(wrongNamespace.html).toContain("namespace");
    // Without the form's CSRF token, nothing is even read.
    const forged = await victim.post(
      "/signin/ssh",
      { signature: attackers.signature },
      "0".repeat(32),
    );
    expect(forged.status).toBe(403);
  });

  it("asks for the key after the password once one is registered, or a recovery code once", async () => {
    const key = await newTestSshKey();
    const { email, password, codes } = await withKey(key);
    const browser = new Browser();
    const afterPassword = await browser.post("/signin", { email, password, next: "/projects" });
    expect(afterPassword.status).toBe(303);
    expect(afterPassword.location).toBe("/signin/ssh");
    expect(await signedInAs(browser)).toBe(false);
    const step = await browser.get("/signin/ssh");
    expect(step.html).toContain("recovery codes");
    // Another account's key does not finish this account's sign-in.
    const othersKey = await newTestSshKey();
    await withKey(othersKey);
    const mixed = await browser.post("/signin/ssh", {
      signature: await othersKey.sign(messageOn(step), "keyproof-signin"),
    });
    expect(mixed.status).toBe(401);
    expect(mixed.html).toContain("not registered to this account");
    // A recovery code does, once.
    const [code] = codes;
    const recovered = await browser.post("/signin/ssh", { recovery_code: code ?? "" });
    expect(recovered.status, recovered.html).toBe(303);
    expect(await signedInAs(browser)).toBe(true);
    const again = new Browser();
    await again.post("/signin", { email, password });
    const reused = await again.post("/signin/ssh", { recovery_code: code ?? "" });
    expect(reused.status).toBe(401);
    expect(await signedInAs(again)).toBe(false);
    // The key finishes it too.
    const withTheKey = new Browser();
    await withTheKey.post("/signin", { email, password });
    const keyStep = await withTheKey.get("/signin/ssh");
    const finished = await withTheKey.post("/signin/ssh", {
      signature: await key.sign(messageOn(keyStep), "keyproof-signin"),
    });
    expect(finished.status).toBe(303);
    expect(await signedInAs(withTheKey)).toBe(true);
  });

  it("registers each key to one account, under the sessions' key rules", async () => {
    const key = await newTestSshKey();
    await withKey(key);
    const other = await signedUpBrowser();
    const taken = await other.browser.post("/account/ssh-keys", {
      name: "x",
      public_key: key.publicKey,
    });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain("already registered");
    const junk = await other.browser.post("/account/ssh-keys", {
      name: "x",
      public_key: "ssh-ed25519 AAAA",
    });
    expect(junk.status).toBe(400);
    const removedPage = await other.browser.get("/account/security");
    expect(removedPage.html).toContain("No SSH key yet");
  });
});

describe("the SSH-key sign-in's limits", () => {
  it("refuses a key's attempts from one address after ten failures a minute, as a password's", async () => {
    const key = await newTestSshKey();
    const browser = new Browser();
    for (let attempt = 0; attempt < 10; attempt++) {
      const { signature } = await signedCode(browser, key);
      expect((await browser.post("/signin/ssh", { signature })).status).toBe(401);
    }
    const { signature } = await signedCode(browser, key);
    const blocked = await browser.post("/signin/ssh", { signature });
    expect(blocked.status).toBe(429);
    // Another key from the same address is still heard.
    const other = await newTestSshKey();
    const fresh = await signedCode(browser, other);
    expect((await browser.post("/signin/ssh", { signature: fresh.signature })).status).toBe(401);
  });
});

describe("a project whose owners require a second factor", () => {
  it("opens only for members whose account has an SSH key, and says so", async () => {
    const ownerKey = await newTestSshKey();
    const owner = await withKey(ownerKey);
    const created = await owner.browser.post("/projects", { name: "Guarded" });
    const projectId = created.location?.match(/\/projects\/(prj_[0-9a-z]+)/)?.[1] ?? "";
    const base = `/projects/${projectId}`;
    // A member invited before: they join with their password alone.
    const invited = await owner.browser.follow(await owner.browser.post(`${base}/invitations`));
    const link = invited.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    const member = await signedUpBrowser();
    await member.browser.get(new URL(link).pathname);
    await member.browser.post(new URL(link).pathname);
    expect((await member.browser.get(`${base}/sessions`)).status).toBe(200);

    const required = await owner.browser.post(`${base}/second-factor`, { required: "true" });
    expect(required.location).toBe(`${base}/settings#second-factor`);
    // The member without a key is sent to add one, with the reason; every page of it is closed.
    const refused = await member.browser.get(`${base}/sessions`);
    expect(refused.status).toBe(303);
    expect(refused.location).toBe("/account/security#passkeys");
    expect((await member.browser.get(refused.location ?? "")).html).toContain(
      "requires a second factor",
    );
    expect((await member.browser.get(`${base}/settings`)).status).toBe(303);
    // Leaving needs none: another member without a key goes from the projects page.
    const leaver = await signedUpBrowser();
    const second = await owner.browser.follow(await owner.browser.post(`${base}/invitations`));
    const secondLink = second.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    await leaver.browser.get(new URL(secondLink).pathname);
    await leaver.browser.post(new URL(secondLink).pathname);
    const list = await leaver.browser.get("/projects");
    const leave = list.html.match(
      /action="(\/projects\/prj_[0-9a-z]+\/members\/acc_[0-9a-z]+\/remove)"/,
    )?.[1];
    expect(leave).toBeDefined();
    const left = await leaver.browser.follow(await leaver.browser.post(leave ?? ""));
    expect(left.html).toContain("You left the project.");
    expect(left.html).not.toContain(projectId);
    // With a key, it opens.
    const memberKey = await newTestSshKey();
    await member.browser.post("/account/ssh-keys", { name: "m", public_key: memberKey.publicKey });
    expect((await member.browser.get(`${base}/sessions`)).status).toBe(200);
    // The owners' audit log has the change.
    const audit = await owner.browser.get(`${base}/audit-log`);
    expect(audit.html).toContain("changed whether members need a second factor");
  });

  it("is not required by an owner who has no second factor themselves", async () => {
    const owner = await signedUpBrowser();
    const created = await owner.browser.post("/projects", { name: "Open" });
    const projectId = created.location?.match(/\/projects\/(prj_[0-9a-z]+)/)?.[1] ?? "";
    const asked = await owner.browser.post(`/projects/${projectId}/second-factor`, {
      required: "true",
    });
    expect(asked.location).toBe("/account/security#passkeys");
    expect((await owner.browser.get(`/projects/${projectId}/sessions`)).status).toBe(200);
  });
});
