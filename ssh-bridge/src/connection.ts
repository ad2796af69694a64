import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type { AuthContext, Connection, ServerChannel, Session } from "ssh2";
import type { FinishConnectionResponse } from "../../worker/src/protocol/messages.ts";
import {
  EXPIRED_DURING_CONNECTION,
  FINISH_UNKNOWN_MESSAGE,
  LIFETIME_EXCEEDED_MESSAGE,
  refusedKeyLines,
  render,
  resultLines,
} from "../../worker/src/protocol/terminal.ts";
import { askToConfirm } from "./confirmation.ts";
import { type ConnectionLog, connectionLogLine } from "./connection-log.ts";
import { finishRequest, reportFinish } from "./finish-report.ts";
import type { KeyRules } from "./key-decisions.ts";
import { AUTH_METHODS, KeyWalk } from "./key-walk.ts";
import type { ConnectionLimits } from "./limits.ts";
import type { BridgeMetrics } from "./metrics.ts";
import { type OpenedSession, openSession } from "./session-opening.ts";
import { SessionPlace } from "./session-place.ts";
import { disconnectReason, sendDisconnect, sendUserauthBanner } from "./ssh2-packets.ts";
import type { WorkerApi } from "./worker-client.ts";

/** The exit status `ssh` reports: a key counted, or nothing did (like a failed login's 255, non-zero). */
const EXIT_PROVEN = 0;
const EXIT_NOTHING_PROVEN = 1;
/** How long a client may keep the connection after its channel closed. */
const CLIENT_HANGUP_GRACE_MS = 2_000;
/**
 * How long a disconnected client may take to close its side. A client waiting at its own prompt
 * (a password it was never offered) never reads the DISCONNECT, so the socket is then destroyed.
 */
const DISCONNECT_GRACE_MS = 1_000;

/**
 * One SSH connection from accept to close: learns the session from the username, counts only
 * keys whose possession is proven by a verified signature, then shows the result and ends.
 */
export class BridgeConnection {
  readonly #client: Connection;
  readonly #worker: WorkerApi;
  readonly #limits: ConnectionLimits;
  readonly #log: (line: ConnectionLog) => void;
  readonly #metrics: BridgeMetrics | null;
  /** Names this connection's calls in the Worker's logs and its own log line. */
  readonly #trace = randomBytes(8).toString("hex");
  #calls = 0;
  #error: string | null = null;
  readonly #remoteAddress: string;
  readonly #clientVersion: string;
  readonly #socket: Socket | undefined;
  /** When the TCP connection was accepted: the deadlines count from here. */
  readonly #startedAt: number;
  #identifier: string | null = null;
  #session: OpenedSession | null = null;
  /** Its place in the session, held while it lasts. */
  #place: SessionPlace | null = null;
  #rules: KeyRules | null = null;
  #opening: Promise<void> | null = null;
  #refusal: string | null = null;
  /** Why the bridge cut this client off, which its log line keeps whatever the Worker answers. */
  #cutOffAs: string | null = null;
  #authRequests = 0;
  /** The publickey requests, from the first offer to the one that lets the client in. */
  readonly #keys: KeyWalk;
  #finish: Promise<FinishConnectionResponse | null> | null = null;
  #outcome = "disconnected";
  /** What `ssh` exits with: 0 once a key counted, 1 when nothing did (scripts can tell). */
  #exitStatus: number = EXIT_PROVEN;
  /** The confirmation prompt is on the user's screen, waiting for its answer. */
  #atPrompt = false;
  /** The bridge cut the connection short (a drain): not the user's doing. */
  #interrupted = false;
  #channel: ServerChannel | null = null;
  /** Resolves once the connection has closed, reported its end to the Worker and logged its line. */
  readonly ended: Promise<void>;
  #markEnded: () => void = () => undefined;
  /** Every timer this connection runs, cleared when it closes. */
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Ends a connection that has not authenticated in time. */
  readonly #authDeadline: NodeJS.Timeout;
  /** Hangs up on a client that lingers after its channel closed. */
  #hangUp: NodeJS.Timeout | null = null;
  /** Destroys the socket of a client that does not close after a DISCONNECT. */
  #forceClose: NodeJS.Timeout | null = null;

