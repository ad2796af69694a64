import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { hasSecondFactor } from "../domain/passkeys.ts";
import { redirectWith } from "./forms.ts";

/**
 * After `requireMember`: a project whose owners require a second factor opens only for an
 * account that has one (a passkey or an SSH key); any other member is sent to add one first.
 */
export const requireSecondFactor = createMiddleware<AppEnv>(async (c, next) => {
  const { project } = c.var.member;
  // Leaving needs no second factor: a member who will not add one can still go.
  const leaving =
    c.req.method === "POST" && c.req.path.endsWith(`/members/${c.var.account.id}/remove`);
  if (
    project.requireSecondFactor &&
    !leaving &&
    !(await hasSecondFactor(c.var.project.directory, c.var.account.id))
  )
    return redirectWith(c, "/account/security#passkeys", {
      error: `The project ${project.name} requires a second factor of its members: add a passkey or an SSH key, then open it again (or leave it from your projects).`,
    });
  await next();
});
