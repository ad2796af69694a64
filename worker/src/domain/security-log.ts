import { and, desc, eq, gt, lt, ne } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { Database } from "../db/client.ts";
import { accounts, type SecurityEvent, securityLog, webSessions } from "../db/directory.ts";
import { clientAddress } from "../lib/client-address.ts";
import { encodeTime, newId } from "../lib/ids.ts";
import { normalizeEmail } from "./accounts.ts";

/**
 * An account's security log and its signed-in browsers, as its security page shows them: each
 * sign-in (and how), each failed or blocked one, each browser signed out, with when, the client's
 * address and its user agent. The account sees its own; nobody else does.
 */
export const SECURITY_LOG_KEPT_DAYS = 400;
/** The security page shows this many of the newest entries. */
export const SECURITY_LOG_SHOWN = 100;
/** A user agent is kept up to this many characters (sign-ins refuse one over 1,024: web/app.tsx). */
const USER_AGENT_KEPT = 256;

/** Where a request comes from, as the log keeps it. */
export interface Origin {
  ipAddress: string;
  userAgent: string;
}

export const originOf = (c: Context<AppEnv>): Origin => ({
  ipAddress: clientAddress(c.req.raw.headers, c.env),
  userAgent: (c.req.header("user-agent") ?? "").slice(0, USER_AGENT_KEPT),
});

export async function recordSecurityEvent(
  db: Database,
  accountId: string,
  event: SecurityEvent,
  origin: Origin,
  details: Record<string, string | number | boolean> = {},
  now = new Date(),
) {
  await db.insert(securityLog).values({
    id: newId("sec", now.getTime()),
    accountId,
    event,
    details,
    ...origin,
    createdAt: now.toISOString(),
  });
}

/** The account's id for an email, to log a failed sign-in against it; null for no account. */
export async function accountIdOf(db: Database, email: string): Promise<string | null> {
  const [found] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email)))
    .limit(1);
  return found?.id ?? null;
}

export function securityLogOf(db: Database, accountId: string) {
  return db
    .select()
    .from(securityLog)
    .where(eq(securityLog.accountId, accountId))
    .orderBy(desc(securityLog.id))
    .limit(SECURITY_LOG_SHOWN);
}

/** The account's signed-in browsers, newest first. */
export function browsersOf(db: Database, accountId: string, now: Date) {
  return db
    .select()
    .from(webSessions)
    .where(and(eq(webSessions.accountId, accountId), gt(webSessions.expiresAt, now.toISOString())))
    .orderBy(desc(webSessions.createdAt));
}

/** Signs out one of the account's browsers (by its session's id): false when it has none such. */
export async function endBrowser(db: Database, accountId: string, sessionId: string) {
  const ended = await db
    .delete(webSessions)
    .where(and(eq(webSessions.accountId, accountId), eq(webSessions.id, sessionId)))
    .returning({ id: webSessions.id });
  return ended.length > 0;
}

/** Signs out every browser of the account but `keptId`: how many were. */
export async function endOtherBrowsers(db: Database, accountId: string, keptId: string) {
  const ended = await db
    .delete(webSessions)
    .where(and(eq(webSessions.accountId, accountId), ne(webSessions.id, keptId)))
    .returning({ id: webSessions.id });
  return ended.length;
}

/** The cron's share: entries older than SECURITY_LOG_KEPT_DAYS, every account's. */
export function securityEntriesPastTheirTime(db: Database, now = new Date()) {
  const before = `sec_${encodeTime(now.getTime() - SECURITY_LOG_KEPT_DAYS * 86_400_000)}`;
  return db.delete(securityLog).where(lt(securityLog.id, before)).returning({ id: securityLog.id });
}
