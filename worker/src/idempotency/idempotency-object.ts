import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { meteredAlarm, meteredStorage, metering, objectStub } from "../lib/meter.ts";

/**
 * One instance per project: the `Idempotency-Key`s its POSTs sent in the last 24 hours, each with
 * a fingerprint of its request and, once answered, the answer to replay. One object
 * per project makes "the same key while the first is still running" a certainty, not a race.
 */

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/**
 * A request still "running" after this long died with its isolate: its key may be used again.
 * Safe to retry soon: a create run again with the same key and body makes the same session id
 * (domain/session-address.ts), so it finds the first one's session rather than making a second.
 */
export const ABANDONED_AFTER_MS = 60_000;

/** An answer worth replaying: status, the headers that describe it, and its body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set when the answer held a session since redacted or deleted: why it is not replayed. */
  erased?: string;
}

export type Admission =
  /** `firstAt`: when the first request with this key and body was admitted (kept across a crash). */
  | { kind: "run"; firstAt: number }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "running" }
  | { kind: "mismatch" };

type KeyRecord = {
  fingerprint: string;
  answer: string | null;
  created_at: number;
  first_at: number | null;
};

export class IdempotencyRecords extends DurableObject<Env> {
  /** The object's storage, metered in development (lib/meter.ts). */
  readonly #storage: DurableObjectStorage;
  /**
   * When this instance began. A key still running that an earlier instance admitted was held by
   * a request of a process that has died since (a crash, a deploy): it is let go at once, not
   * after ABANDONED_AFTER_MS. (An instance is also replaced after some seconds idle; a request
   * that runs that long past its key's admission is let go as well, and the create it ran, run
   * again, finds its own session.)
   */
  readonly #startedAt = Date.now();
  /**
   * What was erased while requests may still be running, so that one answering after the erasure
   * keeps why instead of its answer: sessions (by id) and whole modes, with when. A request runs
   * at most ABANDONED_AFTER_MS, so that is how long each is remembered; in memory, since a request
   * of an earlier instance is let go anyway.
   */
  readonly #erasedSessions = new Map<string, { erased: string; at: number }>();
  readonly #erasedModes = new Map<string, { erased: string; at: number }>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#storage = metering(env) ? meteredStorage(ctx.storage, "idempotency") : ctx.storage;
    // Added 2026-11: when the first run of a key began, kept when a crashed run is run again.
    if (this.#hasRecords()) this.#addFirstAt();
  }

