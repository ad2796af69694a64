import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, projects } from "../src/db/directory.ts";
import { createApiKey } from "../src/domain/api-keys.ts";
import { createInvitation, invitationPath } from "../src/domain/invitations.ts";
import { createSession } from "../src/domain/sessions.ts";
import { buildWebApp } from "../src/web/app.tsx";
import { createWebhook } from "../src/webhooks/definitions.ts";
import { sendTestEvent } from "../src/webhooks/deliveries.ts";
import { directory, indexOf } from "./helpers.ts";
import { Browser, browserWithProject, signedUpBrowser } from "./web-client.ts";

/** Every page and form under a project, as the web app mounts them: a new one is covered here. */
const PROJECT_ROUTES = buildWebApp()
  .routes.filter(
    (route) => route.path.startsWith("/projects/:project_id") && route.method !== "ALL",
  )
  .map((route) => [route.method, route.path] as const);
const OWNER_ONLY = (path: string) => path.startsWith("/projects/:project_id/invitations");

/** A project with one of everything a project page can name, an owner, a member and a stranger. */
async function projectWithEverything() {
  const owner = await browserWithProject("Guarded");
  const [ownerAccount] = await directory()
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, owner.email));
  const [project] = await directory()
    .select({ shard: projects.shard })
    .from(projects)
    .where(eq(projects.id, owner.projectId));
  const ctx = {
    db: await indexOf(owner.projectId),
    directory: directory(),
    shard: project?.shard ?? "",
    env,
    projectId: owner.projectId,
    livemode: true,
    now: new Date(),
  };
  const { session } = await createSession(ctx, "collect", { multi_connection: true });
  const hook = await createWebhook(
    ctx,
    { kind: "project" },
    {
      url: "http://127.0.0.1:9/never",
      method: "post",
      headers: {},
      events: [],
      retries: 0,
      initial_backoff: 1,
      backoff_multiplier: 1,
      enabled: false,
    },
  );
  const ping = await sendTestEvent(ctx, hook.id);
  const key = await createApiKey(ctx, { name: "fixture" });
  const invitation = await createInvitation(
    ctx.directory,
    owner.projectId,
    ownerAccount?.id ?? "",
    ctx.now,
  );
  const member = await signedUpBrowser();
  const join = await createInvitation(
    ctx.directory,
    owner.projectId,
    ownerAccount?.id ?? "",
    ctx.now,
  );
  await member.browser.post(invitationPath(join.token));
  const params: Record<string, string> = {
    project_id: owner.projectId,
    session_id: session.id,
    webhook_id: hook.id,
    invocation_id: ping.id,
    key_id: key.row.id,
    invitation_id: invitation.row.id,
    account_id: ownerAccount?.id ?? "",
  };
  return { owner, member: member.browser, stranger: (await signedUpBrowser()).browser, params };
}

const concrete = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "x");

const send = (browser: Browser, method: string, path: string) =>
  method === "GET" ? browser.get(path) : browser.post(path, {});

describe.each(PROJECT_ROUTES)("web security of %s %s", (method, route) => {
  it("sends a visitor who is not signed in to sign in, changing nothing", async () => {
    const { params } = await projectWithEverything();
    const page = await send(new Browser(), method, concrete(route, params));
    expect(page.status).toBe(303);
    expect(page.location).toMatch(/^\/signin\?next=/);
  });

  it("answers a signed-in account that is not a member with 404", async () => {
    const { stranger, params } = await projectWithEverything();
    const page = await send(stranger, method, concrete(route, params));
    expect(page.status).toBe(404);
    expect(page.html).toContain("Project not found");
  });

  it(
    OWNER_ONLY(route)
      ? "refuses a member who is not an owner with 403"
      : "lets a member through the guard",
    async () => {
      const { member, params } = await projectWithEverything();
      const page = await send(member, method, concrete(route, params));
      if (OWNER_ONLY(route)) {
        expect(page.status).toBe(403);
      } else {
        expect(page.status).toBeLessThan(500);
        expect(page.html).not.toContain("Project not found");
      }
    },
  );
});

it("covers every kind of project page", () => {
  const paths = PROJECT_ROUTES.map(([, path]) => path);
  for (const part of [
    "/settings",
    "/sessions",
    "/webhooks",
    "/invitations",
    "/api-keys",
    "/members",
  ])
    expect(
      paths.some((path) => path.includes(part)),
      part,
    ).toBe(true);
});
