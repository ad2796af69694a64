import { DurableObject } from "cloudflare:workers";
import type { SessionRow } from "../db/sessions.ts";
import { withD1 } from "../db/simulated-primary.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import { signAttestation } from "../domain/attestations.ts";
import { connectionRefusal, newConnectionEvent } from "../domain/connection-rules.ts";
import { sessionRedacted, statusChanged } from "../domain/events.ts";
import { expectedAccounts } from "../domain/forges.ts";
import { CONTINUE_WINDOW_MS, type ContinueRefusal } from "../domain/proof-continue.ts";
import { type ProofStatus, proofStatus, userDone } from "../domain/proof-status.ts";
import { consumeSlidingWindow } from "../domain/rate-limit.ts";
import { redactionRefusal } from "../domain/redaction.ts";
import type { SessionRef } from "../domain/session-address.ts";
import type {
  ConnectionReport,
  ConnectionStart,
  NewSession,
  ScopedOutcome,
  SessionPatch,
  SessionScope,
  SessionState,
  SignatureOutcome,
  SignatureSubmission,
  SimulatedStep,
  Written,
} from "../domain/session-commands.ts";
import {
  completionStatus,
  expiryStatus,
  inScope,
  isOpen,
  patchRefusal,
  refused,
} from "../domain/session-rules.ts";
import { proofLinks } from "../domain/session-views.ts";
import { readSignature, SIGNATURE_LIMITS } from "../domain/signature-proofs.ts";
import { simulatedTouch } from "../domain/simulated-keys.ts";
import type { Env } from "../env.ts";
import { meter, meteredStorage, metering } from "../lib/meter.ts";
import { IndexUnavailableError } from "../lib/unavailable.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";
import {
  CONNECTION_LEASE_MS,
  type ConnectionStatusResponse,
  type FinishConnectionResponse,
  type OpenConnectionResponse,
} from "../protocol/messages.ts";
import { REFUSALS } from "../protocol/terminal.ts";
import { continueUrl } from "../schemas/return-url.ts";
import { Arrivals } from "./arrival.ts";
import {
  closeLapsed,
  finishClosed,
  newConnection,
  recordFinish,
  recordSignature,
} from "./connection-transitions.ts";
import { projectCounters } from "./counters.ts";
import { IndexFeed, PUSH_DELAY_MS, PUSH_RETRY_MS } from "./index-feed.ts";
import {
  connectionRulesOf,
  parseOffered,
  parseProvenKeys,
  securityKeysOf,
} from "./proof-inputs.ts";
import { ProofWatchers } from "./proof-watchers.ts";
import { type BridgeNonce, SeenNonces } from "./seen-nonces.ts";
import { SessionEnding } from "./session-ending.ts";
import { SessionStore } from "./session-store.ts";

/** The headers by which the proof page's route tells the object who asks to watch, and what. */
export const WATCHER_ADDRESS_HEADER = "x-keyproof-watcher-address";
export const WATCHER_IDENTIFIER_HEADER = "x-keyproof-identifier";
/** Set when a watcher is passed on to a legacy session's own object. */
const LEGACY_SESSION_HEADER = "x-keyproof-legacy-session";

/** How long a connection holds its place unless its bridge renews it (protocol/messages.ts). */
export { CONNECTION_LEASE_MS };

/** What `indexed` answers when D1 lacks nothing of this object: a bookmark that asks for nothing. */
const NOTHING_PENDING = "first-unconstrained";
/** The session's own webhooks, a copy of D1's rows renewed on every change (SessionState). */
const WEBHOOKS = "webhooks";
/** The attestation of the session's end, signed once; and when the proof page continued. */
const ENDING_ATTESTATION = "ending_attestation";
const CONTINUED = "continued";

const notFound = () => refused(404, "Session not found", "path.session_id");

