import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, apiKeys, projectInvitations, projects } from "../src/db/directory.ts";
import { newApiKeyRow } from "../src/domain/api-keys.ts";
import { blobOf, connectAndFinish, internal } from "./bridge-calls.ts";
import { call, createSession, directory } from "./helpers.ts";
import { everyDatabase, everythingInD1, objectOf, rowsNaming } from "./session-objects.ts";
import { browserWithProject, signedUpBrowser } from "./web-client.ts";

/** Deleting a project, and an account that owns none. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

const openOver = (identifier: string) =>
  internal<{ accepted: boolean; reason: string }>("/internal/v1/connections", {
    connection_identifier: identifier,
    ip_address: "198.51.100.9",
    client_version: "SSH-2.0-OpenSSH_9.6",
  });

describe("deleting a project", () => {
  it("takes its owner typing its name, then erases everything of it at once", async () => {
    const { browser, projectId } = await browserWithProject("Doomed project");
    const { row, plaintext } = await newApiKeyRow({
      projectId,
      name: "k",
      now: new Date().toISOString(),
    });
    await directory().insert(apiKeys).values(row);
    const open = await createSession<{ id: string; connection_identifier: string }>(
      plaintext,
      "collect",
      { multi_connection: true },
    );
    const closed = await createSession<{ id: string; connection_identifier: string }>(
      plaintext,
      "collect",
    );
    await connectAndFinish(closed.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });

    const refused = await browser.post(`/projects/${projectId}/delete`, { confirm: "doomed" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Type the project");
    expect((await call("/api/v1/project", { key: plaintext })).status).toBe(200);

    const deleted = await browser.post(`/projects/${projectId}/delete`, {
      confirm: "Doomed project",
    });
    expect(deleted.status, deleted.html).toBe(303);
    expect(deleted.location).toBe("/projects");
    // Its key stops, its sessions' names are unknown over ssh, nothing of it is left anywhere.
    expect((await call("/api/v1/project", { key: plaintext })).status).toBe(401);
    for (const session of [open, closed])
      expect((await openOver(session.connection_identifier)).json).toMatchObject({
        accepted: false,
        reason: "unknown",
      });
    const left = await everythingInD1();
    for (const trace of [open.id, closed.id, open.connection_identifier])
      expect(left).not.toContain(trace);
    // Only its tombstone in its shard names it: no push for it is written again.
    const naming = await Promise.all(everyDatabase().map(([, d1]) => rowsNaming(d1, projectId)));
    expect(naming.flat()).toEqual(["project_settings"]);
    const storage = await runInDurableObject(objectOf(open.id), (_instance, state) => [
      ...state.storage.kv.list(),
    ]);
    expect(storage).toEqual([]);
    expect((await browser.get(`/projects/${projectId}`)).status).toBe(404);
  });
});

describe("deleting an account", () => {
  it("is refused while it owns a project, and done once it owns none", async () => {
    const { browser, projectId, email } = await browserWithProject("Mine");
    const refused = await browser.post("/projects/account/delete");
    expect(refused.status).toBe(303);
    const [still] = await directory().select().from(accounts).where(eq(accounts.email, email));
    expect(still).toBeDefined();

    await browser.post(`/projects/${projectId}/delete`, { confirm: "Mine" });
    const list = await browser.get("/projects");
    expect(list.html).toContain("Delete my account");
    const done = await browser.post("/projects/account/delete");
    expect(done.status).toBe(303);
    expect(done.location).toBe("/");
    const [gone] = await directory().select().from(accounts).where(eq(accounts.email, email));
    expect(gone).toBeUndefined();
    // Signed out: the projects page asks to sign in again.
    expect((await browser.get("/projects")).status).toBe(303);
  });

  it("keeps the invitations it took in others' projects, no longer naming it", async () => {
    const owner = await browserWithProject("Hosting");
    const guest = await signedUpBrowser();
    const created = await owner.browser.follow(
      await owner.browser.post(`/projects/${owner.projectId}/invitations`),
    );
    const link = created.html.match(/<code id="invitation-link">([^<]+)<\/code>/)?.[1] ?? "";
    await guest.browser.post(new URL(link).pathname);
    const [account] = await directory()
      .select()
      .from(accounts)
      .where(eq(accounts.email, guest.email));
    const taken = () =>
      directory()
        .select()
        .from(projectInvitations)
        .where(eq(projectInvitations.projectId, owner.projectId));
    expect((await taken()).map((row) => row.acceptedBy)).toEqual([account?.id]);
    // A member owns no project: the account goes, its membership with it.
    expect((await guest.browser.post("/projects/account/delete")).location).toBe("/");
    const [kept] = await taken();
    expect(kept?.acceptedAt).not.toBeNull();
    expect(kept?.acceptedBy).toBeNull();
  });
});

describe("the settings page's retention", () => {
  it("shows the project's retention_days and changes it, refusing what is out of range", async () => {
    const { browser, projectId } = await browserWithProject("Kept");
    const settings = await browser.get(`/projects/${projectId}/settings`);
    expect(settings.html).toContain('name="retention_days"');
    expect(settings.html).toContain('value="30"');
    const refused = await browser.post(`/projects/${projectId}/retention`, {
      retention_days: "0",
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Retention is a whole number of days from 1 to 3650");
    const saved = await browser.post(`/projects/${projectId}/retention`, { retention_days: "7" });
    expect(saved.status).toBe(303);
    const [row] = await directory().select().from(projects).where(eq(projects.id, projectId));
    expect(row?.retentionDays).toBe(7);
    expect((await browser.get(`/projects/${projectId}/settings`)).html).toContain('value="7"');
  });
});
