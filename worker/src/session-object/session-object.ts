import { DurableObject } from "cloudflare:workers";
import { withD1 } from "../db/d1-calls.ts";
import type { SessionRow } from "../db/sessions.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import type { ContinueRefusal, Watcher } from "../domain/proof-continue.ts";
import type { ProofStatus } from "../domain/proof-status.ts";
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
import type { Env } from "../env.ts";
import { meteredAlarm, meteredStorage, metering } from "../lib/meter.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";
import {
  CONNECTION_LEASE_MS,
  type ConnectionStatusResponse,
  type FinishConnectionResponse,
  type OpenConnectionResponse,
} from "../protocol/messages.ts";
import { REFUSALS } from "../protocol/terminal.ts";
import {
  completeSession,
  createSession,
  notFound,
  redactSession,
  removeSession,
  sessionDetail,
  unacknowledgedEvents,
  updateSession,
} from "./api-changes.ts";
import { closeLapsed } from "./connection-transitions.ts";
import { HeldSession } from "./held-session.ts";
import * as steps from "./proof-steps.ts";
import type { BridgeNonce } from "./seen-nonces.ts";

/** The headers by which the proof page's route tells the object who asks to watch, and what. */
export const WATCHER_ADDRESS_HEADER = "x-keyproof-watcher-address";
export const WATCHER_IDENTIFIER_HEADER = "x-keyproof-identifier";

/** How long a connection holds its place unless its bridge renews it (protocol/messages.ts). */
export { CONNECTION_LEASE_MS };

/** What `indexed` answers when D1 lacks nothing of this object: a bookmark that asks for nothing. */
const NOTHING_PENDING = "first-unconstrained";

/**
 * One instance per session. Its own storage holds the session, its given keys and CAs, its
 * connections and their keys, its challenge and the events D1 has not had yet, as key-value
 * entries (session-record.ts): every change is one local transaction, with no D1 call
 * on its path, and conflicting changes see each other (409s). D1 is fed afterwards (index-push.ts), retried by the alarm until it has everything;
 * the alarm also ends the session at its expiry and lets idle proof pages go.
 *
 * This file is the object's transport: its RPC methods, the proof page's WebSocket and the
 * alarm. Each call is answered where the session lives (`#at`); what it does there is in
 * api-changes.ts (the API's) and proof-steps.ts (the user's), through held-session.ts.
 */
