/**
 * Signed calls from the bridge to the Worker (docs/decisions.md, "Bridge ↔ Worker"). Shared by both sides, so it uses only
 * WebCrypto, which workerd and Node both provide.
 */
export const SIGNATURE_HEADERS = {
  timestamp: "x-keyproof-timestamp",
  nonce: "x-keyproof-nonce",
  signature: "x-keyproof-signature",
  /** The bridge's id for the call, which the Worker logs as its own request id: signed too. */
  requestId: "x-request-id",
} as const;

/** How far a request's timestamp may be from the Worker's clock, in seconds. */
export const SIGNATURE_WINDOW_SECONDS = 300;
const SIGNATURE_VERSION = "v1=";

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

export interface SignedParts {
  method: string;
  /** Path and query, e.g. `/internal/v1/connections`. */
  path: string;
  timestamp: string;
  nonce: string;
  body: string;
  /** Signed when present (a bridge from before request ids sends none). */
  requestId?: string | undefined;
}

async function canonical(parts: SignedParts): Promise<Uint8Array> {
  const bodyHash = hex(await crypto.subtle.digest("SHA-256", encoder.encode(parts.body)));
  const lines = [parts.method.toUpperCase(), parts.path, parts.timestamp, parts.nonce, bodyHash];
  if (parts.requestId) lines.push(parts.requestId);
  return encoder.encode(lines.join("\n"));
}

/** Imported keys by use and secret: importing one for every call was a share of a proof's CPU. */
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  const name = `${usage}:${secret}`;
  let key = hmacKeys.get(name);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      [usage],
    );
    // The secrets are the one or two of a rotation: a handful of entries, ever.
    hmacKeys.set(name, key);
  }
  return key;
}

/** The headers to add to a request the bridge sends: three, and its request id if it has one. */
export async function signRequest(
  secret: string,
  request: Omit<SignedParts, "timestamp" | "nonce">,
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)).buffer);
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret, "sign"),
    await canonical({ ...request, timestamp, nonce }),
  );
  return {
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: SIGNATURE_VERSION + hex(mac),
    ...(request.requestId ? { [SIGNATURE_HEADERS.requestId]: request.requestId } : {}),
  };
}

export type SignatureCheck =
  | { ok: true; nonce: string; timestamp: number }
  | { ok: false; reason: string };

/**
 * Checks the signature against each accepted secret (two during a rotation). HMAC verification
 * through WebCrypto compares in constant time. Nonce reuse is the caller's to check.
 */
export async function verifySignedRequest(
  secrets: string[],
  parts: Omit<SignedParts, "timestamp" | "nonce" | "requestId">,
  headers: { get(name: string): string | null },
  now = Date.now(),
): Promise<SignatureCheck> {
  const timestamp = headers.get(SIGNATURE_HEADERS.timestamp) ?? "";
  const nonce = headers.get(SIGNATURE_HEADERS.nonce) ?? "";
  const signature = headers.get(SIGNATURE_HEADERS.signature) ?? "";
  if (
    !/^\d{1,12}$/.test(timestamp) ||
    !/^[0-9a-f]{32}$/.test(nonce) ||
    !signature.startsWith(SIGNATURE_VERSION)
  ) {
    return { ok: false, reason: "missing or malformed signature headers" };
  }
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) {
    return { ok: false, reason: "timestamp outside the accepted window" };
  }
  const mac = fromHex(signature.slice(SIGNATURE_VERSION.length));
  if (!mac) return { ok: false, reason: "malformed signature" };
  const requestId = headers.get(SIGNATURE_HEADERS.requestId) ?? undefined;
  const data = await canonical({ ...parts, timestamp, nonce, requestId });
  for (const secret of secrets.filter(Boolean)) {
    if (await crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), mac, data)) {
      return { ok: true, nonce, timestamp: Number(timestamp) };
    }
  }
  return { ok: false, reason: "bad signature" };
}
