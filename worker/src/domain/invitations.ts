import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  type InvitationRow,
  projectInvitations,
  projectMembers,
  projects,
} from "../db/directory.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { newId, randomBase32 } from "../lib/ids.ts";

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
/** 32 base32 characters: 160 bits, so a link cannot be guessed. */
const TOKEN_LENGTH = 32;
const TOKEN_PATTERN = /^[0-9a-hjkmnp-tv-z]{32}$/;

const INVALID_LINK = () =>
  new ApiError(
    404,
    "This invitation link cannot be used: it was used already, revoked, or it expired. Ask for a new one.",
  );

/** The part of the web app's URL space an invitation link lives in. */
export const invitationPath = (token: string) => `/invitations/${token}`;

/** A new invitation into `projectId`; the token is returned once and only its hash stored. */
export async function createInvitation(
  db: Database,
  projectId: string,
  createdBy: string,
  now: Date,
): Promise<{ row: InvitationRow; token: string }> {
  const token = randomBase32(TOKEN_LENGTH);
  const row: InvitationRow = {
    id: newId("inv", now.getTime()),
    projectId,
    tokenHash: await sha256Hex(token),
    createdBy,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
  };
  await db.insert(projectInvitations).values(row);
  return { row, token };
}

const usable = (now: Date) =>
  and(
    isNull(projectInvitations.acceptedAt),
    isNull(projectInvitations.revokedAt),
    gt(projectInvitations.expiresAt, now.toISOString()),
  );

/** Invitations of a project that can still be used, newest first. */
export function pendingInvitations(db: Database, projectId: string, now: Date) {
  return db
    .select()
    .from(projectInvitations)
    .where(and(eq(projectInvitations.projectId, projectId), usable(now)))
    .orderBy(desc(projectInvitations.id));
}

export async function revokeInvitation(
  db: Database,
  projectId: string,
  invitationId: string,
  now: Date,
) {
  const revoked = await db
    .update(projectInvitations)
    .set({ revokedAt: now.toISOString() })
    .where(
      and(
        eq(projectInvitations.id, invitationId),
        eq(projectInvitations.projectId, projectId),
        usable(now),
      ),
    )
    .returning({ id: projectInvitations.id });
  if (revoked.length === 0) throw notFound("Invitation");
}

/** The project a usable invitation leads to; a used, revoked, expired or unknown one is a 404. */
export async function invitationFor(db: Database, token: string, now: Date) {
  if (!TOKEN_PATTERN.test(token)) throw INVALID_LINK();
  const [found] = await db
    .select({ invitation: projectInvitations, projectName: projects.name })
    .from(projectInvitations)
    .innerJoin(projects, eq(projects.id, projectInvitations.projectId))
    .where(and(eq(projectInvitations.tokenHash, await sha256Hex(token)), usable(now)))
    .limit(1);
  if (!found) throw INVALID_LINK();
  return found;
}

/**
 * Joins the account to the invitation's project and uses the invitation up, in one D1 batch:
 * the membership is inserted only if this account's claim on the invitation won, so two people
 * opening the same link at once cannot both join. An existing member keeps the invitation unused.
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  accountId: string,
  now: Date,
): Promise<string> {
  const { invitation } = await invitationFor(db, token, now);
  const [member] = await db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, invitation.projectId),
        eq(projectMembers.accountId, accountId),
      ),
    );
  if (member) return invitation.projectId;
  const at = now.toISOString();
  const claimed = and(
    eq(projectInvitations.id, invitation.id),
    eq(projectInvitations.acceptedBy, accountId),
  );
  const [claim] = await db.batch([
    db
      .update(projectInvitations)
      .set({ acceptedAt: at, acceptedBy: accountId })
      .where(and(eq(projectInvitations.id, invitation.id), usable(now)))
      .returning({ id: projectInvitations.id }),
    db
      .insert(projectMembers)
      .select(
        db
          .select({
            projectId: projectInvitations.projectId,
            accountId: sql<string>`${accountId}`.as("account_id"),
            role: sql<"member">`'member'`.as("role"),
            createdAt: sql<string>`${at}`.as("created_at"),
          })
          .from(projectInvitations)
          .where(claimed),
      )
      .onConflictDoNothing(),
  ]);
  if (claim.length === 0) throw INVALID_LINK();
  return invitation.projectId;
}
