import type { AuthenticationType, PublicKeyAuthContext } from "ssh2";
import { isCertificateAlgorithm } from "../../worker/src/protocol/certificates.ts";
import { fingerprints, PublicKeyError } from "../../worker/src/protocol/key-material.ts";
import type { OfferedKey, ProvenKeyView } from "../../worker/src/protocol/key-outcomes.ts";
import { MAX_KEY_BLOB_BYTES } from "../../worker/src/protocol/messages.ts";
import {
  judgeKey,
  judgeProof,
  keyView,
  type Parsed,
} from "../../worker/src/protocol/proof-rules.ts";
import { type ParsedPublicKey, parsePublicKeyBlob } from "../../worker/src/protocol/public-keys.ts";
import type { AuthenticatorData } from "../../worker/src/protocol/signatures.ts";
import { SshReader } from "../../worker/src/protocol/ssh-wire.ts";
import { escapeUntrustedText } from "../../worker/src/protocol/terminal-text.ts";
import { answerKeyRequest, enoughKeysProven, type KeyRules } from "./key-decisions.ts";
import type { BridgeMetrics } from "./metrics.ts";
import { requestAlgorithmOf, requestAlgorithmRefusal, verifySignedRequest } from "./signatures.ts";

/** The methods a client may go on with after a publickey request is refused. */
export const AUTH_METHODS: AuthenticationType[] = ["publickey", "keyboard-interactive"];

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
export interface ProvenKey {
  /** As the client offered it: the key, or its certificate. */
  blob: Buffer;
  key: ParsedPublicKey;
  authenticator: AuthenticatorData | null;
}

export interface KeyWalkLimits {
  maxKeyOffers: number;
  /** Signatures verified per connection: each costs CPU, so a client cannot ask without end. */
  maxSignatureChecks: number;
}

/**
 * A connection's publickey requests, from its first offer to the one that lets the client in:
 * each key judged once, counted only once a verified signature proves its possession.
 */
export class KeyWalk {
  readonly #limits: KeyWalkLimits;
  readonly #clientAddress: string;
  readonly #metrics: BridgeMetrics | null;
  /** Ends the connection: a client that keeps asking is cut off. */
  readonly #cutOff: (ctx: PublicKeyAuthContext, outcome: string) => void;
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
  #signaturesChecked = 0;

  constructor(options: {
    limits: KeyWalkLimits;
    clientAddress: string;
    metrics: BridgeMetrics | null;
    cutOff: (ctx: PublicKeyAuthContext, outcome: string) => void;
  }) {
    this.#limits = options.limits;
    this.#clientAddress = options.clientAddress;
    this.#metrics = options.metrics;
    this.#cutOff = options.cutOff;
  }

  /** What became of each key offered, in the order offered. */
  get offered(): OfferedKey[] {
    return [...this.#offered.values()];
  }

  get proven(): ProvenKey[] {
    return [...this.#proven.values()];
  }

  get signaturesChecked(): number {
    return this.#signaturesChecked;
  }

  provenViews(): ProvenKeyView[] {
    return this.proven.map(({ key }) => keyView(key));
  }

  /** A publickey request: judge the key once, then answer the query or check the proof. */
  offer(ctx: PublicKeyAuthContext, rules: KeyRules) {
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
        : parse(blob, this.#clientAddress);
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
      this.proven.map((entry) => entry.key),
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
    const parsed = parse(blob, this.#clientAddress);
    if (!("key" in parsed)) return null;
    const proven = this.#proven.get(parsed.key.publicKeySha256);
    return proven && proven.key.certificate === null ? proven : null;
  }
}
