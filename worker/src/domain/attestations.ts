import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { calculateJwkThumbprint, importJWK, type JWK, SignJWT } from "jose";
import type { Env } from "../env.ts";
import { BASE32, randomBase32 } from "../lib/ids.ts";
import type { SessionState } from "./session-commands.ts";

/**
 * Signed attestations: a session's result as a JWT anyone can verify offline with the
 * keys at /.well-known/jwks.json. Ed25519 (`EdDSA`), from the secret ATTESTATION_KEYS, a JWK set
 * whose first key signs and whose every key is published, so keys rotate without a gap
 * (docs/attestations.md).
 */
export const ATTESTATION_TYPE = "keyproof-attestation+jwt";
export const ATTESTATION_TTL_SECONDS = 600;
/**
 * What sets a test session's attestation apart from a live one besides its key: its
 * issuer and audience, so a verifier that checks `iss` and `aud` as docs/attestations.md says
 * refuses it whatever library it uses.
 */
export const TEST_ISSUER_SUFFIX = "/test-mode";
export const TEST_AUDIENCE_SUFFIX = ":test-mode";

/** The `iss` and `aud` of an attestation of the project's live or test data. */
export function attestationAudience(
  env: Pick<Env, "PUBLIC_URL">,
  projectId: string,
  livemode: boolean,
) {
  const issuer = env.PUBLIC_URL.replace(/\/+$/, "");
  return livemode
    ? { iss: issuer, aud: projectId }
    : { iss: issuer + TEST_ISSUER_SUFFIX, aud: projectId + TEST_AUDIENCE_SUFFIX };
}

/** How long verifiers may keep the published key set. */
export const JWKS_MAX_AGE_SECONDS = 300;

const BASE64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;

/** Why ATTESTATION_KEYS cannot be used, as a sentence; null when it can (or is not set). */
export function attestationKeysProblem(text: string | undefined): string | null {
  if (text === undefined || text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'ATTESTATION_KEYS is not JSON: it must be a JWK set, {"keys": [...]}';
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0)
    return 'ATTESTATION_KEYS must be a JWK set with at least one key: {"keys": [...]}';
  for (const [index, key] of keys.entries()) {
    const jwk = key as Partial<Record<string, unknown>>;
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519")
      return `ATTESTATION_KEYS key ${index} is not an Ed25519 key (kty OKP, crv Ed25519)`;
    if (typeof jwk.x !== "string" || !BASE64URL_32_BYTES.test(jwk.x))
      return `ATTESTATION_KEYS key ${index} has no valid public part (x)`;
    if (index === 0 && (typeof jwk.d !== "string" || !BASE64URL_32_BYTES.test(jwk.d)))
      return "ATTESTATION_KEYS key 0 signs, so it needs its private part (d)";
  }
  return null;
}

interface SigningKey {
  key: CryptoKey;
  kid: string;
}

interface KeySet {
  signing: SigningKey;
  /** Signs test sessions' attestations: its own key and `kid`, never the live one. */
  testSigning: SigningKey;
  published: JWK[];
}

/** PKCS#8's wrapping of a 32-byte Ed25519 seed (RFC 8410), the one form WebCrypto imports a seed in. */
const ED25519_PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

/**
 * The test-mode signing key, derived from the live one (HKDF-SHA256 over its private part): no
 * second secret to configure, a different key and `kid`, and it rotates with ATTESTATION_KEYS.
 */
async function testKeyOf(liveJwk: JWK): Promise<{ key: CryptoKey; publicJwk: JWK }> {
  const secret = await crypto.subtle.importKey(
    "raw",
    Buffer.from(liveJwk.d ?? "", "base64url"),
    "HKDF",
    false,
    ["deriveBits"],
  );
  const seed = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new TextEncoder().encode("keyproof"),
      info: new TextEncoder().encode("test-mode attestations"),
    },
    secret,
    256,
  );
  const pkcs8 = new Uint8Array([...ED25519_PKCS8_PREFIX, ...new Uint8Array(seed)]);
  const key = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
  const { kty, crv, x } = (await crypto.subtle.exportKey("jwk", key)) as JWK;
  return { key, publicJwk: { kty, crv, x } };
}

/** Imported once per isolate and secret: importing and hashing keys is not free. */
let cached: { text: string; keys: Promise<KeySet> } | null = null;

