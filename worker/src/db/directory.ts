import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const accounts = sqliteTable("accounts", {
  id: text().primaryKey(),
  email: text().notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  createdAt: text("created_at").notNull(),
});

export const projects = sqliteTable(
  "projects",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    createdAt: text("created_at").notNull(),
    /** Days a closed session is kept before it is erased: 1 … 3650. */
    retentionDays: integer("retention_days").notNull().default(30),
    /** The index shard (its D1 binding, `INDEX_2`) that holds the project's sessions and events. */
    shard: text().notNull(),
    /** Members open the project only once their account has a second factor (an SSH key). */
    requireSecondFactor: integer("require_second_factor", { mode: "boolean" })
      .notNull()
      .default(false),
  },
  // How many projects each shard holds: the emptiest takes the next (db/databases.ts).
  (t) => [index("projects_shard_idx").on(t.shard)],
);

/**
 * Projects deleted whose shard has not been emptied yet: written with the project's deletion, in
 * the same transaction, and gone once its shard holds nothing of it (the cron finishes what the
 * deleting request could not). The project itself is gone from the directory at once.
 */
export const erasingProjects = sqliteTable("erasing_projects", {
  projectId: text("project_id").primaryKey(),
  shard: text().notNull(),
  deletedAt: text("deleted_at").notNull(),
});

export const projectMembers = sqliteTable(
  "project_members",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    role: text({ enum: ["owner", "member"] }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.accountId] }),
    index("project_members_account_idx").on(t.accountId),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text().primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** Whose data the key reads and writes: `kp_live_…` keys live, `kp_test_…` test. */
    livemode: integer({ mode: "boolean" }).notNull().default(true),
    prefix: text().notNull(),
    /** SHA-256 (hex) of the full key; the plaintext is never stored. */
    hash: text().notNull().unique(),
    createdAt: text("created_at").notNull(),
    /** The account that made it in the web app; null once that account is deleted (or for seeds). */
    createdBy: text("created_by").references(() => accounts.id, { onDelete: "set null" }),
    expiredAt: text("expired_at"),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [
    index("api_keys_project_idx").on(t.projectId, t.id),
    // What deleting an account seeks to set its keys' author to NULL (like invitations, 0028).
    index("api_keys_created_by_idx").on(t.createdBy).where(sql`${t.createdBy} IS NOT NULL`),
  ],
);

/**
 * Single-use links with which an owner invites someone into a project: whoever opens one signed
 * in joins as a member. Email addresses are never proof of identity (they are not verified).
 */
export const projectInvitations = sqliteTable(
  "project_invitations",
  {
    id: text().primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** SHA-256 (hex) of the token in the link; the link is shown once and never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by").references(() => accounts.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by").references(() => accounts.id, { onDelete: "set null" }),
    revokedAt: text("revoked_at"),
  },
  (t) => [
    index("project_invitations_project_idx").on(t.projectId, t.id),
    // What deleting an account seeks to set its invitations' authors and guests to NULL; without
    // them the deletion read the whole table (migration 0028).
    index("project_invitations_created_by_idx")
      .on(t.createdBy)
      .where(sql`${t.createdBy} IS NOT NULL`),
    index("project_invitations_accepted_by_idx")
      .on(t.acceptedBy)
      .where(sql`${t.acceptedBy} IS NOT NULL`),
  ],
);

/**
 * Signed-in browsers: the cookie holds a random token, this table only its SHA-256, with where
 * and how it signed in (null on browsers signed in before that was kept).
 */
export const webSessions = sqliteTable(
  "web_sessions",
  {
    id: text().primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** How it signed in: `password`, or `sign_up` for the browser that made the account. */
    signedInWith: text("signed_in_with"),
  },
  (t) => [index("web_sessions_account_idx").on(t.accountId)],
);

/**
 * SSH public keys an account signs in with (domain/ssh-sign-in.ts): a key is one account's, so
 * its fingerprint names the account a signature's key belongs to.
 */
