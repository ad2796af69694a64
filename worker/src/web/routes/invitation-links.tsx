import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { acceptInvitation, invitationFor } from "../../domain/invitations.ts";
import { pageContext, redirectWith } from "../forms.ts";
import { InvitationPage } from "../pages/invitation-page.tsx";

/** `/invitations/<token>`: whoever opens the link signed in may join the project it names. */
export const invitationRoutes = new Hono<AppEnv>()
  .get("/:token", async (c) => {
    const { projectName } = await invitationFor(
      directoryDb(c.env),
      c.req.param("token"),
      new Date(),
    );
    return c.html(
      <InvitationPage
        page={pageContext(c)}
        projectName={projectName}
        action={`/invitations/${c.req.param("token")}`}
      />,
    );
  })
  .post("/:token", async (c) => {
    const projectId = await acceptInvitation(
      directoryDb(c.env),
      c.req.param("token"),
      c.var.account.id,
      new Date(),
    );
    return redirectWith(c, `/projects/${projectId}/sessions`, {
      notice: "You joined the project.",
    });
  });
