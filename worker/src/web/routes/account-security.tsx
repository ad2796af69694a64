import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import {
  browsersOf,
  endBrowser,
  endOtherBrowsers,
  originOf,
  recordSecurityEvent,
  securityLogOf,
} from "../../domain/security-log.ts";
import { sha256Hex } from "../../lib/encoding.ts";
import { cookieName, SESSION_COOKIE } from "../auth.ts";
import { pageContext, redirectWith } from "../forms.ts";
import { SecurityPage } from "../pages/security-page.tsx";

/** The signed-in browser's own session id: the SHA-256 of its cookie's token. */
const currentSessionId = async (c: Parameters<typeof pageContext>[0]) =>
  sha256Hex(getCookie(c, cookieName(c, SESSION_COOKIE)) ?? "");

/** `/account/...`: the signed-in account's own security page and what it does. */
export const accountSecurityRoutes = new Hono<AppEnv>()
  .get("/security", async (c) => {
    const db = directoryDb(c.env);
    const [browsers, log] = await Promise.all([
      browsersOf(db, c.var.account.id, new Date()),
      securityLogOf(db, c.var.account.id),
    ]);
    return c.html(
      <SecurityPage
        page={pageContext(c)}
        browsers={browsers}
        currentId={await currentSessionId(c)}
        log={log}
      />,
    );
  })
  .post("/browsers/end-others", async (c) => {
    const db = directoryDb(c.env);
    const ended = await endOtherBrowsers(db, c.var.account.id, await currentSessionId(c));
    await recordSecurityEvent(db, c.var.account.id, "other_browsers_ended", originOf(c), {
      browsers: ended,
    });
    return redirectWith(c, "/account/security", {
      notice: `${ended} other browser${ended === 1 ? "" : "s"} signed out.`,
    });
  })
  .post("/browsers/:session_id/end", async (c) => {
    const db = directoryDb(c.env);
    const ended = await endBrowser(db, c.var.account.id, c.req.param("session_id"));
    if (!ended)
      return redirectWith(c, "/account/security", { error: "That browser is already signed out." });
    await recordSecurityEvent(db, c.var.account.id, "browser_ended", originOf(c));
    return redirectWith(c, "/account/security", { notice: "That browser is signed out." });
  });
