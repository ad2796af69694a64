import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { CertificateRecord } from "../protocol/certificates.ts";
import type { UncountedReason } from "../protocol/key-outcomes.ts";
import {
  CONNECTION_METHODS,
  CONNECTION_RESULTS,
  SESSION_KINDS,
  SESSION_STATUSES,
} from "../protocol/messages.ts";
import type { SecurityKeyRecord } from "../protocol/public-keys.ts";

/** A connection's outcome: in progress, then how it finished, or `disconnected` (never reported). */
export const CONNECTION_OUTCOMES = ["in_progress", ...CONNECTION_RESULTS, "disconnected"] as const;

/**
 * A session's rows live in two stores: its Durable Object, which holds the truth, and
 * D1, the project-wide index the object feeds. Each row's columns are declared once here; D1's
 * tables add their references and indexes, the object's (session-object/tables.ts) what only it
 * keeps. `version` is the session's change counter when the row last changed: the index never
 * takes an older row over a newer one.
 */
export const sessionColumns = () => ({
  id: text().primaryKey(),
  projectId: text("project_id").notNull(),
  kind: text({ enum: SESSION_KINDS }).notNull(),
  connectionIdentifier: text("connection_identifier").notNull().unique(),
  status: text({ enum: SESSION_STATUSES }).notNull(),
  externalId: text("external_id"),
  multiKey: integer("multi_key", { mode: "boolean" }).notNull(),
  multiConnection: integer("multi_connection", { mode: "boolean" }).notNull(),
  mustConfirm: integer("must_confirm", { mode: "boolean" }).notNull(),
  sshBanner: text("ssh_banner"),
  sshMessage: text("ssh_message"),
  matchAllKeys: integer("match_all_keys", { mode: "boolean" }).notNull(),
  maxAttempts: integer("max_attempts").notNull(),
  failedAttempts: integer("failed_attempts").notNull(),
  requireSecurityKey: integer("require_security_key", { mode: "boolean" }).notNull().default(false),
  requireUserVerification: integer("require_user_verification", { mode: "boolean" })
    .notNull()
    .default(false),
  /** A principal that certificates from the trusted CAs must list (verification). */
  principal: text(),
  /** When a connection first proved a key through a trusted CA's certificate. */
  certificateVerifiedAt: text("certificate_verified_at"),
  /** What `ssh-keygen -Y sign` must sign now; a recorded proof uses it up. */
  signatureChallenge: text("signature_challenge").notNull().default(""),
  /** Where the hosted proof page sends the user when done, with the result. */
  returnUrl: text("return_url"),
  expiredAt: text("expired_at").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  completedAt: text("completed_at"),
  verifiedAt: text("verified_at"),
  /**
   * When its personal data was erased: its keys, addresses, client software,
   * `external_id` and `return_url` are gone from every row; the outline stays.
   */
  redactedAt: text("redacted_at"),
  /** Live data, or test data: only keys of its mode see it. */
  livemode: integer({ mode: "boolean" }).notNull().default(true),
  /**
   * Its events' ids, oldest first: how a session's events are found (its event log, deliveries,
   * redaction, erasure) without an index of events by session, which was a row written for
   * every event and another for its erasure (docs/decisions.md, "The whole bill").
   */
  eventIds: text("event_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
  version: integer().notNull().default(0),
});

/** The columns every stored public key has, whether configured or collected. */
function publicKeyColumns() {
  return {
    publicKeySsh: text("public_key_ssh").notNull(),
    publicKeyPem: text("public_key_pem"),
    publicKeyMd5: text("public_key_md5").notNull(),
    publicKeySha256: text("public_key_sha256").notNull(),
    publicKeyAlgorithm: text("public_key_algorithm").notNull(),
    publicKeyBits: integer("public_key_bits").notNull(),
    comment: text(),
    securityKey: text("security_key", { mode: "json" }).$type<SecurityKeyRecord>(),
    certificate: text({ mode: "json" }).$type<CertificateRecord>(),
  };
}

/** Keys given in advance to a verification session. */
export const sessionKeyColumns = () => ({
  id: text().primaryKey(),
  sessionId: text("session_id").notNull(),
  position: integer().notNull(),
  name: text(),
  externalId: text("external_id"),
  /** The forge account that lists the key (`github:alice`); null for a key given inline. */
  source: text(),
  ...publicKeyColumns(),
  verifiedAt: text("verified_at"),
  createdAt: text("created_at").notNull(),
  version: integer().notNull().default(0),
});

/** Certificate authorities a verification session trusts: their certificates prove a key. */
export const sessionAuthorityColumns = () => ({
  id: text().primaryKey(),
  sessionId: text("session_id").notNull(),
  position: integer().notNull(),
  name: text(),
  ...publicKeyColumns(),
  createdAt: text("created_at").notNull(),
});

export const connectionColumns = () => ({
  id: text().primaryKey(),
  sessionId: text("session_id").notNull(),
  /** An SSH connection through the bridge, or a signature sent over HTTPS. */
  method: text({ enum: CONNECTION_METHODS }).notNull().default("ssh"),
  ipAddress: text("ip_address").notNull(),
  clientVersion: text("client_version").notNull(),
  createdAt: text("created_at").notNull(),
  closedAt: text("closed_at"),
  confirmed: integer({ mode: "boolean" }),
  outcome: text({ enum: CONNECTION_OUTCOMES }).notNull(),
  /** Why offered keys did not count, one code each: never their fingerprints. */
  refusals: text({ mode: "json" }).$type<UncountedReason[]>().notNull().default([]),
  version: integer().notNull().default(0),
});

/** Keys a connection proved: collected keys, or the configured keys it matched. */
export const connectionKeyColumns = () => ({
  id: text().primaryKey(),
  connectionId: text("connection_id").notNull(),
  sessionId: text("session_id").notNull(),
  ...publicKeyColumns(),
  createdAt: text("created_at").notNull(),
});

/** A column that names its session, removed with it. */
const ofSession = () =>
  text("session_id")
    .notNull()
    .references(() => sessions.id, { onDelete: "cascade" });

/*
 * An index shard's tables: a project's index data lives in the one shard the directory
 * names for it. Projects live in the directory, so nothing here refers to them by a foreign key:
 * erasing a project deletes its rows here by its id (domain/project-erasure.ts).
 */
export const sessions = sqliteTable(
  "sessions",
  sessionColumns(),
  // Every index entry is a row written (D1 bills it), so a project's sessions have one index for
  // the lists: by mode and kind, in creation order (a list reads only its mode's sessions). Not by
  // status: a status in the index moved its entry when the session closed, a row written a proof
  //; a list filtered by status reads its kind's sessions newest first until its page
  // is full, and its count reads them all. The retention sweep reads this index too
  // (domain/retention.ts).
  (t) => [
    index("sessions_project_mode_kind_idx").on(t.projectId, t.livemode, t.kind, t.id),
    // Only sessions that have an external_id: a filter by it names one (an index row less each).
    index("sessions_project_mode_kind_external_idx")
      .on(t.projectId, t.livemode, t.kind, t.externalId, t.id)
      .where(sql`${t.externalId} IS NOT NULL`),
  ],
);

export const sessionKeys = sqliteTable(
  "session_keys",
  { ...sessionKeyColumns(), sessionId: ofSession() },
  // By session only: the object keeps a session's keys distinct, and a redacted key has no
  // fingerprint left to be distinct by.
  (t) => [index("session_keys_session_idx").on(t.sessionId)],
);

export const sessionAuthorities = sqliteTable(
  "session_authorities",
  { ...sessionAuthorityColumns(), sessionId: ofSession() },
  (t) => [index("session_authorities_session_idx").on(t.sessionId)],
);

/** A key a connection proved, as its connection's row in the index holds it (`keys`). */
export type IndexedConnectionKey = Omit<
  typeof connectionKeys.$inferSelect,
  "sessionId" | "connectionId"
>;

/*
 * A session's connections are keyed by session first (WITHOUT ROWID): the key is the index that
 * reads them by session, so a row written is one row billed. A connection's row holds the keys it
 * proved (`keys`, JSON): a proof writes one row where a connection and its key were two, and
 * erasure deletes one. A connection goes with its session (never removed alone).
 */
export const connections = sqliteTable(
  "connections",
  {
    ...connectionColumns(),
    id: text().notNull(),
    sessionId: ofSession(),
    keys: text({ mode: "json" }).$type<IndexedConnectionKey[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.id] })],
);

