import type { SessionRow } from "../db/sessions.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import { signEnding } from "../domain/attestations.ts";
import { statusChanged } from "../domain/events.ts";
import { expectedAccounts } from "../domain/forges.ts";
import { type ProofStatus, proofStatus } from "../domain/proof-status.ts";
import { HitLog } from "../domain/rate-limit.ts";
import type { ScopedOutcome, SessionState } from "../domain/session-commands.ts";
import { expiryStatus, isOpen } from "../domain/session-rules.ts";
import type { Env } from "../env.ts";
import { meter } from "../lib/meter.ts";
import { Arrivals } from "./arrival.ts";
import { projectCounters } from "./counters.ts";
import { IndexFeed, PUSH_DELAY_MS, PUSH_RETRY_MS } from "./index-feed.ts";

/** How long after a change's push is due the alarm comes, should the process have died. */
const PUSH_GUARD_MS = 2_000;

import { ProofWatchers } from "./proof-watchers.ts";
import { SeenNonces } from "./seen-nonces.ts";
import { SessionEnding } from "./session-ending.ts";
import { SessionStore } from "./session-store.ts";

/**
 * The session a session's object holds, with the parts around it — its store, the feed to D1, its
 * ending, the proof pages watching it — and the duties that follow every change: the pages are
 * told, D1 is pushed (at once for the API, soon for the bridge), the alarm is set for what is next.
 * The object's calls (api-changes.ts, proof-steps.ts) change the session through it.
 */
