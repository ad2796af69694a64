import { Hono, type Context as HonoContext } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { deleteAccount } from "../../domain/accounts.ts";
import { apiKeysOf, createApiKey, revokeApiKey, workingKeysBy } from "../../domain/api-keys.ts";
import { audit } from "../../domain/audit-log.ts";
import {
  createInvitation,
  invitationPath,
  pendingInvitations,
  revokeInvitation,
} from "../../domain/invitations.ts";
import { hasSecondFactor } from "../../domain/passkeys.ts";
import { deleteProject, deleteTestData } from "../../domain/project-erasure.ts";
import { projectOverview } from "../../domain/project-overview.ts";
import {
  createProject,
  membersOf,
  projectsOf,
  removeMember,
  renameProject,
  retentionDaysOf,
  setRetentionDays,
  setSecondFactorRequired,
} from "../../domain/projects.ts";
import { badRequest } from "../../lib/errors.ts";
import { listWebhooks } from "../../webhooks/definitions.ts";
import {
  clearSessionCookie,
  cookieName,
  MODE_COOKIE,
  THEME_COOKIE_MAX_AGE_SECONDS,
} from "../auth.ts";
import {
  errorMessage,
  type FormState,
  formState,
  optionalText,
  pageContext,
  redirectWith,
  takeShownOnce,
  text,
} from "../forms.ts";
import { ProjectHomePage } from "../pages/project-home-page.tsx";
import { SettingsPage } from "../pages/project-settings-page.tsx";
import { ProjectsPage } from "../pages/projects-page.tsx";

type Context = HonoContext<AppEnv>;

/**
 * What the settings page shows once, on the response that made it: a new secret, or one of its
 * forms as the user sent it, with its problems.
 */
interface ShownOnce {
  newKey?: { name: string; plaintext: string };
  invitationLink?: string;
  renameForm?: FormState;
  retentionForm?: FormState;
  deleteForm?: FormState;
  apiKeyForm?: FormState;
}

async function settingsPage(c: Context, shown: ShownOnce = {}, status: 200 | 400 = 200) {
  const ctx = c.var.project;
  const { project, role } = c.var.member;
  const [members, keys, hooks, invitations] = await Promise.all([
    membersOf(ctx.directory, project.id),
    apiKeysOf(ctx.directory, project.id),
    listWebhooks(ctx, { kind: "project" }, { offset: 0, limit: 100 }),
    role === "owner" ? pendingInvitations(ctx.directory, project.id, ctx.now) : [],
  ]);
  return c.html(
    <SettingsPage
      page={pageContext(c)}
      project={project}
      role={role}
      members={members}
      keys={keys}
      webhooks={hooks.items}
      invitations={invitations}
      {...shown}
    />,
    status,
  );
}

const settingsPath = (c: Context) => `/projects/${c.var.member.project.id}/settings`;

/** `/projects`: the signed-in account's projects, and a new one. */
export const projectListRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const projects = await projectsOf(directoryDb(c.env), c.var.account.id);
    return c.html(
      <ProjectsPage page={pageContext(c)} projects={projects} accountId={c.var.account.id} />,
    );
  })
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const db = directoryDb(c.env);
    try {
      const project = await createProject(
        c.env,
        db,
        c.var.account.id,
        text(form, "name"),
        new Date(),
      );
      return redirectWith(c, `/projects/${project.id}`, {
        notice: "Project created. Next, create an API key in Settings to call the API.",
      });
    } catch (error) {
      const projects = await projectsOf(db, c.var.account.id);
      return c.html(
        <ProjectsPage page={pageContext(c)} projects={projects} form={formState(form, error)} />,
        400,
      );
    }
  });

/** `/projects/account/delete`: an account that owns no project deletes itself. */
projectListRoutes.post("/account/delete", async (c) => {
  const db = directoryDb(c.env);
  try {
    await deleteAccount(db, c.var.account.id);
  } catch (error) {
    return redirectWith(c, "/projects", { error: errorMessage(error) });
  }
  clearSessionCookie(c);
  return c.redirect("/", 303);
});

