import { createHash } from "node:crypto";
import ssh2, {
  type AuthContext,
  type AuthenticationType,
  type Connection,
  type ServerChannel,
  type Session,
} from "ssh2";
import type {
  FinishConnectionResponse,
  OpenConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import {
  type ParsedPublicKey,
  PublicKeyError,
  parsePublicKeyBlob,
} from "../../worker/src/protocol/public-keys.ts";
import {
  confirmPromptLines,
  EXPIRED_DURING_CONNECTION,
  type KeyRefusalCode,
  type OfferedKey,
  type ProvenKeyView,
  REFUSALS,
  refusedKeyLines,
  render,
  resultLines,
  UNAVAILABLE_MESSAGE,
} from "./terminal.ts";
import { sendUserauthBanner } from "./userauth-banner.ts";
import { type WorkerClient, WorkerUnavailableError } from "./worker-client.ts";

export interface ConnectionLimits {
  authDeadlineMs: number;
  confirmDeadlineMs: number;
  maxKeyOffers: number;
  /** Signatures verified per connection: each costs CPU, so a client cannot ask without end. */
  maxSignatureChecks: number;
  /** Authentication requests per connection, of any method. */
  maxAuthRequests: number;
}

export type ConnectionLog = {
  event: "connection";
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
  duration_ms: number;
};

type OpenedSession = Extract<OpenConnectionResponse, { accepted: true }>;

const IDENTIFIER_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/;
/** How long a client may keep the connection after its channel closed. */
const CLIENT_HANGUP_GRACE_MS = 2_000;
const AUTH_METHODS: AuthenticationType[] = ["publickey", "keyboard-interactive"];
const refusal = (
  sha256: string,
  code: KeyRefusalCode,
  detail: string | null = null,
): OfferedKey => ({ sha256, fate: "refused", refusal: code, detail });

/**
 * One SSH connection from accept to close: learns the session from the username, counts only
 * keys whose possession is proven by a verified signature, then shows the result and ends.
 */
export class BridgeConnection {
  readonly #client: Connection;
  readonly #worker: WorkerClient;
  readonly #limits: ConnectionLimits;
  readonly #log: (line: ConnectionLog) => void;
  readonly #remoteAddress: string;
  readonly #clientVersion: string;
  readonly #startedAt = Date.now();
  #identifier: string | null = null;
  #session: OpenedSession | null = null;
  #opening: Promise<void> | null = null;
  #refusal: string | null = null;
  /** Every distinct key the client offered, by fingerprint, with what became of it. */
  readonly #offered = new Map<string, OfferedKey>();
  /** Wire blobs of the keys whose possession a verified signature proved. */
  readonly #proven = new Map<string, Buffer>();
  /** Why the bridge cut this client off, which its log line keeps whatever the Worker answers. */
  #cutOffAs: string | null = null;
  #authRequests = 0;
  #signaturesChecked = 0;
  #finish: Promise<FinishConnectionResponse | null> | null = null;
  #outcome = "disconnected";
  #channel: ServerChannel | null = null;
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(options: {
    client: Connection;
    remoteAddress: string;
    clientVersion: string;
    worker: WorkerClient;
    limits: ConnectionLimits;
    log: (line: ConnectionLog) => void;
  }) {
    this.#client = options.client;
    this.#worker = options.worker;
    this.#limits = options.limits;
    this.#log = options.log;
    this.#remoteAddress = options.remoteAddress;
    this.#clientVersion = options.clientVersion;
    this.#timers.push(
      setTimeout(() => {
        this.#outcome = "auth_timeout";
        this.#client.end();
      }, this.#limits.authDeadlineMs),
    );
    this.#client.on("authentication", (ctx) => {
      this.#authenticate(ctx).catch((error: Error) => {
        // Reported in this connection's log line; the client only sees the connection end.
        this.#outcome = `error: ${error.message}`;
        this.#client.end();
      });
    });
    this.#client.on("ready", () => {
      clearTimeout(this.#timers[0]);
      this.#client.on("session", (accept) => this.#onSession(accept()));
    });
    this.#client.on("error", () => undefined);
    this.#client.on("close", () => this.#onClose());
  }

  /** Ends the connection politely (shutdown, expiry). */
  end(message?: string) {
    if (message && this.#channel) this.#channel.write(render([message], false));
    this.#closeChannel();
  }

  /**
   * Exit status, EOF, close, and let the client hang up: OpenSSH exits at once on a DISCONNECT,
   * dropping output it has not printed yet. A client that lingers is cut off shortly after.
   */
  #closeChannel() {
    if (this.#channel) {
      this.#channel.exit(0);
      this.#channel.end();
    }
    const hangUp = setTimeout(() => this.#client.end(), this.#channel ? CLIENT_HANGUP_GRACE_MS : 0);
    this.#timers.push(hangUp);
  }

  async #authenticate(ctx: AuthContext) {
    if (++this.#authRequests > this.#limits.maxAuthRequests)
      return this.#cutOff(ctx, "too_many_auth_requests");
    await this.#openSession(ctx.username);
    if (this.#refusal !== null || !this.#session) return ctx.reject([]);
    if (ctx.method === "keyboard-interactive") return ctx.accept();
    if (ctx.method !== "publickey") return ctx.reject(AUTH_METHODS);

    const blob = ctx.key.data;
    const sha256 = fingerprintOf(blob);
    // ssh2 reports rsa-sha2-256/512 as key algo "ssh-rsa" with a hashAlgo; none means SHA-1.
    const sha1 = ctx.key.algo === "ssh-rsa" && !ctx.hashAlgo;
    let offered = this.#offered.get(sha256);
    if (!offered || (offered.fate === "refused" && offered.refusal === "sha1" && !sha1)) {
      // Past the cap, new keys are turned away; the signed request for an offered one still counts.
      if (!offered && this.#offered.size >= this.#limits.maxKeyOffers)
        return ctx.reject(["keyboard-interactive"]);
      offered = sha1 ? refusal(sha256, "sha1") : this.#judge(blob, sha256);
      this.#offered.set(sha256, offered);
    }
    if (offered.fate !== "unproven" || sha1) return ctx.reject(AUTH_METHODS);
    // The unsigned query gets "key OK"; only a signed request counts as proof of possession.
    if (!ctx.signature || !ctx.blob) return ctx.accept();
    if (this.#signaturesChecked >= this.#limits.maxSignatureChecks)
      return this.#cutOff(ctx, "too_many_signatures");
    this.#signaturesChecked++;
    const publicKey = ssh2.utils.parseKey(blob);
    if (
      publicKey instanceof Error ||
      publicKey.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true
    ) {
      return ctx.reject(AUTH_METHODS);
    }
    this.#offered.set(sha256, { ...offered, fate: "proven" });
    this.#proven.set(sha256, blob);
    if (this.#enoughKeys()) return ctx.accept();
    return ctx.reject(AUTH_METHODS);
  }

  /** A newly offered key: refused (and why), not one this session expects, or awaiting proof. */
  #judge(blob: Buffer, sha256: string): OfferedKey {
    let key: ParsedPublicKey;
    try {
      key = parsePublicKeyBlob(blob);
    } catch (error) {
      if (error instanceof PublicKeyError) return refusal(sha256, error.code, error.detail);
      return refusal(sha256, "malformed");
    }
    const view = { sha256, algorithm: key.publicKeyAlgorithm, bits: key.publicKeyBits };
    const session = this.#session;
    const expected = session?.kind === "collect" || session?.expected_fingerprints.includes(sha256);
    return { sha256, fate: expected ? "unproven" : "unexpected", key: view };
  }

  /** A client that keeps asking is cut off: the auth request is refused and the connection ends. */
  #cutOff(ctx: AuthContext, outcome: string) {
    this.#outcome = outcome;
    this.#cutOffAs = outcome;
    ctx.reject([]);
    this.#client.end();
  }

  #enoughKeys(): boolean {
    const session = this.#session;
    if (!session?.multi_key) return true;
    if (this.#proven.size >= this.#limits.maxKeyOffers) return true;
    return (
      session.kind === "verify" &&
      session.expected_fingerprints.every((fingerprint) => this.#proven.has(fingerprint))
    );
  }

  /** On the first auth request: the username names the session; ask the Worker once. */
  #openSession(username: string): Promise<void> {
    this.#opening ??= (async () => {
      const identifier = username.trim().toLowerCase();
      this.#identifier = identifier;
      if (!IDENTIFIER_PATTERN.test(identifier))
        return this.#refuseConnection("unknown", REFUSALS.unknown);
      let opened: OpenConnectionResponse;
      try {
        opened = await this.#worker.openConnection({
          connection_identifier: identifier,
          ip_address: this.#remoteAddress,
          client_version: this.#clientVersion,
        });
      } catch (error) {
        if (!(error instanceof WorkerUnavailableError)) throw error;
        return this.#refuseConnection("unavailable", UNAVAILABLE_MESSAGE);
      }
      if (!opened.accepted) return this.#refuseConnection(opened.reason, REFUSALS[opened.reason]);
      this.#session = opened;
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
    const delay = Math.max(0, Date.parse(expiredAt) - Date.now()) + 500;
    // Timers cap at ~24.8 days; a later expiry is simply checked again then.
    this.#timers.push(setTimeout(() => this.#checkExpiry(), Math.min(delay, 2 ** 31 - 1)));
  }

  async #checkExpiry() {
    const session = this.#session;
    if (!session || this.#finish) return;
    try {
      const status = await this.#worker.sessionStatus(session.session_id);
      if (status.open) return this.#scheduleExpiryCheck(status.expired_at);
    } catch {
      // If the Worker cannot say, the session's own expiry stands.
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
      channel.write(
        render(confirmPromptLines(session.kind, this.#provenViews(), pty), pty).replace(
          /\r?\n$/,
          "",
        ),
      );
      confirmed = await readConfirmation(channel, pty, this.#limits.confirmDeadlineMs);
      channel.write(pty ? "\r\n" : "\n");
    }
    const result = await this.#finishOnce(confirmed);
    if (!result) return;
    write(resultLines(session.kind, result, offered));
    if (session.ssh_message) write([session.ssh_message]);
    this.#closeChannel();
  }

  #provenViews(): ProvenKeyView[] {
    return [...this.#offered.values()].flatMap((offered) =>
      offered.fate === "proven" ? [offered.key] : [],
    );
  }

  /** Reports the connection to the Worker exactly once, whatever ends it. */
  #finishOnce(confirmed: boolean | null): Promise<FinishConnectionResponse | null> {
    const session = this.#session;
    if (!session) return Promise.resolve(null);
    this.#finish ??= this.#worker
      .finishConnection(session.connection_id, {
        session_id: session.session_id,
        keys: [...this.#proven.values()].map((blob) => blob.toString("base64")),
        keys_offered: this.#offered.size,
        confirmed: session.must_confirm ? confirmed === true : null,
      })
      .then((result) => {
        this.#outcome = this.#cutOffAs ?? result.outcome;
        return result;
      })
      .catch(() => {
        this.#outcome = "unavailable";
        this.end(UNAVAILABLE_MESSAGE);
        return null;
      });
    return this.#finish;
  }

  #onClose() {
    for (const timer of this.#timers) clearTimeout(timer);
    // A client that leaves early still counts: proven keys are kept unless confirmation was required.
    const finished = this.#finishOnce(false);
    finished.finally(() =>
      this.#log({
        event: "connection",
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
        duration_ms: Date.now() - this.#startedAt,
      }),
    );
  }
}

function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/** With a pty, one key press; without, one line. Anything but `y`, or silence, declines. */
function readConfirmation(
  channel: ServerChannel,
  pty: boolean,
  deadlineMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    let buffered = "";
    const done = (answer: boolean) => {
      clearTimeout(timer);
      channel.off("data", onData);
      channel.off("close", onClose);
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), deadlineMs);
    const onClose = () => done(false);
    const onData = (data: Buffer) => {
      buffered += data.toString("utf8");
      if (pty) return done(buffered[0]?.toLowerCase() === "y");
      const newline = buffered.search(/\r?\n/);
      if (newline >= 0) done(buffered.slice(0, newline).trim().toLowerCase() === "y");
    };
    channel.on("data", onData);
    channel.on("close", onClose);
    channel.on("end", onClose);
  });
}