export class HeldSession {
  readonly env: Env;
  readonly storage: DurableObjectStorage;
  readonly store: SessionStore;
  readonly feed: IndexFeed;
  readonly ending: SessionEnding;
  readonly watchers: ProofWatchers;
  readonly nonces: SeenNonces;
  /** Where calls about the session are answered (arrival.ts). */
  readonly arrivals: Arrivals;
  /** Signature submissions to this session in the last minute. */
  readonly signatureHits = new HitLog();
  /**
   * The push a bridge change asked for, PUSH_DELAY_MS after it (a proof's open and finish share
   * one). A timer; the alarm (guardPush) makes it only if this process dies before it does.
   */
  #pushTimer: ReturnType<typeof setTimeout> | null = null;
  /** The alarm this instance last set or found (undefined: not known yet). */
  #alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env, storage: DurableObjectStorage) {
    this.env = env;
    this.storage = storage;
    this.store = new SessionStore(storage);
    this.feed = new IndexFeed(env, this.store, {
      afterPush: async (eraseAt) => {
        await this.ending.learnEraseAt(eraseAt);
        await this.scheduleAlarm();
      },
      erased: () => this.ending.forgetErased(),
    });
    this.watchers = new ProofWatchers(ctx);
    this.ending = new SessionEnding(env, storage, this.store, this.feed, (reason) =>
      this.watchers.closeAll(reason),
    );
    this.arrivals = new Arrivals({
      env,
      store: this.store,
      feed: this.feed,
      ending: this.ending,
      scheduleAlarm: () => this.scheduleAlarm(),
    });
    this.nonces = new SeenNonces(storage);
  }

  /** The session as the API answers it. */
  state(session: SessionRow): SessionState {
    const { keys, authorities } = this.store.given();
    const { connections, keys: connectionKeys } = this.store.connections();
    return { session, keys, authorities, connections, connectionKeys, webhooks: this.webhooks() };
  }

  webhooks(): WebhookRow[] | null {
    return this.store.webhooks();
  }

  /** The session's webhooks as D1 has them: always after a change, else only if none are kept. */
  keepWebhooks(rows: WebhookRow[], replace: boolean) {
    this.store.keepWebhooks(rows, replace);
  }

  /** What the proof page shows: public, so no return URL and no attestation. */
  async proofStatus(session: SessionRow): Promise<ProofStatus> {
    const { keys } = this.store.connections();
    const lastOutcome = this.store.lastOutcome();
    return proofStatus({
      session,
      connections: lastOutcome ? [{ outcome: lastOutcome }] : [],
      keys,
      inProgress: this.store
        .inProgress(Date.now())
        .map((connection) => ({ confirming: connection.confirming })),
      expectedAccounts: expectedAccounts(this.env, this.store.given().keys),
      returns: session.returnUrl !== null,
    });
  }

  /** The attestation of the session's end for the redirect: the token its webhook carries. */
  async endingAttestation(session: SessionRow): Promise<string | null> {
    return (await signEnding(this.env, this.state(session)))?.token ?? null;
  }

  /**
   * The last counter recorded for each of these security keys in the session's project: this
   * session's own, and the rest of the project's from D1 near here (a read replica; only a proof
   * made with a security key asks).
   */
  async counters(session: SessionRow, fingerprints: string[]): Promise<Map<string, number>> {
    const own = this.store.lastCounters(fingerprints);
    if (fingerprints.length === 0) return own;
    const shard = this.store.shard();
    const project = shard
      ? await projectCounters(this.env, shard, session.projectId, fingerprints).catch(
          () => new Map<string, number>(),
        )
      : new Map<string, number>();
    for (const [sha256, counter] of project)
      own.set(sha256, Math.max(counter, own.get(sha256) ?? counter));
    return own;
  }

  /**
   * After a change the API made: answered once this object has committed it (writes at
   * the edge), and pushed to D1 now without waiting. The answer's bookmark names the session
   * (null here), so a read sent it waits for the push (api/bookmarks.ts, `indexed`).
   */
  written(session: SessionRow): ScopedOutcome<SessionState> {
    this.guardPush(0);
    this.announce();
    this.pushSoon();
    return { ok: true, value: { value: this.state(session), bookmark: null } };
  }

  /**
   * Pushes to D1 now, not waited for: its end sets the alarm (the session's next duty, or a
   * retry if it failed). An object restarted before it pushed does so at its next call or alarm.
   */
  pushSoon(then?: () => Promise<unknown>) {
    void this.feed.pushNow().then((bookmark) => (bookmark !== null ? then?.() : undefined));
  }

  /**
   * Before a change is answered: the alarm, when later, is brought to just after the change's
   * push is due. The push is made in this process (at once, or after PUSH_DELAY_MS); if the
   * process dies first — a crash, a deploy, workerd killed — the alarm makes it, within seconds,
   * where nothing else would have before the session's next duty (its expiry: an hour, or 30
   * days). Started here, the alarm's write is held with the change: nothing is answered before
   * both are stored. One row written per change (or burst of changes), the price of never losing
   * a committed change from the index.
   */
  guardPush(delayMs: number) {
    const due = Date.now() + delayMs + PUSH_GUARD_MS;
    if (this.#alarmAt != null && this.#alarmAt <= due) return;
    this.#alarmAt = due;
    void this.storage.setAlarm(due);
  }

  /** After a change the bridge or a signer made: tell the pages, push without waiting. */
  afterChange() {
    this.guardPush(PUSH_DELAY_MS);
    this.announce();
    // The object stays awake while the timer waits: billed duration, counted as such.
    if (this.#pushTimer === null) meter("durableObjectActiveMs", PUSH_DELAY_MS);
    // The next duty's alarm is set once the push is made, not at each change: a proof whose
    // finish comes within the delay sets one (its retirement), not its lease's end and then that.
    this.#pushTimer ??= setTimeout(() => {
      this.#pushTimer = null;
      // A push that failed is made again by the alarm scheduleAlarm sets for it.
      const scheduled = () => this.scheduleAlarm();
      void this.feed.push().then(scheduled, scheduled);
    }, PUSH_DELAY_MS);
  }

  /** Tells every open proof page what the session looks like now; once over, lets them go. */
  announce() {
    if (this.watchers.count === 0) return;
    const session = this.store.session();
    if (!session) return;
    void this.proofStatus(session).then((status) =>
      this.watchers.broadcast(JSON.stringify(status), Date.now(), status.final),
    );
  }

  /** An open session whose time is up closes: expired, or verified if it was (the alarm's duty). */
  expireIfDue(now: Date) {
    const session = this.store.session();
    if (!session || !isOpen(session) || Date.parse(session.expiredAt) > now.getTime()) return;
    this.store.transition((write) => {
      const at = now.toISOString();
      const status = expiryStatus(session);
      // Connections still in progress end as expired; the bridge tells their users.
      write.changeConnections(
        this.store.unfinished().map((connection) => connection.id),
        { outcome: "expired", closedAt: at, leaseUntil: null },
      );
      if (status !== session.status) write.events([statusChanged(session, status)], now);
      write.session({ status, completedAt: at, updatedAt: at });
    });
    this.announce();
  }

  /** Wakes the object at its next duty: expiry, a push to retry, a watcher falling idle. */
  async scheduleAlarm() {
    const session = this.store.session();
    // A push to retry: none while one is under way or about to be (its end sets the alarm again).
    const retry = this.feed.behind() && this.#pushTimer === null && !this.feed.pushing();
    const pending = retry ? Date.now() + PUSH_RETRY_MS : null;
    // Its retirement's time, then its erasure's once known. The retirement may wait for the
    // expiry (the alarm a session has from its create, when it comes soon after): one alarm a proof.
    const [retireAt, ...erasure] = session ? this.ending.deadlines(session) : [];
    const expiry = session ? Date.parse(session.expiredAt) : Number.NaN;
    const retireWhen =
      retireAt !== undefined && session && this.ending.retirementMayWaitFor(session, expiry)
        ? expiry
        : retireAt;
    const others = [
      session && isOpen(session) ? expiry : null,
      session ? this.store.nextLeaseEnd() : null,
      // A tombstone goes as soon as D1 has the deletion (until then, the push's retry wakes it).
      this.store.deleted() && !this.feed.behind() ? Date.now() : null,
      pending,
      this.watchers.nextIdleDeadline(),
    ].filter((time): time is number => time !== null);
    const times = [...others, ...(retireWhen === undefined ? [] : [retireWhen]), ...erasure];
    // A time already past (a place whose lease ran out unseen) is due now: never an alarm at 0.
    const next = times.length === 0 ? null : Math.max(Date.now(), Math.min(...times));
    // Each set is a write: an alarm already at that time is left as it is.
    const current = await this.storage.getAlarm();
    this.#alarmAt = current;
    if (next === current) return;
    this.#alarmAt = next;
    if (next === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(next);
  }
}