export const accountSshKeys = sqliteTable(
  "account_ssh_keys",
  {
    id: text().primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** `<type> <base64>`, as in authorized_keys. */
    publicKey: text("public_key").notNull(),
    /** `SHA256:...`, as `ssh-keygen -l` shows it. */
    fingerprint: text().notNull().unique(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("account_ssh_keys_account_idx").on(t.accountId)],
);

/**
 * An account's passkeys (WebAuthn credentials it registered): the credential's id and COSE public
 * key as the authenticator gave them (base64url), and its signature counter.
 */
export const accountPasskeys = sqliteTable(
  "account_passkeys",
  {
    id: text().primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text().notNull(),
    credentialId: text("credential_id").notNull().unique(),
    publicKey: text("public_key").notNull(),
    counter: integer().notNull(),
    transports: text({ mode: "json" }).$type<string[]>().notNull(),
    /** Synced between the user's devices (a platform's passkey) rather than held by one. */
    backedUp: integer("backed_up", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("account_passkeys_account_idx").on(t.accountId)],
);

/** An account's recovery codes: their SHA-256 only, each used once. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: text("created_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

/**
 * Sign-in codes a signature or a passkey has used, and passkey registration challenges (their
 * SHA-256): each is good once. Swept after a day.
 */
export const usedSignInCodes = sqliteTable("used_sign_in_codes", {
  codeHash: text("code_hash").primaryKey(),
  usedAt: text("used_at").notNull(),
});

/** What an account's security log records (domain/security-log.ts). */
export const SECURITY_EVENTS = [
  "account_created",
  "signed_in",
  "sign_in_failed",
  "sign_in_blocked",
  "signed_out",
  "browser_ended",
  "other_browsers_ended",
  "ssh_key_added",
  "ssh_key_removed",
  "passkey_added",
  "passkey_removed",
  "password_changed",
  "recovery_codes_created",
  "recovery_code_used",
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

/**
 * An account's security log: its sign-ins, failed and blocked ones, and its browsers signed out,
 * each with the client's address and user agent. Deleted with the account; kept
 * SECURITY_LOG_KEPT_DAYS otherwise.
 */
export const securityLog = sqliteTable(
  "security_log",
  {
    id: text().primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    event: text({ enum: SECURITY_EVENTS }).notNull(),
    details: text({ mode: "json" }).$type<Record<string, string | number | boolean>>().notNull(),
    ipAddress: text("ip_address").notNull(),
    userAgent: text("user_agent").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("security_log_account_idx").on(t.accountId, t.id)],
);

/** What a project's audit log records (domain/audit-log.ts). */
export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.revoked",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "member.invited",
  "member.removed",
  "project.renamed",
  "project.retention_changed",
  "project.test_data_deleted",
  "project.second_factor_required",
  "session.redacted",
  "session.deleted",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * A project's audit log: each change to it by a member (an account) or an API key, with who,
 * when and from where. Ids sort by time. What a change named is its target's id and a few
 * settings (a role, a retention), never a session's data. Deleted with the project; kept
 * AUDIT_KEPT_DAYS (domain/audit-log.ts) otherwise.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text().primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    actorType: text("actor_type", { enum: ["account", "api_key"] }).notNull(),
    /** The account's id, or the API key's. */
    actorId: text("actor_id").notNull(),
    /** The account's email then, or the API key's prefix. */
    actorLabel: text("actor_label").notNull(),
    action: text({ enum: AUDIT_ACTIONS }).notNull(),
    targetId: text("target_id"),
    details: text({ mode: "json" }).$type<Record<string, string | number | boolean>>().notNull(),
    ipAddress: text("ip_address").notNull(),
    userAgent: text("user_agent").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("audit_log_project_idx").on(t.projectId, t.id)],
);

/** Each shard's size as last measured (the cron, from D1's own `size_after`): where projects go. */
export const shards = sqliteTable("shards", {
  /** The shard's D1 binding: `INDEX_0`, `INDEX_1`, ... */
  name: text().primaryKey(),
  sizeBytes: integer("size_bytes").notNull(),
  measuredAt: text("measured_at").notNull(),
});

export type AccountRow = typeof accounts.$inferSelect;
export type InvitationRow = typeof projectInvitations.$inferSelect;