  /**
   * Whether any key was ever sent to this project: until one is, the object has no table, and a
   * retention sweep's or a deletion's call to forget writes nothing (a table and its index were
   * five rows written).
   */
  #hasRecords(): boolean {
    return (
      this.#storage.sql
        .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'")
        .toArray().length > 0
    );
  }

  /** The table of keys, made on the first key. */
  #records() {
    if (this.#hasRecords()) return;
    this.#storage.sql.exec(`CREATE TABLE records (
      key TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      answer TEXT,
      created_at INTEGER NOT NULL,
      first_at INTEGER
    )`);
    this.#storage.sql.exec("CREATE INDEX records_created ON records (created_at)");
  }

  #addFirstAt() {
    const columns = this.#storage.sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('records')")
      .toArray();
    if (!columns.some((column) => column.name === "first_at"))
      this.#storage.sql.exec("ALTER TABLE records ADD COLUMN first_at INTEGER");
  }

  /** The first request with `key` runs; a repeat replays, waits its turn (409), or differs (422). */
  async admit(key: string, fingerprint: string): Promise<Admission> {
    this.#records();
    const now = Date.now();
    const [found] = this.#storage.sql
      .exec<KeyRecord>(
        "SELECT fingerprint, answer, created_at, first_at FROM records WHERE key = ?",
        key,
      )
      .toArray();
    const expired = found && found.created_at <= now - IDEMPOTENCY_TTL_MS;
    const abandoned =
      found &&
      found.answer === null &&
      (found.created_at <= now - ABANDONED_AFTER_MS || found.created_at < this.#startedAt);
    if (found && !expired && !abandoned) {
      if (found.fingerprint !== fingerprint) return { kind: "mismatch" };
      if (found.answer === null) return { kind: "running" };
      return { kind: "replay", answer: JSON.parse(found.answer) as StoredAnswer };
    }
    // The same request run again after a crash keeps its first time: it makes the same session.
    const firstAt =
      abandoned && found.fingerprint === fingerprint ? (found.first_at ?? found.created_at) : now;
    this.#storage.sql.exec(
      "INSERT OR REPLACE INTO records (key, fingerprint, answer, created_at, first_at) VALUES (?, ?, NULL, ?, ?)",
      key,
      fingerprint,
      now,
      firstAt,
    );
    if ((await this.#storage.getAlarm()) === null)
      await this.#storage.setAlarm(now + IDEMPOTENCY_TTL_MS);
    return { kind: "run", firstAt };
  }

  /** The first request's answer, kept for repeats; null lets the key be used again (a 5xx). */
  async settle(key: string, answer: StoredAnswer | null): Promise<void> {
    if (!this.#hasRecords()) return;
    if (answer === null) {
      this.#storage.sql.exec("DELETE FROM records WHERE key = ?", key);
      return;
    }
    const erased = this.#erasedSince(key, answer);
    const kept: StoredAnswer = erased ? { status: 410, headers: {}, body: "", erased } : answer;
    this.#storage.sql.exec(
      "UPDATE records SET answer = ? WHERE key = ?",
      JSON.stringify(kept),
      key,
    );
  }

  /**
   * Why an answer settled now must not be kept: its mode's data was erased after its request was
   * admitted ("delete all test data" racing a create), or a session it holds was erased meanwhile
   * (its object erased itself when D1 refused its push). Null when neither.
   */
  #erasedSince(key: string, answer: StoredAnswer): string | null {
    const now = Date.now();
    for (const remembered of [this.#erasedSessions, this.#erasedModes])
      for (const [name, { at }] of remembered)
        if (at <= now - ABANDONED_AFTER_MS) remembered.delete(name);
    const [record] = this.#storage.sql
      .exec<{ created_at: number }>("SELECT created_at FROM records WHERE key = ?", key)
      .toArray();
    const mode = this.#erasedModes.get(key.slice(0, key.indexOf(":")));
    if (mode && record && record.created_at <= mode.at) return mode.erased;
    for (const [sessionId, { erased }] of this.#erasedSessions)
      if (answer.body.includes(sessionId)) return erased;
    return null;
  }

  /**
   * A session was redacted or deleted: answers that hold it (its create's) are replaced by why,
   * and the key stays used, so a repeat (410) neither shows its data nor makes another session.
   */
  async forgetSessions(sessionIds: string[], how: ErasedHow): Promise<void> {
    if (!this.#hasRecords()) return;
    for (const sessionId of sessionIds) {
      const erased = `The session this request created (${sessionId}) was ${how} since, so its answer is no longer kept`;
      this.#erasedSessions.set(sessionId, { erased, at: Date.now() });
      const gone: StoredAnswer = { status: 410, headers: {}, body: "", erased };
      this.#storage.sql.exec(
        "UPDATE records SET answer = ? WHERE answer IS NOT NULL AND instr(answer, ?) > 0",
        JSON.stringify(gone),
        sessionId,
      );
    }
  }

  /**
   * A mode's data was erased whole ("delete all test data"): every answer of that mode's keys is
   * replaced by why, so no repeat shows what it made or makes it again.
   */
  async forgetMode(mode: "live" | "test", erased: string): Promise<void> {
    if (!this.#hasRecords()) return;
    this.#erasedModes.set(mode, { erased, at: Date.now() });
    const gone: StoredAnswer = { status: 410, headers: {}, body: "", erased };
    this.#storage.sql.exec(
      "UPDATE records SET answer = ? WHERE answer IS NOT NULL AND key >= ? AND key < ?",
      JSON.stringify(gone),
      `${mode}:`,
      `${mode};`,
    );
  }

  /** The project is deleted: every key and answer goes, now. */
  async forgetAll(): Promise<void> {
    await this.#storage.deleteAll();
  }

  /** Forgets keys older than a day, and wakes again while any are left. */
  override alarm(): Promise<void> {
    return meteredAlarm(async () => {
      if (!this.#hasRecords()) return;
      const now = Date.now();
      this.#storage.sql.exec("DELETE FROM records WHERE created_at <= ?", now - IDEMPOTENCY_TTL_MS);
      const [oldest] = this.#storage.sql
        .exec<{ created_at: number }>("SELECT min(created_at) AS created_at FROM records")
        .toArray();
      if (oldest?.created_at) await this.#storage.setAlarm(oldest.created_at + IDEMPOTENCY_TTL_MS);
    });
  }
}

/** Why a repeat of a request is no longer answered: the session it made was erased since. */
export type ErasedHow = "redacted" | "deleted" | "erased at the end of its retention";

/**
 * A session was erased, in part or whole: the stored answer that holds it (its create's, replayed
 * for an `Idempotency-Key` for a day) no longer shows it, and a repeat is told why (410).
 */
export function forgetIdempotentAnswers(
  env: Pick<Env, "IDEMPOTENCY" | "ENVIRONMENT" | "METERING">,
  projectId: string,
  sessionIds: string | string[],
  how: ErasedHow,
) {
  return objectStub(env, env.IDEMPOTENCY, projectId).forgetSessions(
    typeof sessionIds === "string" ? [sessionIds] : sessionIds,
    how,
  );
}
