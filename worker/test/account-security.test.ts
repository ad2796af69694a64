import { describe, expect, it } from "vitest";
import { Browser, signedUpBrowser } from "./web-client.ts";

/** The browsers another one may sign out, as the security page lists them. */
const endable = (html: string) =>
  [...html.matchAll(/action="\/account\/browsers\/([0-9a-f]{64})\/end"/g)].map((m) => m[1] ?? "");

/** The security log's rows: what happened, and the address it came from. */
const logged = (html: string) =>
  [...(html.split('id="log"')[1] ?? "").matchAll(/<tr>(.*?)<\/tr>/gs)]
    .map((row) => row[1] ?? "")
    .filter((row) => row.includes("data-label"))
    .map((row) => ({
      what: row.match(/data-label="What">([^<]+)/)?.[1] ?? "",
      from: row.match(/data-label="From" class="breakable">([^ <]+)/)?.[1] ?? "",
    }));

async function signedIn(email: string, password: string) {
  const browser = new Browser();
  const page = await browser.post("/signin", { email, password, next: "/projects" });
  expect(page.status, page.html).toBe(303);
  return browser;
}

describe("an account's security page", () => {
  it("shows its sign-ins, failed ones and browsers, and signs out one browser or every other", async () => {
    const { browser: first, email, password } = await signedUpBrowser();
    const second = await signedIn(email, password);
    const guesser = new Browser();
    const wrong = await guesser.post("/signin", { email, password: "not the password" });
    expect(wrong.status).toBe(401);

    const page = await first.get("/account/security");
    expect(page.status).toBe(200);
    expect(page.html).toContain("This browser");
    expect(page.html).toContain(second.address);
    expect(logged(page.html)).toEqual([
      { what: "Sign-in failed: wrong password", from: guesser.address },
      { what: "Signed in", from: second.address },
      { what: "Account created", from: first.address },
    ]);
    // Every signed-in page leads to it.
    expect((await first.get("/projects")).html).toContain('href="/account/security"');

    // One browser signed out from another: its next request is signed out.
    const [secondId] = endable(page.html);
    expect(secondId).toBeDefined();
    expect((await first.post(`/account/browsers/${secondId}/end`)).status).toBe(303);
    const after = await second.get("/projects");
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/signin/);
    expect((await first.get("/projects")).status).toBe(200);

    // Every other browser, at once; this one stays.
    const third = await signedIn(email, password);
    const fourth = await signedIn(email, password);
    await first.get("/account/security");
    expect((await first.post("/account/browsers/end-others")).status).toBe(303);
    for (const other of [third, fourth])
      expect((await other.get("/projects")).location).toMatch(/^\/signin/);
    const last = await first.get("/account/security");
    expect(endable(last.html)).toEqual([]);
    expect(
      logged(last.html)
        .slice(0, 2)
        .map((entry) => entry.what),
    ).toEqual(["Every other browser signed out from here", "Signed in"]);
  });

  it("cannot sign out another account's browser, and is not shown to anyone signed out", async () => {
    const owner = await signedUpBrowser();
    const ownerPage = await owner.browser.get("/account/security");
    expect(endable(ownerPage.html)).toEqual([]);
    // The owner's own session id is not in its page: a second browser's is, for the stranger to try.
    const other = await signedIn(owner.email, owner.password);
    const [otherId] = endable((await owner.browser.get("/account/security")).html);
    const stranger = await signedUpBrowser();
    const refused = await stranger.browser.follow(
      await stranger.browser.post(`/account/browsers/${otherId}/end`),
    );
    expect(refused.html).toContain("already signed out");
    expect((await other.get("/projects")).status).toBe(200);
    const anonymous = await new Browser().get("/account/security");
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toMatch(/^\/signin/);
  });

  it("changes the password with the current one, signing out every other browser", async () => {
    const { browser, email, password } = await signedUpBrowser();
    const other = await signedIn(email, password);
    await browser.get("/account/security");
    const wrong = await browser.post("/account/password", {
      current_password: "not the password",
      new_password: "a brand new password",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("not this account&#39;s password");
    // Neither password is ever sent back to the page.
    expect(wrong.html).not.toContain("a brand new password");
    const short = await browser.post("/account/password", {
      current_password: password,
      new_password: "short",
    });
    expect(short.status).toBe(400);
    expect(short.html).toContain("at least 10 characters");

    const changed = await browser.post("/account/password", {
      current_password: password,
      new_password: "a brand new password",
    });
    expect(changed.status).toBe(303);
    expect((await browser.follow(changed)).html).toContain("1 other browser signed out");
    expect((await other.get("/projects")).location).toMatch(/^\/signin/);
    expect((await new Browser().post("/signin", { email, password })).status).toBe(401);
    await signedIn(email, "a brand new password");
    const page = await browser.get("/account/security");
    expect(logged(page.html).map((entry) => entry.what)).toContain("Password changed");
  });
});
