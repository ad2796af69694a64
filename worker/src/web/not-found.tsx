import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { chosenTheme } from "./auth.ts";
import { Layout } from "./layout.tsx";

/** Paths that belong to the API and the bridge: their answers stay problem+json. */
const MACHINE_PATHS = /^\/(api|internal)\/|^\/\.well-known\//;

/** Whether a request that found no page is a browser's, to be answered with HTML. */
export const isWebPath = (path: string) => !MACHINE_PATHS.test(path);

/**
 * Addresses one gets by trimming a page's URL (`/projects/<id>/webhooks` from a webhook's page),
 * and the settings section where those things live.
 */
const TRIMMED = /^\/projects\/([^/]+)\/(webhooks|api-keys|members|invitations)\/?$/;
const SECTIONS: Record<string, string> = {
  webhooks: "webhooks",
  "api-keys": "api-keys",
  members: "members",
  invitations: "members",
};

/**
 * What a browser is shown for a page that does not exist (or a method a page does not take):
 * the settings section the address points into, or the web app's own 404 page.
 */
export function webNotFound(c: Context<AppEnv>) {
  const trimmed = c.req.method === "GET" ? TRIMMED.exec(c.req.path) : null;
  if (trimmed)
    return c.redirect(`/projects/${trimmed[1]}/settings#${SECTIONS[trimmed[2] ?? ""]}`, 303);
  const page = {
    csrf: c.var.csrf ?? "",
    account: c.var.account,
    path: c.req.path,
    theme: chosenTheme(c),
  };
  return c.html(
    <Layout title="Page not found" page={page}>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p>
        <a href={c.var.account ? "/projects" : "/"}>
          {c.var.account ? "Back to your projects" : "Back to the start"}
        </a>
      </p>
    </Layout>,
    404,
  );
}
