import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type AccountRow, accounts, projectMembers, webSessions } from "../db/directory.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { newId, randomBase32 } from "../lib/ids.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

export const MIN_PASSWORD_LENGTH = 10;
export const WEB_SESSION_DAYS = 30;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Verified against when an email is unknown, so a wrong email costs the same as a wrong password. */
let decoyHash: Promise<string> | null = null;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The row for a new account; the password is stored only as its PBKDF2 hash. */
export async function newAccountRow(
  email: string,
  password: string,
  now: string,
): Promise<AccountRow> {
  return {
    id: newId("acc"),
    email: normalizeEmail(email),
    passwordHash: await hashPassword(password),
    createdAt: now,
  };
}

export async function createAccount(db: Database, email: string, password: string, now: Date) {
  const account = await newAccountRow(email, password, now.toISOString());
  await db.insert(accounts).values(account);
  return account;
}

export async function signUp(
  db: Database,
  email: string,
  password: string,
  now: Date,
): Promise<AccountRow> {
  const normalized = normalizeEmail(email);
  if (!EMAIL.test(normalized) || normalized.length > 254)
    throw badRequest("body.email", "Enter a valid email address");
  checkNewPassword(password, "body.password");
  const [existing] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, normalized));
  // Without email confirmation a taken address cannot be hidden here; sign-up is rate-limited
  // per address instead, and the answer does not say more than it must.
  if (existing)
    throw badRequest(
      "body.email",
      "No account can be created with this email. If you already have one, sign in.",
    );
  return createAccount(db, normalized, password, now);
}

function checkNewPassword(password: string, field: string) {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw badRequest(field, `Use a password of at least ${MIN_PASSWORD_LENGTH} characters`);
}

/**
 * Replaces the account's password once its current one is given: false (nothing changed) when
 * that is wrong, which the caller counts as a wrong password.
 */
export async function changePassword(
  db: Database,
  account: AccountRow,
  current: string,
  replacement: string,
): Promise<boolean> {
  checkNewPassword(replacement, "body.new_password");
  if (!(await verifyPassword(current, account.passwordHash))) return false;
  await db
    .update(accounts)
    .set({ passwordHash: await hashPassword(replacement) })
    .where(eq(accounts.id, account.id));
  return true;
}

/** The account for these credentials, or null; the caller shows one generic message either way. */
export async function signIn(
  db: Database,
  email: string,
  password: string,
): Promise<AccountRow | null> {
  const [account] = await db
    .select()
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email)));
  if (!account) {
    decoyHash ??= hashPassword("decoy password for timing");
    await verifyPassword(password, await decoyHash);
    return null;
  }
  return (await verifyPassword(password, account.passwordHash)) ? account : null;
}

export async function startWebSession(
  db: Database,
  accountId: string,
  now: Date,
  /** Where the browser is, and how it signed in (the account's security page shows them). */
  signedIn: { ipAddress: string; userAgent: string; signedInWith: string },
): Promise<string> {
  const token = randomBase32(40);
  await db.insert(webSessions).values({
    id: await sha256Hex(token),
    accountId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + WEB_SESSION_DAYS * 86_400_000).toISOString(),
    ...signedIn,
  });
  return token;
}

export async function accountForWebSession(
  db: Database,
  token: string,
  now: Date,
): Promise<AccountRow | null> {
  const [found] = await db
    .select({ account: accounts })
    .from(webSessions)
    .innerJoin(accounts, eq(accounts.id, webSessions.accountId))
    .where(
      and(eq(webSessions.id, await sha256Hex(token)), gt(webSessions.expiresAt, now.toISOString())),
    )
    .limit(1);
  return found?.account ?? null;
}

/**
 * An account deletes itself once it owns no project: its memberships, web sessions and
 * the invitations it made or took go with it (cascades and `set null`).
 */
export async function deleteAccount(db: Database, accountId: string) {
  const [owned] = await db
    .select({ projectId: projectMembers.projectId })
    .from(projectMembers)
    .where(and(eq(projectMembers.accountId, accountId), eq(projectMembers.role, "owner")))
    .limit(1);
  if (owned)
    throw new ApiError(
      409,
      "This account owns a project: delete the project, or make someone else its owner, first",
    );
  await db.delete(accounts).where(eq(accounts.id, accountId));
}

export async function endWebSession(db: Database, token: string) {
  await db.delete(webSessions).where(eq(webSessions.id, await sha256Hex(token)));
}