export class SessionObject extends DurableObject<Env> {
  readonly #held: HeldSession;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1(env));
    const storage = metering(env) ? meteredStorage(ctx.storage, "session") : ctx.storage;
    this.#held = new HeldSession(ctx, this.env, storage);
  }

  // ---------------------------------------------------------------- the API's changes

  async create(created: NewSession): Promise<Written<SessionState | null> | "taken"> {
    return createSession(this.#held, created);
  }

  async detail(ref: SessionRef, scope: SessionScope): Promise<SessionState | null> {
    return this.#at(ref, () => sessionDetail(this.#held, scope), null);
  }

  /**
   * The session as a read of the caller's own writes shows it (domain/own-writes.ts), and D1's
   * bookmark once D1 has all of it (null while a change is on its way; `first-unconstrained`
   * when the object holds nothing of it, so that D1 has nothing to wait for).
   */
  async readView(
    ref: SessionRef,
    scope: SessionScope,
  ): Promise<{ state: SessionState | null; inD1: string | null }> {
    const { store, feed } = this.#held;
    // Deleted: nothing to show, and D1 has it once the deletion's push has landed.
    if (store.deleted()) return { state: null, inD1: feed.inD1() };
    return this.#at(
      ref,
      () => ({ state: sessionDetail(this.#held, scope), inD1: feed.inD1() }),
      // Nothing held, nothing found in D1: nothing is pending here either.
      { state: null, inD1: NOTHING_PENDING },
    );
  }

  async unacknowledgedEvents(
    ref: SessionRef,
    scope: SessionScope,
  ): Promise<
    (NonNullable<ReturnType<typeof unacknowledgedEvents>> & { inD1: string | null }) | null
  > {
    return this.#at(
      ref,
      () => {
        const found = unacknowledgedEvents(this.#held, scope);
        return found && { ...found, inD1: this.#held.feed.inD1() };
      },
      null,
    );
  }

  async update(
    ref: SessionRef,
    scope: SessionScope,
    patch: SessionPatch,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at(ref, () => updateSession(this.#held, scope, patch, now), notFound());
  }

  async complete(
    ref: SessionRef,
    scope: SessionScope,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at(ref, () => completeSession(this.#held, scope, now), notFound());
  }

  async redact(
    ref: SessionRef,
    scope: SessionScope,
    now: string,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at(ref, () => redactSession(this.#held, scope, now), notFound());
  }

  async remove(ref: SessionRef, scope: SessionScope): Promise<ScopedOutcome<null>> {
    return this.#at(ref, () => removeSession(this.#held, scope), notFound());
  }

  /**
   * The session's webhooks as D1 now has them, after a change (`replace`), or to fill a copy the
   * object never had (only then: a slower reader must not put back what a change replaced).
   */
  async rememberWebhooks(ref: SessionRef, rows: WebhookRow[], replace: boolean): Promise<void> {
    return this.#at(
      ref,
      () => {
        if (this.#held.store.session()) this.#held.keepWebhooks(rows, replace);
      },
      undefined,
    );
  }

  /** Bytes this object's storage takes (bench/cost.ts, in development). */
  async storageBytes(): Promise<number> {
    return this.#held.storage.sql.databaseSize;
  }

  /**
   * Waits until D1 has every change so far; D1's bookmark after it (null if it could not). An
   * object that holds nothing (retired, erased, deleted, never made) has nothing D1 lacks.
   */
  async indexed(): Promise<string | null> {
    const { store, feed } = this.#held;
    if (!store.session() && !store.deleted()) return NOTHING_PENDING;
    return feed.caughtUp();
  }

  /**
   * Erasure of the session with its project's data (domain/project-erasure.ts): erased here and
   * in its shard if this object holds it, else in its shard only.
   */
  async erase(projectId: string, sessionId: string, shard: string): Promise<void> {
    return this.#held.ending.erase(projectId, sessionId, shard);
  }

  /** A test session driven as a user would drive it (proof-steps.ts). */
  async simulate(
    ref: SessionRef,
    scope: SessionScope,
    step: SimulatedStep,
  ): Promise<ScopedOutcome<SessionState>> {
    return this.#at(ref, () => steps.simulate(this.#held, scope, step), notFound());
  }

  // ---------------------------------------------------------------- the bridge's calls
  // Where a call is answered, its nonce is remembered: a replay is refused.

  async openConnection(
    ref: SessionRef,
    start: ConnectionStart,
    call: BridgeNonce,
  ): Promise<OpenConnectionResponse | "replayed"> {
    return this.#at<OpenConnectionResponse | "replayed">(
      ref,
      () => this.#admitted(call, () => steps.openConnection(this.#held, start)),
      { accepted: false, reason: "unknown" },
    );
  }

  async finishConnection(
    ref: SessionRef,
    connectionId: string,
    report: ConnectionReport,
    call: BridgeNonce,
  ): Promise<FinishConnectionResponse | null | "replayed"> {
    return this.#at<FinishConnectionResponse | null | "replayed">(
      ref,
      () => this.#admitted(call, () => steps.finishConnection(this.#held, connectionId, report)),
      null,
    );
  }

  async connectionProgress(
    ref: SessionRef,
    connectionId: string,
    keys: ProvenKeyView[] | undefined,
    call: BridgeNonce,
  ): Promise<"replayed" | undefined> {
    return this.#at<"replayed" | undefined>(
      ref,
      () =>
        this.#admitted(call, () => {
          steps.keepConnection(this.#held, connectionId, keys);
          return undefined;
        }),
      undefined,
    );
  }

  async connectionStatus(ref: SessionRef): Promise<ConnectionStatusResponse | null> {
    return this.#at(ref, () => steps.connectionStatus(this.#held), null);
  }

  // ---------------------------------------------------------------- the public pages

  async continueTo(
    ref: SessionRef,
    watcher: Watcher,
    now: number,
  ): Promise<{ url: string } | { refused: ContinueRefusal } | null> {
    return this.#at(ref, () => steps.continueTo(this.#held, watcher, now), null);
  }

  async proofPage(ref: SessionRef): Promise<{ session: SessionRow; status: ProofStatus } | null> {
    return this.#at(ref, () => steps.proofPage(this.#held), null);
  }

  async proveBySignature(
    ref: SessionRef,
    submission: SignatureSubmission,
  ): Promise<SignatureOutcome> {
    return this.#at<SignatureOutcome>(ref, () => steps.proveBySignature(this.#held, submission), {
      recorded: false,
      status: 404,
      detail: REFUSALS.unknown,
    });
  }

  /**
   * The proof page's live channel: a WebSocket that hears every change of the session. The
   * hibernation API keeps watchers without keeping this object awake.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    const identifier = request.headers.get(WATCHER_IDENTIFIER_HEADER) ?? "";
    await this.#held.arrivals.arrive({ identifier });
    const session = this.#held.store.session();
    if (!session) return new Response("No such session", { status: 404 });
    const address = request.headers.get(WATCHER_ADDRESS_HEADER) ?? "unknown";
    const status = await this.#held.proofStatus(session);
    const admitted = this.#held.watchers.admit(
      address,
      JSON.stringify(status),
      Date.now(),
      status.final,
    );
    // The idle deadline of the new watcher may come before anything else wakes the object.
    if (admitted.status === 101) await this.#held.scheduleAlarm();
    return admitted;
  }

  /** Watchers only listen: messages are ignored, and a watcher that keeps sending is closed. */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    this.#held.watchers.inbound(socket, message);
  }

  override async webSocketClose(socket: WebSocket, code: number): Promise<void> {
    try {
      socket.close(code === 1005 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }

  /** Expiry, a push D1 has not taken yet, and watchers falling idle: whichever is due. */
  override alarm(): Promise<void> {
    return meteredAlarm(async () => {
      const held = this.#held;
      const now = new Date();
      held.watchers.closeIdle(now.getTime());
      const current = held.store.session();
      // Connections whose bridge went quiet end at their lease's end, with their event.
      if (current && held.store.lapsed(now.getTime()).length > 0) {
        held.store.transition((write) => closeLapsed(held.store, write, current, now));
        held.announce();
      }
      held.expireIfDue(now);
      // Erased first: a session past its retention is never pushed again.
      if (await held.ending.eraseIfDue(now.getTime())) return;
      await held.ending.confirmIndexed(now.getTime());
      await held.feed.push().catch(() => undefined);
      if (await held.ending.retireIfDone(now.getTime())) return;
      await held.scheduleAlarm();
    });
  }

  // ---------------------------------------------------------------- inside

  /** A bridge call's answer, unless its nonce was seen before. */
  async #admitted<T>(call: BridgeNonce, answer: () => T | Promise<T>): Promise<T | "replayed"> {
    const nonces = this.#held.nonces;
    if (!nonces.admit(call, Date.now())) return "replayed";
    try {
      return await answer();
    } finally {
      nonces.settle();
    }
  }

  /** Answers a call about the session `ref`; `absent` when there is no such session. */
  async #at<T>(ref: SessionRef, here: () => T | Promise<T>, absent: T): Promise<T> {
    return (await this.#held.arrivals.arrive(ref)) === "here" ? here() : absent;
  }
}
