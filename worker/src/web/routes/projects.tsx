import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { database } from "../../db/client.ts";
import { createApiKey, revokeApiKey } from "../../domain/api-keys.ts";
import {
  createInvitation,
  invitationPath,
  pendingInvitations,
  revokeInvitation,
} from "../../domain/invitations.ts";
import {
  apiKeysOf,
  assertOwner,
  membersOf,
  projectsOf,
  removeMember,
  renameProject,
  validProjectName,
} from "../../domain/project-members.ts";
import { createProject } from "../../domain/projects.ts";
import { listWebhooks } from "../../domain/webhooks.ts";
import { badRequest } from "../../lib/errors.ts";
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from "../../protocol/terminal-text.ts";
import {
  errorMessage,
  memberContext,
  optionalText,
  pageContext,
  redirectWith,
  text,
} from "../forms.ts";
import { ProjectsPage, SettingsPage } from "../pages/project-pages.tsx";

const API_KEY_NAME_MAX = 100;

/** What the settings page shows once, on the response that made it. */
interface ShownOnce {
  newKey?: { name: string; plaintext: string };
  invitationLink?: string;
}

async function settingsPage(c: Parameters<typeof memberContext>[0], shown: ShownOnce = {}) {
  const { ctx, project, page, role } = await memberContext(c);
  const [members, keys, hooks, invitations] = await Promise.all([
    membersOf(ctx.db, project.id),
    apiKeysOf(ctx.db, project.id),
    listWebhooks(ctx, { kind: "project" }, { offset: 0, limit: 100 }),
    role === "owner" ? pendingInvitations(ctx.db, project.id, ctx.now) : [],
  ]);
  return c.html(
    <SettingsPage
      page={page}
      project={project}
      role={role}
      members={members}
      keys={keys}
      webhooks={hooks.items}
      invitations={invitations}
      {...shown}
    />,
  );
}

export const projectRoutes = new Hono<AppEnv>()
  .get("/projects", async (c) => {
    const projects = await projectsOf(database(c.env.DB), c.get("account").id);
    return c.html(<ProjectsPage page={pageContext(c)} projects={projects} />);
  })
  .post("/projects", async (c) => {
    const form = await c.req.parseBody();
    try {
      const db = database(c.env.DB);
      const project = await createProject(
        db,
        c.get("account").id,
        validProjectName(text(form, "name")),
        new Date(),
      );
      return redirectWith(c, `/projects/${project.id}/settings`, {
        notice: "Project created. Create an API key to use the API.",
      });
    } catch (error) {
      return redirectWith(c, "/projects", { error: errorMessage(error) });
    }
  })
  .get("/projects/:project_id", (c) =>
    c.redirect(`/projects/${encodeURIComponent(c.req.param("project_id"))}/sessions`, 303),
  )
  .get("/projects/:project_id/settings", (c) => settingsPage(c))
  .post("/projects/:project_id/rename", async (c) => {
    const { ctx, project } = await memberContext(c);
    const form = await c.req.parseBody();
    const back = `/projects/${project.id}/settings`;
    try {
      await renameProject(ctx.db, project.id, text(form, "name"));
      return redirectWith(c, back, { notice: "Renamed." });
    } catch (error) {
      return redirectWith(c, back, { error: errorMessage(error) });
    }
  })
  .post("/projects/:project_id/api-keys", async (c) => {
    const { ctx, project } = await memberContext(c);
    const form = await c.req.parseBody();
    try {
      const name = text(form, "name").trim();
      if (!name || name.length > API_KEY_NAME_MAX)
        throw badRequest("body.name", `A key name is 1 to ${API_KEY_NAME_MAX} characters`);
      if (hasControlCharacters(name)) throw badRequest("body.name", CONTROL_CHARACTER_MESSAGE);
      const expiresOn = optionalText(form, "expires_on");
      const expiredAt = expiresOn ? new Date(`${expiresOn}T23:59:59.999Z`) : null;
      if (expiredAt && (Number.isNaN(expiredAt.getTime()) || expiredAt <= ctx.now)) {
        throw badRequest("body.expires_on", "The expiry date must be in the future");
      }
      const { plaintext } = await createApiKey(ctx.db, {
        projectId: project.id,
        name,
        expiredAt: expiredAt?.toISOString() ?? null,
        now: ctx.now.toISOString(),
      });
      // Shown on this response only: never stored, never in a URL.
      return settingsPage(c, { newKey: { name, plaintext } });
    } catch (error) {
      return redirectWith(c, `/projects/${project.id}/settings`, { error: errorMessage(error) });
    }
  })
  .post("/projects/:project_id/api-keys/:key_id/revoke", async (c) => {
    const { ctx, project } = await memberContext(c);
    await revokeApiKey(ctx.db, project.id, c.req.param("key_id"), ctx.now);
    return redirectWith(c, `/projects/${project.id}/settings`, { notice: "API key revoked." });
  })
  .post("/projects/:project_id/invitations", async (c) => {
    const { ctx, project, role } = await memberContext(c);
    assertOwner(role, "invite members");
    const { token } = await createInvitation(ctx.db, project.id, c.get("account").id, ctx.now);
    // Shown on this response only: the link is the credential, and only its hash is stored.
    return settingsPage(c, { invitationLink: new URL(invitationPath(token), c.req.url).href });
  })
  .post("/projects/:project_id/invitations/:invitation_id/revoke", async (c) => {
    const { ctx, project, role } = await memberContext(c);
    assertOwner(role, "revoke invitations");
    await revokeInvitation(ctx.db, project.id, c.req.param("invitation_id"), ctx.now);
    return redirectWith(c, `/projects/${project.id}/settings`, {
      notice: "Invitation revoked.",
    });
  })
  .post("/projects/:project_id/members/:account_id/remove", async (c) => {
    const { ctx, project, role } = await memberContext(c);
    const back = `/projects/${project.id}/settings`;
    try {
      await removeMember(ctx.db, project.id, c.req.param("account_id"), {
        accountId: c.get("account").id,
        role,
      });
      if (c.req.param("account_id") === c.get("account").id)
        return redirectWith(c, "/projects", { notice: "You left the project." });
      return redirectWith(c, back, { notice: "Member removed." });
    } catch (error) {
      return redirectWith(c, back, { error: errorMessage(error) });
    }
  });