async function importKeys(text: string): Promise<KeySet> {
  const jwks = (JSON.parse(text) as { keys: JWK[] }).keys;
  const published = await Promise.all(
    jwks.map(async ({ kty, crv, x }) => {
      const publicJwk = { kty, crv, x } as JWK;
      return {
        ...publicJwk,
        kid: await calculateJwkThumbprint(publicJwk),
        alg: "EdDSA",
        use: "sig",
      };
    }),
  );
  const [first] = jwks;
  const kid = published[0]?.kid ?? "";
  const key = (await importJWK({ ...first, alg: "EdDSA" }, "EdDSA")) as CryptoKey;
  const test = await testKeyOf(first ?? {});
  const testKid = await calculateJwkThumbprint(test.publicJwk);
  return {
    signing: { key, kid },
    testSigning: { key: test.key, kid: testKid },
    published: [...published, { ...test.publicJwk, kid: testKid, alg: "EdDSA", use: "sig" }],
  };
}

/** The key set, or null when ATTESTATION_KEYS is not set. */
function keySet(env: Pick<Env, "ATTESTATION_KEYS">): Promise<KeySet> | null {
  const text = env.ATTESTATION_KEYS;
  if (!text || attestationKeysProblem(text) !== null) return null;
  if (cached?.text !== text) cached = { text, keys: importKeys(text) };
  return cached.keys;
}

/** What /.well-known/jwks.json publishes: every key's public part, with its thumbprint as kid. */
export async function publishedKeys(env: Pick<Env, "ATTESTATION_KEYS">) {
  const keys = keySet(env);
  return { keys: keys ? (await keys).published : [] };
}

/** The claims of a session's attestation, as of `now`, named `jti` (a random one by default). */
export function attestationClaims(
  env: Pick<Env, "PUBLIC_URL">,
  state: SessionState,
  now: Date,
  jti = randomBase32(26),
) {
  const { session } = state;
  const methodOf = new Map(
    state.connections.map((connection) => [connection.id, connection.method]),
  );
  const sourceOf = new Map(state.keys.map((key) => [key.publicKeySha256, key.source]));
  const issuedAt = Math.floor(now.getTime() / 1000);
  return {
    ...attestationAudience(env, session.projectId, session.livemode),
    sub: session.id,
    iat: issuedAt,
    exp: issuedAt + ATTESTATION_TTL_SECONDS,
    jti,
    livemode: session.livemode,
    kind: session.kind,
    status: session.status,
    external_id: session.externalId,
    // In one order whoever reads the keys (the object, or D1 after it retired): see signEnding.
    keys: [...state.connectionKeys].sort(byProof).map((key) => ({
      public_key_sha256: key.publicKeySha256,
      public_key_algorithm: key.publicKeyAlgorithm,
      method: methodOf.get(key.connectionId) ?? "ssh",
      proven_at: key.createdAt,
      security_key: key.securityKey,
      certificate: key.certificate,
      source: sourceOf.get(key.publicKeySha256) ?? null,
    })),
  };
}

/** Keys in the order they were proven, ties by id. */
const byProof = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

export type AttestationClaims = ReturnType<typeof attestationClaims>;

/** The session's result, signed; null when no signing key is set (ATTESTATION_KEYS). */
export async function signAttestation(
  env: Pick<Env, "ATTESTATION_KEYS" | "PUBLIC_URL">,
  state: SessionState,
  now = new Date(),
  jti?: string,
): Promise<{ token: string; expires_at: string } | null> {
  const keys = keySet(env);
  if (!keys) return null;
  const set = await keys;
  const signing = state.session.livemode ? set.signing : set.testSigning;
  const claims = attestationClaims(env, state, now, jti);
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", kid: signing.kid, typ: ATTESTATION_TYPE })
    .sign(signing.key);
  return { token, expires_at: new Date(claims.exp * 1000).toISOString() };
}

/**
 * The attestation of a closed session's end, which the return redirect and the ending
 * webhook both carry: issued at the session's close, named after the session, and Ed25519
 * signatures are deterministic (RFC 8032), so it is the same token whoever signs it and however
 * often — the object from its copy, a delivery from D1's — and nothing needs to keep it.
 */
export function signEnding(env: Pick<Env, "ATTESTATION_KEYS" | "PUBLIC_URL">, state: SessionState) {
  const { session } = state;
  const closedAt = new Date(session.completedAt ?? session.updatedAt);
  const digest = createHash("sha256").update(`keyproof ending\0${session.id}`).digest();
  let jti = "";
  for (let i = 0; i < 26; i++) jti += BASE32[(digest[i] ?? 0) & 31];
  return signAttestation(env, state, closedAt, jti);
}
