/**
 * @keyproof/client — the keyproof API from TypeScript: typed requests (openapi-fetch over types
 * generated from keyproof's OpenAPI document), webhook verification (Standard Webhooks) and
 * attestation verification (jose), with no other dependency.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  type JSONWebKeySet,
  jwtVerify,
} from "jose";
import createClient, { type Client } from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import type { components, operations, paths } from "./schema.js";

/** `operations["createCollectSession"]`: each operation by the `operationId` the document gives it. */
export type { components, operations, paths };
export type KeyproofClient = Client<paths>;
/** One webhook delivery: the envelope and its payload, by `entity` and `event`. */
export type WebhookEvent = components["schemas"]["WebhookEvent"];
/** What an attestation says: the session, its status and every proven key. */
export type AttestationClaims = components["schemas"]["AttestationClaims"];

/** The JWT type keyproof's attestations carry in their header. */
export const ATTESTATION_TYPE = "keyproof-attestation+jwt";
/** A test session's attestation names its issuer and audience with these after them. */
const TEST_ISSUER_SUFFIX = "/test-mode";
const TEST_AUDIENCE_SUFFIX = ":test-mode";

/**
 * A client for the API at `baseUrl` (e.g. `https://keyproof.example.com`), authenticated with a
 * project's API key: `client.POST("/api/v1/ssh/verify/sessions/", { body })`.
 */
export function createKeyproofClient(options: {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  /** Times a request keyproof answered 429 or 503 is made again (default 3; 0: never). */
  retries?: number;
}): KeyproofClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { "x-api-key": options.apiKey },
    fetch: retrying(
      options.fetch ?? ((request) => globalThis.fetch(request)),
      options.retries ?? 3,
    ),
  });
}

/** The longest `Retry-After` the client waits out itself; a longer one is the caller's to handle. */
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * `fetch` that makes a request again when keyproof answers 429 (a limit) or 503 (a database
 * away, nothing changed) with `Retry-After`, after that many seconds, up to `retries` times —
 * only where a second request cannot do twice what the first did: a read, or a write sent with an
 * `Idempotency-Key` (keyproof answers its repeat with the first answer).
 */
export function retrying(
  base: (request: Request) => Promise<Response>,
  retries: number,
): (input: Request) => Promise<Response> {
  return async (input) => {
    const request = new Request(input);
    const safe =
      request.method === "GET" ||
      request.method === "HEAD" ||
      request.headers.has("idempotency-key");
    for (let attempt = 0; ; attempt++) {
      const response = await base(request.clone());
      if (!safe || attempt >= retries || (response.status !== 429 && response.status !== 503))
        return response;
      const wait = retryAfterMs(response.headers.get("retry-after"));
      if (wait === null || wait > MAX_RETRY_WAIT_MS) return response;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}

/** A `Retry-After` (seconds, or an HTTP date) in milliseconds; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeaderSource): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined)
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
  return record;
}

/**
 * A webhook delivery, checked: its Standard Webhooks signature with the webhook's `secret`
 * (`whsec_...`) and a timestamp within 5 minutes. Throws on anything else. `body` is the raw
 * request body, as received.
 */
export function verifyWebhook(options: {
  secret: string;
  headers: HeaderSource;
  body: string;
}): WebhookEvent {
  return new Webhook(options.secret).verify(
    options.body,
    headerRecord(options.headers),
  ) as WebhookEvent;
}

/**
 * One remote key set per URL for the life of the process: `jose` keeps what it fetched and asks
 * again only for a key id it has not seen (a rotation), at most every 30 s.
 */
const remoteKeySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function remoteKeySet(url: URL) {
  let keys = remoteKeySets.get(url.href);
  if (!keys) {
    keys = createRemoteJWKSet(url);
    remoteKeySets.set(url.href, keys);
  }
  return keys;
}

/**
 * An attestation, checked offline: signed by one of keyproof's keys (`jwks`, the JSON of
 * `/.well-known/jwks.json`, or `jwksUrl` to fetch it, once per URL), for your project
 * (`audience`), from keyproof (`issuer`: by default the origin of `jwksUrl`), of keyproof's type
 * and not expired. Returns its claims; throws on anything else — a test session's attestation
 * (`livemode: false`, signed by keyproof's test key) included, unless `acceptTestMode` is true:
 * a test proof must never pass for a live one.
 */
export async function verifyAttestation(
  token: string,
  options: ({ jwks: JSONWebKeySet } | { jwksUrl: string | URL }) & {
    audience: string;
    /** keyproof's public URL; with `jwksUrl` it defaults to that URL's origin. */
    issuer?: string;
    /** Accept a test-mode attestation (from a `kp_test_` session): for CI and staging only. */
    acceptTestMode?: boolean;
  },
): Promise<AttestationClaims> {
  const remote = "jwksUrl" in options ? new URL(options.jwksUrl) : null;
  const keys = remote
    ? remoteKeySet(remote)
    : createLocalJWKSet((options as { jwks: JSONWebKeySet }).jwks);
  const issuer = options.issuer ?? remote?.origin;
  // A test attestation's issuer and audience differ from live ones: only asked for are they taken.
  const test = options.acceptTestMode === true;
  if (!test && claimsOf(token)?.livemode === false) throw testModeRefused();
  const { payload } = await jwtVerify(token, keys, {
    algorithms: ["EdDSA"],
    typ: ATTESTATION_TYPE,
    audience: test ? [options.audience, options.audience + TEST_AUDIENCE_SUFFIX] : options.audience,
    ...(issuer ? { issuer: test ? [issuer, issuer + TEST_ISSUER_SUFFIX] : issuer } : {}),
  });
  if (payload.livemode === false && !test) throw testModeRefused();
  return payload as unknown as AttestationClaims;
}

const testModeRefused = () =>
  new Error(
    "This attestation is of a test-mode session (livemode: false); pass acceptTestMode: true to accept it",
  );

/** The claims as the token says, unchecked: only to say why it is refused. */
function claimsOf(token: string): { livemode?: unknown } | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}