/**
 * One instance per session. Its own SQLite storage holds the session, its given keys and CAs, its
 * connections and their keys, its challenge and an outbox of its events (SPEC §15): every change
 * is one local transaction, with no D1 call on its path, and conflicting changes see each other
 * (409s). D1 is fed afterwards (index-push.ts), retried by the alarm until it has everything;
 * the alarm also ends the session at its expiry and lets idle proof pages go.
 */
export class SessionObject extends DurableObject<Env> {
  /** The object's storage, metered in development (lib/meter.ts). */
  readonly #storage: DurableObjectStorage;
  readonly #store: SessionStore;
  readonly #nonces: SeenNonces;
  readonly #watchers: ProofWatchers;
  /** Where calls about the session are answered (arrival.ts). */
  readonly #arrivals: Arrivals;
  /**
   * When the push a bridge change asked for is due (PUSH_DELAY_MS): the alarm makes it, so no
   * timer keeps the object awake.
   */
  #pushSoonAt: number | null = null;
  /** What feeds D1 (index-feed.ts). */
  readonly #feed: IndexFeed;
  /** When the closed session retires and is erased (session-ending.ts). */
  readonly #ending: SessionEnding;
  /** Signature submissions to this session in the last minute (SPEC §13). */
  readonly #signatureHits: number[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1(env));
    this.#storage = metering(env) ? meteredStorage(ctx.storage) : ctx.storage;
    this.#store = new SessionStore(this.#storage);
    this.#feed = new IndexFeed(this.env, this.#storage, this.#store, {
      afterPush: () => this.#scheduleAlarm(),
    });
    this.#ending = new SessionEnding(this.env, this.#storage, this.#store, this.#feed, (reason) =>
      this.#watchers.closeAll(reason),
    );
    this.#arrivals = new Arrivals({
      env: this.env,
      storage: this.#storage,
      store: this.#store,
      feed: this.#feed,
      ending: this.#ending,
      scheduleAlarm: () => this.#scheduleAlarm(),
    });
    this.#nonces = new SeenNonces(this.#storage.kv);
    this.#watchers = new ProofWatchers(ctx);
    void ctx.blockConcurrencyWhile(() => this.#store.open());
  }

  // ---------------------------------------------------------------- the API's changes

  /**
   * Holds a new session; "taken" when its name is another session's (a new identifier, then).
   * The same session again (an idempotent create run again after a crash) answers it as held.
   */
  async create(created: NewSession): Promise<Written<SessionState | null> | "taken"> {
    const held = this.#store.session();
    if (held?.id === created.session.id)
      return { value: this.#state(held), bookmark: await this.#feed.pushNow() };
    if (held || this.#store.deleted()) return "taken";
    await this.#store.ensureTables();
    this.#store.transition((write) =>
      write.create(created.session, created.keys, created.authorities),
    );
    this.#feed.queueWebhooks(created.webhooks);
    this.#storage.kv.put(WEBHOOKS, created.webhooks);
    await this.#scheduleAlarm();
    return { value: null, bookmark: await this.#feed.pushNow() };
  }

  async detail(ref: SessionRef, scope: SessionScope): Promise<SessionState | null> {
    return this.#at(
      ref,
      () => {
        const session = this.#store.session();
        return inScope(session, scope) ? this.#state(session) : null;
      },
      (stub, legacy) => stub.detail(legacy, scope),
      null,
    );
  }

  async update(
    ref: SessionRef,
    scope: SessionScope,
    patch: SessionPatch,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at<ScopedOutcome<SessionState>>(
      ref,
      async () => {
        const outcome = this.#store.transition((write) => {
          const session = this.#store.session();
          if (!inScope(session, scope)) return notFound();
          const refusal = patchRefusal(session, patch.maxAttempts);
          if (refusal) return refusal;
          return { ok: true as const, value: write.session({ ...patch, updatedAt: now }) };
        });
        if (!outcome.ok) return outcome;
        if (patch.expiredAt !== undefined) await this.#scheduleAlarm();
        return this.#written(outcome.value);
      },
      (stub, legacy) => stub.update(legacy, scope, patch, now),
      notFound(),
    );
  }

  async complete(
    ref: SessionRef,
    scope: SessionScope,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at<ScopedOutcome<SessionState>>(
      ref,
      async () => {
        const outcome = this.#store.transition((write) => {
          const session = this.#store.session();
          if (!inScope(session, scope)) return notFound();
          const status = completionStatus(session);
          if (!status.ok) return status;
          write.events([statusChanged(session, status.value)], new Date(now));
          const changes = { status: status.value, completedAt: now, updatedAt: now };
          return { ok: true as const, value: write.session(changes) };
        });
        if (!outcome.ok) return outcome;
        return this.#written(outcome.value);
      },
      (stub, legacy) => stub.complete(legacy, scope, now),
      notFound(),
    );
  }

  /**
   * Erases a closed session's personal data here and, with the push, in D1 (SPEC §19); a second
   * call answers the same. Every event must be in D1 first, where they are rewritten.
   */
  async redact(
    ref: SessionRef,
    scope: SessionScope,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at<ScopedOutcome<SessionState>>(
      ref,
      async () => {
        const session = this.#store.session();
        if (!inScope(session, scope)) return notFound();
        if (session.redactedAt !== null) return this.#written(session);
        const refusal = redactionRefusal(session);
        if (refusal) return refusal;
        if (this.#feed.behind() && (await this.#feed.pushNow()) === null)
          throw new IndexUnavailableError("the session's events could not reach D1 first");
        const redacted = this.#store.transition((write) => {
          write.events([sessionRedacted(session, now)], new Date(now));
          return write.redact(now);
        });
        this.#storage.kv.delete(ENDING_ATTESTATION);
        return this.#written(redacted);
      },
      (stub, legacy) => stub.redact(legacy, scope, now),
      notFound(),
    );
  }

  /** Deletes the session: its rows here at once, D1's (its events too) with the push. */
  async remove(ref: SessionRef, scope: SessionScope): Promise<ScopedOutcome<null>> {
    return this.#at<ScopedOutcome<null>>(
      ref,
      async () => {
        const session = this.#store.session();
        if (!inScope(session, scope)) return notFound();
        this.#store.transition((write) => write.delete());
        this.#watchers.closeAll("The session was deleted");
        const bookmark = await this.#feed.pushNow();
        // D1 has the deletion: the object keeps nothing of it (else its alarm retries both).
        if (bookmark !== null) await this.#ending.retireIfDone(Date.now());
        return { ok: true as const, value: { value: null, bookmark } };
      },
      (stub, legacy) => stub.remove(legacy, scope),
      notFound(),
    );
  }

  /**
   * The session's webhooks as D1 now has them, after a change (`replace`), or to fill a copy the
   * object never had (only then: a slower reader must not put back what a change replaced).
   */
  async rememberWebhooks(ref: SessionRef, rows: WebhookRow[], replace: boolean): Promise<void> {
    return this.#at(
      ref,
      () => {
        if (!this.#store.session()) return;
        if (replace || this.#storage.kv.get(WEBHOOKS) === undefined)
          this.#storage.kv.put(WEBHOOKS, rows);
      },
      (stub, legacy) => stub.rememberWebhooks(legacy, rows, replace),
      undefined,
    );
  }

  /**
   * The attestation of the session's end, signed once when it ended, for a webhook delivery to
   * carry the same token as the redirect; null when this object no longer holds the session (it
   * retired: the delivery signs one), it is open, or it was redacted. Reads back nothing.
   */
  async keptAttestation(sessionId: string): Promise<string | null> {
    const session = this.#store.session();
    if (session?.id !== sessionId || isOpen(session) || session.redactedAt !== null) return null;
    return this.#endingAttestation(session);
  }

  /** Bytes this object's storage takes (bench/cost.ts, in development). */
  async storageBytes(): Promise<number> {
    return this.#storage.sql.databaseSize;
  }

  /**
   * Waits until D1 has every change so far; D1's bookmark after it (null if it could not). An
   * object that holds nothing (retired, erased, deleted, never made) has nothing D1 lacks.
   */
  async indexed(): Promise<string | null> {
    if (!this.#store.session() && !this.#store.deleted()) return NOTHING_PENDING;
    return this.#feed.pushNow();
  }

  // ---------------------------------------------------------------- test helpers (SPEC §20)

  /**
   * A test session driven as a user would drive it: a connection opened and finished through the
   * same steps as the bridge's (`#open`, `#finish`), or its expiry brought forward and run as the
   * alarm runs it. A live session is not found; the session's own rules answer the rest.
   */
  async simulate(
    ref: SessionRef,
    scope: SessionScope,
    step: SimulatedStep,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at<ScopedOutcome<SessionState>>(
      ref,
      async () => {
        const session = this.#store.session();
        if (!inScope(session, scope) || session.livemode) return notFound();
        if (step.kind === "expire") {
          if (!isOpen(session))
            return refused(409, `The session is already closed (status ${session.status})`);
          const now = new Date();
          this.#store.transition((write) => write.session({ expiredAt: now.toISOString() }));
          this.#expireIfDue(now);
          await this.#scheduleAlarm();
          return this.#written(this.#store.session() ?? session);
        }
        if (step.confirmed === false && !session.mustConfirm)
          return refused(
            409,
            "Only a session with must_confirm asks its user to confirm, so there is nothing to decline",
          );
        const opened = this.#open(step.start);
        if (!opened.accepted) return refused(409, REFUSALS[opened.reason]);
        const keys =
          step.keys === "configured"
            ? this.#store.given().keys.map((key) => ({
                key: key.publicKeySsh.split(" ")[1] ?? "",
                security_key: key.securityKey ? simulatedTouch() : null,
              }))
            : step.keys;
        await this.#finish(opened.connection_id, {
          keys,
          keysOffered: Math.max(keys.length, step.keysOffered),
          refusals: step.refusals,
          confirmed: session.mustConfirm ? step.confirmed !== false : null,
        });
        return this.#written(this.#store.session() ?? session);
      },
      (stub, legacy) => stub.simulate(legacy, scope, step),
      notFound(),
    );
  }

  // ---------------------------------------------------------------- the bridge's calls

  async openConnection(
    ref: SessionRef,
    start: ConnectionStart,
    call: BridgeNonce,
  ): Promise<OpenConnectionResponse | "replayed"> {
    return this.#at<OpenConnectionResponse | "replayed">(
      ref,
      () => {
        // Where the call is answered, its nonce is remembered: a replay is refused.
        if (!this.#nonces.admit(call, Date.now())) return "replayed";
        return this.#open(start);
      },
      (stub, legacy) => stub.openConnection(legacy, start, call),
      { accepted: false, reason: "unknown" },
    );
  }

  /** A connection opens, as the bridge or a test helper reports it. */
  #open(start: ConnectionStart): OpenConnectionResponse {
    const now = new Date();
    const opened = this.#store.transition((write) => {
      const session = this.#store.session();
      if (!session) return { accepted: false as const, reason: "unknown" as const };
      closeLapsed(this.#store, write, session, now);
      const refusal = connectionRefusal(session, this.#store.inProgress(now.getTime()).length);
      if (refusal) return { accepted: false as const, reason: refusal };
      const connection = newConnection(session, "ssh", start, now);
      write.addConnection(connection, {
        leaseUntil: now.getTime() + CONNECTION_LEASE_MS,
        rules: connectionRulesOf(session),
      });
      write.events([newConnectionEvent(session, connection)], now);
      write.session({ updatedAt: now.toISOString() });
      return { accepted: true as const, session, connection };
    });
    if (!opened.accepted) return opened;
    this.#afterChange();
    const { session, connection } = opened;
    const given = this.#store.given();
    return {
      accepted: true,
      session_id: session.id,
      connection_id: connection.id,
      kind: session.kind,
      multi_key: session.multiKey,
      must_confirm: session.mustConfirm,
      ssh_banner: session.sshBanner,
      ssh_message: session.sshMessage,
      expired_at: session.expiredAt,
      expected_fingerprints: given.keys.map((key) => key.publicKeySha256),
      expected_accounts: expectedAccounts(this.env, given.keys),
      authority_fingerprints: given.authorities.map((key) => key.publicKeySha256),
      principal: session.principal,
      require_security_key: session.requireSecurityKey,
      require_user_verification: session.requireUserVerification,
    };
  }

  async finishConnection(
    ref: SessionRef,
    connectionId: string,
    report: ConnectionReport,
    call: BridgeNonce,
  ): Promise<FinishConnectionResponse | null | "replayed"> {
    return this.#at<FinishConnectionResponse | null | "replayed">(
      ref,
      async () => {
        if (!this.#nonces.admit(call, Date.now())) return "replayed";
        return this.#finish(connectionId, report);
      },
      (stub, legacy) => stub.finishConnection(legacy, connectionId, report, call),
      null,
    );
  }

  /** A connection finishes, as the bridge or a test helper reports it; null if unknown here. */
  async #finish(
    connectionId: string,
    report: ConnectionReport,
  ): Promise<FinishConnectionResponse | null> {
    const held = this.#store.connection(connectionId);
    const session = this.#store.session();
    if (!session || !held) return null;
    const at = new Date();
    const proven =
      held.outcome === "in_progress" ? parseProvenKeys(report.keys, at, held.ipAddress) : [];
    const counters = await this.#counters(session, securityKeysOf(proven));
    const response = this.#store.transition((write) => {
      const now = this.#store.session();
      const connection = this.#store.connection(connectionId);
      if (!now || !connection) return null;
      // A connection that lapsed, or whose session closed, keeps nothing of a late report.
      const lapsed = connection.leaseUntil === null || connection.leaseUntil <= at.getTime();
      if (connection.outcome !== "in_progress" || lapsed || !isOpen(now))
        return finishClosed(write, now, connection, at);
      return recordFinish(this.env, this.#store, write, now, connection, {
        proven,
        offered: report.keysOffered,
        refusals: report.refusals,
        confirmed: report.confirmed,
        interrupted: report.interrupted === true,
        counters,
        at,
      });
    });
    this.#afterChange();
    return response;
  }

  /**
   * The connection's bridge says it lives: its place is held for another lease. With `keys`, the
   * bridge is asking the user to confirm them, and the proof page says so.
   */
  async connectionProgress(
    ref: SessionRef,
    connectionId: string,
    keys: ProvenKeyView[] | undefined,
    call: BridgeNonce,
  ): Promise<"replayed" | undefined> {
    return this.#at<"replayed" | undefined>(
      ref,
      () => {
        if (!this.#nonces.admit(call, Date.now())) return "replayed";
        const renewed = this.#store.renewLease(connectionId, Date.now() + CONNECTION_LEASE_MS);
        if (renewed && keys) {
          this.#store.markConfirming(connectionId, keys);
          this.#announce();
        }
        return undefined;
      },
      (stub, legacy) => stub.connectionProgress(legacy, connectionId, keys, call),
      undefined,
    );
  }

  async connectionStatus(ref: SessionRef): Promise<ConnectionStatusResponse | null> {
    return this.#at(
      ref,
      () => {
        const session = this.#store.session();
        if (!session) return null;
        return { open: isOpen(session), status: session.status, expired_at: session.expiredAt };
      },
      (stub, legacy) => stub.connectionStatus(legacy),
      null,
    );
  }

  // ---------------------------------------------------------------- the public pages

  /**
   * The proof page's continue step (domain/proof-continue.ts): the `return_url` with the result,
   * once, for a browser that had the page open since `watchingSince`, before the user got done.
   */
  async continueTo(
    ref: SessionRef,
    watchingSince: number,
    now: number,
  ): Promise<{ url: string } | { refused: ContinueRefusal } | null> {
    return this.#at(
      ref,
      async (): Promise<{ url: string } | { refused: ContinueRefusal } | null> => {
        const session = this.#store.session();
        if (!session) return null;
        if (!session.returnUrl) return { refused: "no_return_url" };
        const { keys } = this.#store.connections();
        if (!userDone(session, keys.length)) return { refused: "not_done" };
        const doneAt = session.completedAt
          ? Date.parse(session.completedAt)
          : Math.min(...keys.map((key) => Date.parse(key.createdAt)));
        if (watchingSince >= doneAt) return { refused: "not_watched" };
        if (now - doneAt > CONTINUE_WINDOW_MS) return { refused: "too_late" };
        const kv = this.#storage.kv;
        if (kv.get(CONTINUED) !== undefined) return { refused: "used" };
        kv.put(CONTINUED, now);
        const attestation = isOpen(session)
          ? ((await signAttestation(this.env, this.#state(session)))?.token ?? null)
          : await this.#endingAttestation(session);
        const url = continueUrl(session.returnUrl, {
          sessionId: session.id,
          status: session.status,
          attestation,
        });
        return { url };
      },
      (stub, legacy) => stub.continueTo(legacy, watchingSince, now),
      null,
    );
  }

  /** What the hosted proof page shows, and the session it is for; null once there is none. */
  async proofPage(ref: SessionRef): Promise<{ session: SessionRow; status: ProofStatus } | null> {
    return this.#at(
      ref,
      async () => {
        const session = this.#store.session();
        return session ? { session, status: await this.#proofStatus(session) } : null;
      },
      (stub, legacy) => stub.proofPage(legacy),
      null,
    );
  }

  /**
   * A proof sent as a detached signature (SPEC §13): checked here against the session's own
   * challenge, then recorded as a connection that opened and finished at once, under the
   * session's rules of the moment, having offered the one signing key.
   */
  async proveBySignature(
    ref: SessionRef,
    submission: SignatureSubmission,
  ): Promise<SignatureOutcome> {
    return this.#at(
      ref,
      async () => {
        const session = this.#store.session();
        if (!session) return { recorded: false, status: 404, detail: REFUSALS.unknown };
        const limit = consumeSlidingWindow(
          this.#signatureHits,
          SIGNATURE_LIMITS.perSession,
          Date.now(),
        );
        if (!limit.allowed) {
          return {
            recorded: false,
            status: 429,
            detail: `Too many signatures sent; try again in ${limit.retryAfter} seconds.`,
            retryAfter: limit.retryAfter,
          };
        }
        // A closed session is the news, whatever was sent.
        const closed = connectionRefusal(session, 0);
        if (closed) return { recorded: false, status: 409, detail: REFUSALS[closed] };
        const signature = readSignature(submission.armored, session.signatureChallenge);
        if ("problem" in signature)
          return { recorded: false, status: 400, detail: signature.problem };
        const at = new Date();
        const parsed = parseOffered(signature.key, at, submission.ipAddress);
        const signing =
          "key" in parsed ? [{ key: parsed.key, authenticator: signature.authenticator }] : [];
        const counters = await this.#counters(session, securityKeysOf(signing));
        const outcome = this.#store.transition((write) =>
          recordSignature(this.env, this.#store, write, session, {
            submission,
            signature,
            parsed,
            signing,
            counters,
            at,
          }),
        );
        if (!outcome.recorded) return outcome;
        this.#afterChange();
        // The user continues on the proof page, in the browser that watched the proof.
        const after = this.#store.session();
        const status = after ? await this.#proofStatus(after) : null;
        const page = after ? proofLinks(this.env, after).proof_url : null;
        return { ...outcome, continueUrl: status?.continues ? page : null };
      },
      (stub, legacy) => stub.proveBySignature(legacy, submission),
      { recorded: false, status: 404, detail: REFUSALS.unknown },
    );
  }

  /**
   * The proof page's live channel: a WebSocket that hears every change of the session. The
   * hibernation API keeps watchers without keeping this object awake.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    const legacyId = request.headers.get(LEGACY_SESSION_HEADER);
    const identifier = request.headers.get(WATCHER_IDENTIFIER_HEADER) ?? "";
    const arrival = await this.#arrivals.arrive(
      legacyId ? { sessionId: legacyId, legacy: true } : { identifier },
    );
    if (typeof arrival === "object") {
      const forwarded = new Request(request);
      if ("sessionId" in arrival.ref)
        forwarded.headers.set(LEGACY_SESSION_HEADER, arrival.ref.sessionId);
      return arrival.forward.fetch(forwarded);
    }
    const session = this.#store.session();
    if (!session) return new Response("No such session", { status: 404 });
    const address = request.headers.get(WATCHER_ADDRESS_HEADER) ?? "unknown";
    const status = await this.#proofStatus(session);
    const admitted = this.#watchers.admit(
      address,
      JSON.stringify(status),
      Date.now(),
      status.final,
    );
    // The idle deadline of the new watcher may come before anything else wakes the object.
    if (admitted.status === 101) await this.#scheduleAlarm();
    return admitted;
  }

  /** Watchers only listen: messages are ignored, and a watcher that keeps sending is closed. */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    this.#watchers.inbound(socket, message);
  }

  override async webSocketClose(socket: WebSocket, code: number): Promise<void> {
    try {
      socket.close(code === 1005 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }

  /** Expiry, a push D1 has not taken yet, and watchers falling idle: whichever is due. */
  override async alarm(): Promise<void> {
    meter("durableObjectRequests");
    const now = new Date();
    this.#watchers.closeIdle(now.getTime());
    if (this.#pushSoonAt !== null && this.#pushSoonAt <= now.getTime()) this.#pushSoonAt = null;
    const current = this.#store.session();
    // Connections whose bridge went quiet end at their lease's end, with their event.
    if (current && this.#store.lapsed(now.getTime()).length > 0) {
      this.#store.transition((write) => closeLapsed(this.#store, write, current, now));
      this.#announce();
    }
    this.#expireIfDue(now);
    await this.#feed.push().catch(() => undefined);
    if (await this.#ending.eraseIfDue(now.getTime())) return;
    if (await this.#ending.retireIfDone(now.getTime())) return;
    await this.#scheduleAlarm();
  }

  /** An open session whose time is up closes: expired, or verified if it was (the alarm's duty). */
  #expireIfDue(now: Date) {
    const session = this.#store.session();
    if (session && isOpen(session) && Date.parse(session.expiredAt) <= now.getTime()) {
      this.#store.transition((write) => {
        const at = now.toISOString();
        const status = expiryStatus(session);
        // Connections still in progress end as expired; the bridge tells their users.
        write.changeConnections(
          this.#store.unfinished().map((connection) => connection.id),
          { outcome: "expired", closedAt: at, leaseUntil: null },
        );
        if (status !== session.status) write.events([statusChanged(session, status)], now);
        write.session({ status, completedAt: at, updatedAt: at });
      });
      this.#announce();
    }
  }

  /**
   * Erasure by retention, from the sweep (domain/retention.ts) that found the session past it in
   * D1: erased here and in D1 if this object holds it, else in D1 only.
   */
  async erase(projectId: string, sessionId: string): Promise<void> {
    return this.#ending.erase(projectId, sessionId);
  }

  // ---------------------------------------------------------------- inside

  /**
   * The last counter recorded for each of these security keys in the session's project: this
   * session's own, and the rest of the project's from D1 near here (a read replica; only a proof
   * made with a security key asks).
   */
  async #counters(session: SessionRow, fingerprints: string[]): Promise<Map<string, number>> {
    const own = this.#store.lastCounters(fingerprints);
    if (fingerprints.length === 0) return own;
    const project = await projectCounters(this.env, session.projectId, fingerprints).catch(
      () => new Map<string, number>(),
    );
    for (const [sha256, counter] of project)
      own.set(sha256, Math.max(counter, own.get(sha256) ?? counter));
    return own;
  }

  #state(session: SessionRow): SessionState {
    const { keys, authorities } = this.#store.given();
    const { connections, keys: connectionKeys } = this.#store.connections();
    const webhooks = this.#storage.kv.get<WebhookRow[]>(WEBHOOKS) ?? null;
    return { session, keys, authorities, connections, connectionKeys, webhooks };
  }

  /** What the proof page shows: public, so no return URL and no attestation (SPEC §14). */
  async #proofStatus(session: SessionRow): Promise<ProofStatus> {
    const { keys } = this.#store.connections();
    const lastOutcome = this.#store.lastOutcome();
    const status = proofStatus({
      session,
      connections: lastOutcome ? [{ outcome: lastOutcome }] : [],
      keys,
      inProgress: this.#store
        .inProgress(Date.now())
        .map((connection) => ({ confirming: connection.confirming })),
      expectedAccounts: expectedAccounts(this.env, this.#store.given().keys),
      returns: session.returnUrl !== null,
    });
    return status;
  }

  /** The attestation of the session's end for the redirect, signed once and kept. */
  async #endingAttestation(session: SessionRow): Promise<string | null> {
    const kv = this.#storage.kv;
    const kept = kv.get<string>(ENDING_ATTESTATION);
    if (kept) return kept;
    const token = (await signAttestation(this.env, this.#state(session)))?.token ?? null;
    if (token) kv.put(ENDING_ATTESTATION, token);
    return token;
  }

  /** After a change the API waits on: pushed, so the caller's next list sees it. */
  async #written(session: SessionRow): Promise<{ ok: true; value: Written<SessionState> }> {
    this.#announce();
    const bookmark = await this.#feed.pushNow();
    return { ok: true, value: { value: this.#state(session), bookmark } };
  }

  /** After a change the bridge or a signer made: tell the pages, push without waiting. */
  #afterChange() {
    this.#announce();
    this.#pushSoonAt ??= Date.now() + PUSH_DELAY_MS;
    void this.#scheduleAlarm();
  }

  /** Tells every open proof page what the session looks like now; once over, lets them go. */
  #announce() {
    if (this.#watchers.count === 0) return;
    const session = this.#store.session();
    if (!session) return;
    void this.#proofStatus(session).then((status) =>
      this.#watchers.broadcast(JSON.stringify(status), Date.now(), status.final),
    );
  }

  /** Wakes the object at its next duty: expiry, a push to retry, a watcher falling idle. */
  async #scheduleAlarm() {
    const session = this.#store.session();
    const pending = this.#feed.behind() ? (this.#pushSoonAt ?? Date.now() + PUSH_RETRY_MS) : null;
    const times = [
      session && isOpen(session) ? Date.parse(session.expiredAt) : null,
      session ? this.#store.nextLeaseEnd() : null,
      ...(session ? this.#ending.deadlines(session) : []),
      // A tombstone goes as soon as D1 has the deletion (until then, the push's retry wakes it).
      this.#store.deleted() && !this.#feed.behind() ? Date.now() : null,
      pending,
      this.#watchers.nextIdleDeadline(),
    ].filter((time): time is number => time !== null);
    const next = times.length === 0 ? null : Math.min(...times);
    // Each set is a write: an alarm already at that time is left as it is.
    if (next === (await this.#storage.getAlarm())) return;
    if (next === null) await this.#storage.deleteAlarm();
    else await this.#storage.setAlarm(next);
  }

  /**
   * Answers a call about the session `ref` here, or, for a session made before objects held
   * their sessions, where it lives; `absent` when there is no such session.
   */
  async #at<T>(
    ref: SessionRef,
    here: () => T | Promise<T>,
    there: (stub: DurableObjectStub<SessionObject>, legacy: SessionRef) => Promise<unknown>,
    absent: T,
  ): Promise<T> {
    const arrival = await this.#arrivals.arrive(ref);
    if (arrival === "here") return here();
    if (arrival === "absent") return absent;
    // An RPC answer is the same structured clone the caller would have had from `here`.
    return (await there(arrival.forward, arrival.ref)) as T;
  }
}