/**
 * The security keys among the keys connections proved, a row each beside their connection's
 * `keys`: what a new proof's counter is checked against across the project, by fingerprint
 * (session-object/counters.ts). Other keys have no row here.
 */
export const connectionKeys = sqliteTable(
  "connection_keys",
  { ...connectionKeyColumns(), id: text().notNull(), sessionId: ofSession() },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.id] }),
    // A security key's last counter in the project: looked up by fingerprint, security keys only.
    index("connection_keys_fingerprint_lookup_idx")
      .on(t.publicKeySha256)
      .where(sql`${t.securityKey} IS NOT NULL`),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
export type SessionKeyRow = typeof sessionKeys.$inferSelect;
export type SessionAuthorityRow = typeof sessionAuthorities.$inferSelect;
/** A connection, without the keys its index row holds (the object keeps those apart). */
export type ConnectionRow = Omit<typeof connections.$inferSelect, "keys">;
/** A connection as its index row is written: with its keys. */
export type IndexedConnectionRow = typeof connections.$inferInsert;
export type ConnectionKeyRow = typeof connectionKeys.$inferSelect;

/** The keys connections' index rows hold, each with its session and connection, by id. */
export function keysOfConnections(rows: (typeof connections.$inferSelect)[]): ConnectionKeyRow[] {
  return rows
    .flatMap((row) =>
      row.keys.map((key) => ({ ...key, sessionId: row.sessionId, connectionId: row.id })),
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