  constructor(options: {
    client: Connection;
    /** The TCP socket under `client`: destroyed when a client ignores a DISCONNECT. */
    socket?: Socket;
    acceptedAt?: number;
    remoteAddress: string;
    clientVersion: string;
    worker: WorkerApi;
    limits: ConnectionLimits;
    log: (line: ConnectionLog) => void;
    metrics?: BridgeMetrics;
  }) {
    this.ended = new Promise((resolve) => {
      this.#markEnded = resolve;
    });
    this.#client = options.client;
    this.#socket = options.socket;
    this.#startedAt = options.acceptedAt ?? Date.now();
    this.#worker = options.worker;
    this.#limits = options.limits;
    this.#log = options.log;
    this.#metrics = options.metrics ?? null;
    this.#remoteAddress = options.remoteAddress;
    this.#clientVersion = options.clientVersion;
    this.#keys = new KeyWalk({
      limits: options.limits,
      clientAddress: options.remoteAddress,
      metrics: this.#metrics,
      cutOff: (ctx, outcome) => this.#cutOff(ctx, outcome),
    });
    const fromAccept = (ms: number) => Math.max(0, this.#startedAt + ms - Date.now());
    this.#authDeadline = this.#timer(fromAccept(this.#limits.authDeadlineMs), () =>
      this.#disconnect("auth_timeout"),
    );
    this.#timer(fromAccept(this.#limits.connectionLifetimeMs), () => this.#endOfLifetime());
    this.#client.on("authentication", (ctx) => {
      this.#authenticate(ctx).catch((error: Error) => {
        // Reported in this connection's log line; the client only sees the connection end.
        this.#error = error.message;
        this.#disconnect("error");
      });
    });
    this.#client.on("ready", () => {
      clearTimeout(this.#authDeadline);
      // A login that never opens its session channel (`ssh -N`) would hold a place for nothing.
      this.#timer(this.#limits.sessionChannelDeadlineMs, () => {
        if (!this.#channel) this.#disconnect("no_session_channel");
      });
      this.#client.on("session", (accept) => this.#onSession(accept()));
    });
    this.#client.on("error", () => undefined);
    this.#client.on("close", () => this.#onClose());
  }

  #timer(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  /**
   * Ends the connection now (DISCONNECT), and destroys the socket if the client does not close
   * its side promptly, as a client waiting at a prompt of its own never reads the DISCONNECT.
   */
  #disconnect(outcome?: string) {
    if (outcome) {
      this.#outcome = outcome;
      this.#cutOffAs = outcome;
    }
    sendDisconnect(this.#client, disconnectReason(this.#outcome));
    this.#forceClose ??= this.#timer(DISCONNECT_GRACE_MS, () => this.#socket?.destroy());
  }

  /** The connection's absolute lifetime is over: the user is told, and it ends. */
  #endOfLifetime() {
    this.#outcome = "lifetime_exceeded";
    this.#cutOffAs = "lifetime_exceeded";
    if (!this.#channel) return this.#disconnect();
    this.end(LIFETIME_EXCEEDED_MESSAGE);
  }

  /** Ends the connection politely (expiry, a failure): `ssh` exits with status 1. */
  end(message?: string) {
    this.#exitStatus = EXIT_NOTHING_PROVEN;
    if (message && this.#channel) {
      // A prompt waiting for its answer ends its line first: the sentence stands on its own.
      const onItsOwnLine = this.#atPrompt ? "\r\n" : "";
      this.#channel.write(onItsOwnLine + render([message], false));
    }
    this.#closeChannel();
  }

  /**
   * The bridge is restarting: the user is told, and the Worker hears that the connection was cut
   * rather than answered (a prompt left unanswered is not a decline).
   */
  interrupt(message: string) {
    this.#interrupted = true;
    this.end(message);
  }

  /**
   * Exit status, EOF, close, and let the client hang up: OpenSSH exits at once on a DISCONNECT,
   * dropping output it has not printed yet. A client that lingers is cut off shortly after.
   */
  #closeChannel() {
    if (this.#channel) {
      this.#channel.exit(this.#exitStatus);
      this.#channel.end();
    }
    this.#hangUp ??= this.#timer(this.#channel ? CLIENT_HANGUP_GRACE_MS : 0, () =>
      this.#disconnect(),
    );
  }

  async #authenticate(ctx: AuthContext) {
    if (++this.#authRequests > this.#limits.maxAuthRequests)
      return this.#cutOff(ctx, "too_many_auth_requests");
    await this.#openSession(ctx.username);
    const rules = this.#rules;
    if (this.#refusal !== null || !rules) {
      // The sentence is out (the banner); end at once, as sshd does after its last method fails,
      // rather than leave the client to try methods that prompt (a password, which nobody asked for).
      ctx.reject([]);
      return this.#disconnect();
    }
    if (ctx.method === "keyboard-interactive") return ctx.accept();
    if (ctx.method !== "publickey") return ctx.reject(AUTH_METHODS);
    return this.#keys.offer(ctx, rules);
  }

  /** A client that keeps asking is cut off: the auth request is refused and the connection ends. */
  #cutOff(ctx: AuthContext, outcome: string) {
    ctx.reject([]);
    this.#disconnect(outcome);
  }

  /** On the first auth request: the username names the session; ask the Worker once. */
  #openSession(username: string): Promise<void> {
    this.#opening ??= (async () => {
      const opening = await openSession(
        this.#worker,
        {
          username,
          remoteAddress: this.#remoteAddress,
          clientVersion: this.#clientVersion,
          maxKeys: this.#limits.maxKeyOffers,
        },
        this.#nextRequestId(),
      );
      this.#identifier = opening.identifier;
      if (!opening.accepted) {
        this.#outcome = opening.outcome;
        this.#refusal = opening.message;
        this.#error = opening.error ?? this.#error;
        return sendUserauthBanner(this.#client, opening.message);
      }
      this.#session = opening.session;
      this.#rules = opening.rules;
      this.#place = new SessionPlace({
        worker: this.#worker,
        session: opening.session,
        identifier: opening.identifier,
        timer: (ms, run) => this.#timer(ms, run),
        nextRequestId: () => this.#nextRequestId(),
        finished: () => this.#finish !== null,
        failed: (error) => {
          this.#error = error.message;
        },
        expired: () => {
          this.#outcome = "expired";
          this.#finish = Promise.resolve(null);
          this.end(EXPIRED_DURING_CONNECTION);
        },
      });
      if (opening.session.ssh_banner) sendUserauthBanner(this.#client, opening.session.ssh_banner);
    })();
    return this.#opening;
  }

  #onSession(session: Session) {
    let pty = false;
    session.on("pty", (accept) => {
      pty = true;
      accept?.();
    });
    session.on("window-change", (accept) => accept?.());
    session.on("env", (accept) => accept?.());
    const start = (accept: () => ServerChannel) => {
      if (this.#channel) return;
      this.#channel = accept();
      this.#showResult(this.#channel, pty).catch(() => this.end());
    };
    session.on("shell", (accept) => start(accept));
    session.on("exec", (accept) => start(accept));
  }

  async #showResult(channel: ServerChannel, pty: boolean) {
    const session = this.#session;
    if (!session) return this.end();
    const write = (lines: string[]) => lines.length > 0 && channel.write(render(lines, pty));
    const offered = this.#keys.offered;
    write(refusedKeyLines(offered));
    let confirmed: boolean | null = null;
    if (session.must_confirm && this.#keys.proven.length > 0) {
      const proven = this.#keys.provenViews();
      // Only for the proof page: the prompt does not wait for it.
      this.#place?.tellProgress(proven);
      const prompt = {
        kind: session.kind,
        proven,
        pty,
        deadlineMs: this.#limits.confirmDeadlineMs,
      };
      confirmed = await askToConfirm(channel, prompt, (shown) => {
        this.#atPrompt = shown;
      });
      if (this.#interrupted) return;
      channel.write(pty ? "\r\n" : "\n");
    }
    const result = await this.#finishOnce(confirmed);
    if (!result) return;
    const counted = result.outcome === "collected" || result.outcome === "verified";
    this.#exitStatus = counted ? EXIT_PROVEN : EXIT_NOTHING_PROVEN;
    write(resultLines(session.kind, result, offered));
    if (session.ssh_message) write([session.ssh_message]);
    this.#metrics?.loginShown(this.#startedAt);
    this.#closeChannel();
  }

  /** Reports the connection to the Worker exactly once, whatever ends it. */
  #finishOnce(confirmed: boolean | null): Promise<FinishConnectionResponse | null> {
    const session = this.#session;
    if (!session) return Promise.resolve(null);
    const ending = { confirmed, interrupted: this.#interrupted };
    const report = finishRequest(session, this.#identifier, this.#keys, ending);
    const nextId = () => this.#nextRequestId();
    this.#finish ??= reportFinish(this.#worker, session.connection_id, report, nextId, (error) => {
      this.#error = error.message;
    })
      .then((result) => {
        this.#outcome = this.#cutOffAs ?? result.outcome;
        return result;
      })
      .catch((error: Error) => {
        this.#error = error.message;
        // The report may have been recorded before the answer was lost: never say it was not.
        this.#outcome = "unknown";
        this.end(FINISH_UNKNOWN_MESSAGE);
        return null;
      });
    return this.#finish;
  }

  #onClose() {
    for (const timer of this.#timers) clearTimeout(timer);
    // A client that leaves early still counts: proven keys are kept unless confirmation was required.
    const finished = this.#finishOnce(false);
    void finished.finally(() => {
      this.#metrics?.connectionEnded(this.#outcome);
      const line = connectionLogLine(
        {
          request_id: this.#trace,
          identifier: this.#identifier,
          remote_address: this.#remoteAddress,
          client_version: this.#clientVersion,
          session_id: this.#session?.session_id ?? null,
          connection_id: this.#session?.connection_id ?? null,
          outcome: this.#outcome,
          error: this.#error,
          duration_ms: Date.now() - this.#startedAt,
        },
        this.#keys,
      );
      this.#log(line);
      this.#markEnded();
    });
  }

  /** The id of this connection's next call to the Worker, which logs it as its request id. */
  #nextRequestId(): string {
    return `${this.#trace}-${++this.#calls}`;
  }
}
