import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type {
  AuthContext,
  AuthenticationType,
  Connection,
  PublicKeyAuthContext,
  ServerChannel,
  Session,
} from "ssh2";
import { isCertificateAlgorithm } from "../../worker/src/protocol/certificates.ts";
import { fingerprints, PublicKeyError } from "../../worker/src/protocol/key-material.ts";
import {
  type OfferedKey,
  type ProvenKeyView,
  uncountedReasons,
} from "../../worker/src/protocol/key-outcomes.ts";
import {
  type FinishConnectionRequest,
  type FinishConnectionResponse,
  LEASE_RENEWAL_MS,
  MAX_KEY_BLOB_BYTES,
  type OpenConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import {
  judgeKey,
  judgeProof,
  keyView,
  type Parsed,
} from "../../worker/src/protocol/proof-rules.ts";
import { type ParsedPublicKey, parsePublicKeyBlob } from "../../worker/src/protocol/public-keys.ts";
import type { AuthenticatorData } from "../../worker/src/protocol/signatures.ts";
import { SshReader } from "../../worker/src/protocol/ssh-wire.ts";
import {
  confirmPromptLines,
  EXPIRED_DURING_CONNECTION,
  FINISH_UNKNOWN_MESSAGE,
  LIFETIME_EXCEEDED_MESSAGE,
  REFUSALS,
  refusedKeyLines,
  render,
  resultLines,
  UNAVAILABLE_MESSAGE,
} from "../../worker/src/protocol/terminal.ts";
import { escapeUntrustedText } from "../../worker/src/protocol/terminal-text.ts";
import { readConfirmation } from "./confirmation.ts";
import { answerKeyRequest, enoughKeysProven, type KeyRules } from "./key-decisions.ts";
import type { BridgeMetrics } from "./metrics.ts";
import { requestAlgorithmOf, requestAlgorithmRefusal, verifySignedRequest } from "./signatures.ts";
import { sendUserauthBanner } from "./userauth-banner.ts";
import { type WorkerApi, WorkerUnavailableError } from "./worker-client.ts";

export interface ConnectionLimits {
  authDeadlineMs: number;
  /** After authentication, the time a client has to open its session channel. */
  sessionChannelDeadlineMs: number;
  /** From TCP accept: the longest a connection may last, whatever it is doing. */
  connectionLifetimeMs: number;
  confirmDeadlineMs: number;
  maxKeyOffers: number;
  /** Signatures verified per connection: each costs CPU, so a client cannot ask without end. */
  maxSignatureChecks: number;
  /** Authentication requests per connection, of any method. */
  maxAuthRequests: number;
}

export type ConnectionLog = {
  event: "connection";
  /** The connection's trace id: its calls to the Worker are `<request_id>-1`, `-2`, ... */
  request_id: string;
  identifier: string | null;
  remote_address: string;
  client_version: string;
  session_id: string | null;
  connection_id: string | null;
  keys_offered: number;
  keys_proven: number;
  keys_refused: number;
  signatures_checked: number;
  outcome: string;
  /** What went wrong, in the Worker's words when it was the Worker: null when nothing did. */
  error: string | null;
  duration_ms: number;
};

type OpenedSession = Extract<OpenConnectionResponse, { accepted: true }>;

const IDENTIFIER_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/;

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
 * A connection's report is sent up to this many times while the Worker does not answer, waiting
 * FINISH_RETRY_MS longer before each (1 + 2 + 3 + 4 s: a Worker restarting is back within that).
 */
const FINISH_REPORT_ATTEMPTS = 5;
const FINISH_RETRY_MS = 1_000;
/** Checked a little after the session's expiry, so the Worker's alarm has run. */
const EXPIRY_CHECK_MARGIN_MS = 500;
/** Node timers cap at ~24.8 days; a later expiry is simply checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const AUTH_METHODS: AuthenticationType[] = ["publickey", "keyboard-interactive"];

/** Refusals of the request's algorithm, not of the key: the same key may come again rightly named. */
const ALGORITHM_REFUSALS = new Set<string>(["sha1", "algorithm_mismatch"]);

/** A key blob as offered from `clientAddress`, which a certificate's source-address must allow. */
function parse(blob: Buffer, clientAddress: string): Parsed {
  if (blob.length > MAX_KEY_BLOB_BYTES) return { refusal: "malformed", detail: null };
  try {
    return { key: parsePublicKeyBlob(blob, { clientAddress }) };
  } catch (error) {
    if (error instanceof PublicKeyError) return { refusal: error.code, detail: error.detail };
    return { refusal: "malformed", detail: null };
  }
}

/** The type a key blob names: a key type, or a certificate type. */
function blobType(blob: Buffer): string {
  try {
    return new SshReader(blob).text("key type");
  } catch {
    return "";
  }
}

/** A key whose possession a verified signature proved. */
interface ProvenKey {
  /** As the client offered it: the key, or its certificate. */
  blob: Buffer;
  key: ParsedPublicKey;
  authenticator: AuthenticatorData | null;
}

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
  #rules: KeyRules | null = null;
  #opening: Promise<void> | null = null;
  #refusal: string | null = null;
  /** Every distinct key blob the client offered, by the blob's fingerprint, with what became of it. */
  readonly #offered = new Map<string, OfferedKey>();
  /** The keys read from those blobs (a certificate's is the key it certifies). */
  readonly #keys = new Map<string, ParsedPublicKey>();
  /** Proven keys by their own fingerprint: a key and its certificate are one key. */
  readonly #proven = new Map<string, ProvenKey>();
  /**
   * A proof was answered with partial success: the client walks its keys again, from the one
   * after it (its certificate, if it has one) round to the first, and a proven key it offers
   * again lets it in through publickey (#admit).
   */
  #walkRestarted = false;
  /** Keys offered once enough was proven, not looked at: they count against the offers' cap. */
  readonly #passedOver = new Set<string>();
  /** Why the bridge cut this client off, which its log line keeps whatever the Worker answers. */
  #cutOffAs: string | null = null;
  #authRequests = 0;
  #signaturesChecked = 0;
  #finish: Promise<FinishConnectionResponse | null> | null = null;
  #outcome = "disconnected";
  /** What `ssh` exits with: 0 once a key counted, 1 when nothing did (scripts can tell). */
  #exitStatus: number = EXIT_PROVEN;
  /** The confirmation prompt is on the user's screen, waiting for its answer. */
  #atPrompt = false;
  /** The bridge cut the connection short (a drain): not the user's doing. */
  #interrupted = false;
  #channel: ServerChannel | null = null;
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
    this.#client = options.client;
    this.#socket = options.socket;
    this.#startedAt = options.acceptedAt ?? Date.now();
    this.#worker = options.worker;
    this.#limits = options.limits;
    this.#log = options.log;
    this.#metrics = options.metrics ?? null;
    this.#remoteAddress = options.remoteAddress;
    this.#clientVersion = options.clientVersion;
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
    this.#client.end();
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
    return this.#offer(ctx, rules);
  }

  /** A publickey request: judge the key once, then answer the query or check the proof. */
  #offer(ctx: PublicKeyAuthContext, rules: KeyRules) {
    const blob = ctx.key.data;
    const offerId = fingerprints(blob).publicKeySha256;
    const seen = this.#offered.get(offerId);
    // The client came round to a proven key again: it has offered all it holds.
    if (this.#walkRestarted && seen?.fate === "proven")
      return this.#admit(ctx, this.#keys.get(offerId));
    // Past the cap, new keys are turned away; the signed request for an offered one still counts.
    if (!seen && this.#offered.size + this.#passedOver.size >= this.#limits.maxKeyOffers)
      return ctx.reject(["keyboard-interactive"]);
    // Enough is proven: a key not seen yet is not needed; the walk goes on to a proven one.
    if (this.#walkRestarted && !seen && !this.#bareProofCertifiedBy(blob) && this.#enough(rules)) {
      this.#passedOver.add(offerId);
      return ctx.reject(AUTH_METHODS);
    }
    const algorithm = requestAlgorithmOf(ctx);
    const algorithmRefusal = requestAlgorithmRefusal(algorithm, blobType(blob));
    let offered = seen;
    // A key refused for the name its request gave may come again, rightly named.
    const renamed =
      offered?.fate === "refused" && ALGORITHM_REFUSALS.has(offered.refusal) && !algorithmRefusal;
    if (!offered || renamed) {
      const parsed: Parsed = algorithmRefusal
        ? { refusal: algorithmRefusal, detail: escapeUntrustedText(algorithm.slice(0, 64)) }
        : parse(blob, this.#remoteAddress);
      if ("key" in parsed) this.#keys.set(offerId, parsed.key);
      offered = judgeKey(rules, offerId, parsed);
      this.#offered.set(offerId, offered);
      if (offered.fate === "refused" || offered.fate === "unexpected")
        this.#metrics?.keyProof(offered.fate);
    }
    const key = this.#keys.get(offerId);
    // (The fate test only narrows the type: a key is known for every key awaiting proof.)
    if (offered.fate !== "unproven" || !key) return ctx.reject(AUTH_METHODS);
    const bare = this.#bareProofCertifiedBy(blob);
    if (bare) {
      // Its key's possession is proven in this connection: the certificate needs no signature.
      this.#offered.set(offerId, { ...offered, fate: "proven" });
      this.#proven.set(key.publicKeySha256, { ...bare, blob, key });
      // Enough with it: its signed request lets the client in, as a proven key's does.
      return this.#enough(rules) ? this.#admit(ctx, key) : ctx.reject(AUTH_METHODS);
    }
    const signed = ctx.signature !== undefined && ctx.blob !== undefined;
    const answer = answerKeyRequest(
      offered,
      { signed, algorithmRefused: algorithmRefusal !== null },
      { checked: this.#signaturesChecked, max: this.#limits.maxSignatureChecks },
    );
    if (answer === "reject") return ctx.reject(AUTH_METHODS);
    if (answer === "key_ok") return ctx.accept();
    if (answer === "cut_off") return this.#cutOff(ctx, "too_many_signatures");
    this.#signaturesChecked++;
    if (!ctx.signature || !ctx.blob) return ctx.reject(AUTH_METHODS);
    const request = { algorithm, key: blob, signature: ctx.signature, data: ctx.blob };
    const proof = verifySignedRequest(request, blobType(blob));
    if (!proof.verified) {
      this.#metrics?.keyProof("bad_signature");
      return ctx.reject(AUTH_METHODS);
    }
    const judged = judgeProof(rules, offered, key, proof.authenticator);
    this.#offered.set(offerId, judged);
    this.#metrics?.keyProof(judged.fate === "proven" ? "proven" : "refused");
    if (judged.fate !== "proven") return ctx.reject(AUTH_METHODS);
    this.#proven.set(key.publicKeySha256, { blob, key, authenticator: proof.authenticator });
    return this.#provenSoFar(ctx, rules, key);
  }

  /** Whether the keys proven so far are all the session asks of this connection. */
  #enough(rules: KeyRules): boolean {
    return enoughKeysProven(
      rules,
      [...this.#proven.values()].map((entry) => entry.key),
    );
  }

  /**
   * After a proof. A certificate lets the client in at once when enough is proven (nothing of it
   * comes after). Otherwise the first proof is answered with partial success: OpenSSH then offers
   * its keys again, starting after this one — its certificate, the keys it has not offered yet —
   * and round to the first, and a proven key offered again lets it in (#admit). So a client that
   * cannot use keyboard-interactive (`ssh -o BatchMode=yes`) is let in too, and reads its result.
   */
  #provenSoFar(ctx: PublicKeyAuthContext, rules: KeyRules, key: ParsedPublicKey) {
    if (this.#enough(rules) && key.certificate !== null) return ctx.accept();
    if (this.#walkRestarted) return ctx.reject(AUTH_METHODS);
    this.#walkRestarted = true;
    return ctx.reject(AUTH_METHODS, true);
  }

  /**
   * A proven key (or a proven key's certificate) offered again: its query gets "key OK", and its
   * signed request, once the signature verifies, lets the client in. A security key is let in
   * through keyboard-interactive instead, so its user touches it once, not twice.
   */
  #admit(ctx: PublicKeyAuthContext, key: ParsedPublicKey | undefined) {
    if (key?.securityKey) return ctx.reject(["keyboard-interactive"]);
    if (ctx.signature === undefined || ctx.blob === undefined) return ctx.accept();
    if (this.#signaturesChecked >= this.#limits.maxSignatureChecks)
      return this.#cutOff(ctx, "too_many_signatures");
    this.#signaturesChecked++;
    const blob = ctx.key.data;
    const request = {
      algorithm: requestAlgorithmOf(ctx),
      key: blob,
      signature: ctx.signature,
      data: ctx.blob,
    };
    return verifySignedRequest(request, blobType(blob)).verified
      ? ctx.accept()
      : ctx.reject(AUTH_METHODS);
  }

  /** The proof of a key proven without a certificate, when `blob` is that key's certificate. */
  #bareProofCertifiedBy(blob: Buffer): ProvenKey | null {
    if (!isCertificateAlgorithm(blobType(blob))) return null;
    const parsed = parse(blob, this.#remoteAddress);
    if (!("key" in parsed)) return null;
    const proven = this.#proven.get(parsed.key.publicKeySha256);
    return proven && proven.key.certificate === null ? proven : null;
  }

  /** A client that keeps asking is cut off: the auth request is refused and the connection ends. */
  #cutOff(ctx: AuthContext, outcome: string) {
    ctx.reject([]);
    this.#disconnect(outcome);
  }

  /** On the first auth request: the username names the session; ask the Worker once. */
  #openSession(username: string): Promise<void> {
    this.#opening ??= (async () => {
      const identifier = username.trim().toLowerCase();
      this.#identifier = identifier;
      if (!IDENTIFIER_PATTERN.test(identifier))
        return this.#refuseConnection("refused_unknown", REFUSALS.unknown);
      let opened: OpenConnectionResponse;
      try {
        opened = await this.#worker.openConnection(
          {
            connection_identifier: identifier,
            ip_address: this.#remoteAddress,
            client_version: this.#clientVersion,
          },
          this.#nextRequestId(),
        );
      } catch (error) {
        if (!(error instanceof WorkerUnavailableError)) throw error;
        this.#error = error.message;
        return this.#refuseConnection("unavailable", UNAVAILABLE_MESSAGE);
      }
      if (!opened.accepted)
        return this.#refuseConnection(`refused_${opened.reason}`, REFUSALS[opened.reason]);
      this.#session = opened;
      this.#keepPlace();
      this.#rules = {
        kind: opened.kind,
        expected: opened.expected_fingerprints,
        authorities: opened.authority_fingerprints,
        principal: opened.principal,
        requireSecurityKey: opened.require_security_key,
        requireUserVerification: opened.require_user_verification,
        multiKey: opened.multi_key,
        maxKeys: this.#limits.maxKeyOffers,
      };
      if (opened.ssh_banner) sendUserauthBanner(this.#client, opened.ssh_banner);
      this.#scheduleExpiryCheck(opened.expired_at);
    })();
    return this.#opening;
  }

  #refuseConnection(outcome: string, message: string) {
    this.#outcome = outcome;
    this.#refusal = message;
    sendUserauthBanner(this.#client, message);
  }

  #scheduleExpiryCheck(expiredAt: string) {
    const delay = Math.max(0, Date.parse(expiredAt) - Date.now()) + EXPIRY_CHECK_MARGIN_MS;
    // Asks the Worker, once the session's expiry has passed, whether it has really ended.
    this.#timer(Math.min(delay, MAX_TIMER_MS), () => this.#checkExpiry());
  }

  async #checkExpiry() {
    const session = this.#session;
    if (!session || this.#finish) return;
    try {
      const status = await this.#worker.sessionStatus(
        session.session_id,
        this.#identifier ?? "",
        this.#nextRequestId(),
      );
      if (status.open) return this.#scheduleExpiryCheck(status.expired_at);
    } catch (error) {
      // If the Worker cannot say, the session's own expiry stands.
      this.#error = (error as Error).message;
    }
    this.#outcome = "expired";
    this.#finish = Promise.resolve(null);
    this.end(EXPIRED_DURING_CONNECTION);
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
    const offered = [...this.#offered.values()];
    write(refusedKeyLines(offered));
    let confirmed: boolean | null = null;
    if (session.must_confirm && this.#proven.size > 0) {
      const proven = this.#provenViews();
      // Only for the proof page: the prompt does not wait for it.
      this.#worker
        .connectionProgress(
          session.connection_id,
          {
            session_id: session.session_id,
            connection_identifier: this.#identifier ?? undefined,
            confirming: proven,
          },
          this.#nextRequestId(),
        )
        .catch((error: Error) => {
          this.#error = error.message;
        });
      const prompt = confirmPromptLines(session.kind, proven, pty);
      channel.write(render(prompt, pty).replace(/\r?\n$/, ""));
      this.#atPrompt = true;
      confirmed = await readConfirmation(channel, pty, this.#limits.confirmDeadlineMs);
      this.#atPrompt = false;
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

  /**
   * While the connection lasts, tells the Worker every LEASE_RENEWAL_MS that it lives: the
   * session's place is held by a short lease, so a bridge that dies frees it within a minute.
   */
  #keepPlace() {
    this.#timer(LEASE_RENEWAL_MS, () => {
      const session = this.#session;
      if (!session || this.#finish) return;
      this.#worker
        .connectionProgress(
          session.connection_id,
          { session_id: session.session_id, connection_identifier: this.#identifier ?? undefined },
          this.#nextRequestId(),
        )
        .catch((error: Error) => {
          this.#error = error.message;
        });
      this.#keepPlace();
    });
  }

  #provenViews(): ProvenKeyView[] {
    return [...this.#proven.values()].map(({ key }) => keyView(key));
  }

  /** Reports the connection to the Worker exactly once, whatever ends it. */
  #finishOnce(confirmed: boolean | null): Promise<FinishConnectionResponse | null> {
    const session = this.#session;
    if (!session) return Promise.resolve(null);
    const report = {
      session_id: session.session_id,
      connection_identifier: this.#identifier ?? undefined,
      keys: [...this.#proven.values()].map(({ blob, authenticator }) => ({
        key: blob.toString("base64"),
        security_key: authenticator,
      })),
      keys_offered: this.#offered.size,
      refusals: uncountedReasons(this.#offered.values()),
      confirmed: session.must_confirm ? confirmed === true : null,
      interrupted: this.#interrupted,
    };
    this.#finish ??= this.#report(session.connection_id, report)
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

  /**
   * The report, sent again while the Worker cannot be heard (it restarts under a deploy or a
   * crash): the Worker answers a report it already recorded with what it recorded then, so a
   * second sending records nothing twice and the user learns what really happened.
   */
  async #report(connectionId: string, report: FinishConnectionRequest) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#worker.finishConnection(connectionId, report, this.#nextRequestId());
      } catch (error) {
        const again =
          error instanceof WorkerUnavailableError &&
          error.serviceDown &&
          error.status !== 401 &&
          attempt < FINISH_REPORT_ATTEMPTS;
        if (!again) throw error;
        this.#error = (error as Error).message;
        await new Promise((resolve) => setTimeout(resolve, FINISH_RETRY_MS * attempt));
      }
    }
  }

  #onClose() {
    for (const timer of this.#timers) clearTimeout(timer);
    // A client that leaves early still counts: proven keys are kept unless confirmation was required.
    const finished = this.#finishOnce(false);
    finished.finally(() => {
      this.#metrics?.connectionEnded(this.#outcome);
      this.#log({
        event: "connection",
        request_id: this.#trace,
        identifier: this.#identifier,
        remote_address: this.#remoteAddress,
        client_version: this.#clientVersion,
        session_id: this.#session?.session_id ?? null,
        connection_id: this.#session?.connection_id ?? null,
        keys_offered: this.#offered.size,
        keys_proven: this.#proven.size,
        keys_refused: [...this.#offered.values()].filter((key) => key.fate === "refused").length,
        signatures_checked: this.#signaturesChecked,
        outcome: this.#outcome,
        error: this.#error,
        duration_ms: Date.now() - this.#startedAt,
      });
    });
  }

  /** The id of this connection's next call to the Worker, which logs it as its request id. */
  #nextRequestId(): string {
    return `${this.#trace}-${++this.#calls}`;
  }
}