/** A project's settings, under the members-only mount. */
export const projectSettingsRoutes = new Hono<AppEnv>()
  .get("/", async (c) =>
    c.html(
      <ProjectHomePage
        page={pageContext(c)}
        project={c.var.member.project}
        overview={await projectOverview(c.var.project)}
      />,
    ),
  )
  .get("/settings", (c) => settingsPage(c, takeShownOnce(c, c.var.member.project.id)))
  .post("/rename", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    try {
      await renameProject(ctx.directory, ctx.projectId, text(form, "name"));
      await audit(c, { action: "project.renamed", details: { name: text(form, "name").trim() } });
      return redirectWith(c, settingsPath(c), { notice: "Renamed." });
    } catch (error) {
      return settingsPage(c, { renameForm: formState(form, error) }, 400);
    }
  })
  .post("/retention", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    // Shortening retention erases sessions: an owner's decision, like deleting them.
    if (c.var.member.role !== "owner")
      return redirectWith(c, `${settingsPath(c)}#retention`, {
        error: "Only an owner can change retention.",
      });
    try {
      const days = retentionDaysOf(text(form, "retention_days"));
      await setRetentionDays(ctx, days);
      await audit(c, { action: "project.retention_changed", details: { retention_days: days } });
      return redirectWith(c, `${settingsPath(c)}#retention`, { notice: "Retention saved." });
    } catch (error) {
      return settingsPage(c, { retentionForm: formState(form, error) }, 400);
    }
  })
  .post("/second-factor", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    if (c.var.member.role !== "owner")
      return redirectWith(c, `${settingsPath(c)}#second-factor`, {
        error: "Only an owner can require a second factor.",
      });
    const required = text(form, "required") === "true";
    // The owner asking keeps the project open: they need a second factor first.
    if (required && !(await hasSecondFactor(ctx.directory, c.var.account.id)))
      return redirectWith(c, "/account/security#passkeys", {
        error:
          "Add a passkey or an SSH key to your own account first: the project will require one of you too.",
      });
    await setSecondFactorRequired(ctx.directory, ctx.projectId, required);
    await audit(c, { action: "project.second_factor_required", details: { required } });
    return redirectWith(c, `${settingsPath(c)}#second-factor`, {
      notice: required
        ? "Members now need a second factor to open this project."
        : "Members no longer need a second factor to open this project.",
    });
  })
  .post("/api-keys", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    try {
      const expiresOn = optionalText(form, "expires_on");
      // The key works until the end of the day chosen, in UTC.
      const expiredAt = expiresOn ? new Date(`${expiresOn}T23:59:59.999Z`) : null;
      if (expiredAt && Number.isNaN(expiredAt.getTime()))
        throw badRequest("body.expires_on", "Enter the expiry date as YYYY-MM-DD");
      const mode = text(form, "mode") === "test" ? "test" : "live";
      const { row, plaintext } = await createApiKey(ctx, {
        name: text(form, "name"),
        mode,
        expiredAt,
        createdBy: c.var.account.id,
      });
      await audit(c, {
        action: "api_key.created",
        targetId: row.id,
        details: { prefix: row.prefix, mode, name: row.name },
      });
      // Shown once, by the page this redirects to: never stored, never in a URL.
      return redirectWith(
        c,
        `${settingsPath(c)}#api-keys`,
        { notice: "API key created." },
        { projectId: ctx.projectId, newKey: { name: row.name, plaintext } },
      );
    } catch (error) {
      return settingsPage(c, { apiKeyForm: formState(form, error) }, 400);
    }
  })
  .post("/mode", async (c) => {
    // Which data the project's pages show, remembered in this browser.
    const form = await c.req.parseBody();
    const base = `/projects/${c.var.member.project.id}`;
    const back = text(form, "back");
    if (text(form, "livemode") === "false")
      setCookie(c, cookieName(c, MODE_COOKIE), "test", {
        path: "/",
        httpOnly: true,
        secure: true,
        sameSite: "Lax",
        maxAge: THEME_COOKIE_MAX_AGE_SECONDS,
      });
    else deleteCookie(c, cookieName(c, MODE_COOKIE), { path: "/", secure: true });
    // Back to the same page of this project, or its home: never anywhere else.
    return c.redirect(back === base || back.startsWith(`${base}/`) ? back : base, 303);
  })
  .post("/test-data/delete", async (c) => {
    const form = await c.req.parseBody();
    if (c.var.member.role !== "owner")
      return redirectWith(c, settingsPath(c), { error: "Only an owner can delete test data." });
    if (text(form, "confirm") !== "delete-test-data")
      return redirectWith(c, `${settingsPath(c)}#test-data`, {
        error: "Tick the box to confirm deleting all test data.",
      });
    await deleteTestData(c.var.project);
    await audit(c, { action: "project.test_data_deleted" });
    return redirectWith(c, `${settingsPath(c)}#test-data`, {
      notice:
        "All test data is deleted: test sessions, their events and deliveries, test webhooks.",
    });
  })
  .post("/api-keys/:key_id/revoke", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    // Integrations using the key fail at once: one click does not do it (project-settings-page.tsx).
    if (text(form, "confirm") !== "revoke")
      return redirectWith(c, `${settingsPath(c)}#api-keys`, {
        error: "Tick the box to confirm revoking the key.",
      });
    await revokeApiKey(ctx.directory, ctx.projectId, c.req.param("key_id"), ctx.now);
    await audit(c, { action: "api_key.revoked", targetId: c.req.param("key_id") });
    return redirectWith(c, `${settingsPath(c)}#api-keys`, { notice: "API key revoked." });
  })
  .post("/members/:account_id/remove", async (c) => {
    const ctx = c.var.project;
    const accountId = c.req.param("account_id");
    try {
      await removeMember(ctx.directory, ctx.projectId, accountId, {
        accountId: c.var.account.id,
        role: c.var.member.role,
      });
      await audit(c, { action: "member.removed", targetId: accountId });
      if (accountId === c.var.account.id)
        return redirectWith(c, "/projects", { notice: "You left the project." });
      // Their keys are the project's and keep working: say so, so someone decides.
      const left = await workingKeysBy(ctx.directory, ctx.projectId, accountId, ctx.now);
      return redirectWith(c, `${settingsPath(c)}${left > 0 ? "#api-keys" : ""}`, {
        notice:
          left === 0
            ? "Member removed."
            : `Member removed. ${left === 1 ? "An API key they created still works" : `${left} API keys they created still work`}: revoke ${left === 1 ? "it" : "them"} below unless the project still needs ${left === 1 ? "it" : "them"}.`,
      });
    } catch (error) {
      return redirectWith(c, settingsPath(c), { error: errorMessage(error) });
    }
  })
  .post("/delete", async (c) => {
    const ctx = c.var.project;
    const form = await c.req.parseBody();
    if (c.var.member.role !== "owner")
      return redirectWith(c, settingsPath(c), { error: "Only an owner can delete the project." });
    try {
      const { erasedNow } = await deleteProject(
        { ...ctx, name: c.var.member.project.name },
        text(form, "confirm"),
        ctx.now,
      );
      return redirectWith(c, "/projects", {
        notice: erasedNow
          ? "The project and all its data are deleted."
          : "The project is deleted: nobody can open it or use its keys. Its sessions and events are being erased, and will be gone within minutes.",
      });
    } catch (error) {
      return settingsPage(c, { deleteForm: formState(form, error) }, 400);
    }
  });

/** `/projects/:project_id/invitations`, under the owners-only mount. */
export const invitationAdminRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const ctx = c.var.project;
    const { row, token } = await createInvitation(
      ctx.directory,
      ctx.projectId,
      c.var.account.id,
      ctx.now,
    );
    await audit(c, { action: "member.invited", targetId: row.id });
    // Shown once, by the page this redirects to: the link is the credential, only its hash is kept.
    return redirectWith(
      c,
      `${settingsPath(c)}#members`,
      { notice: "Invitation created." },
      { projectId: ctx.projectId, invitationLink: new URL(invitationPath(token), c.req.url).href },
    );
  })
  .post("/:invitation_id/revoke", async (c) => {
    const ctx = c.var.project;
    await revokeInvitation(ctx.directory, ctx.projectId, c.req.param("invitation_id"), ctx.now);
    return redirectWith(c, settingsPath(c), { notice: "Invitation revoked." });
  });
