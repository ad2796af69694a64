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
}): KeyproofClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { "x-api-key": options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
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
