import type { SessionAuthorityRow, SessionKeyRow } from "../db/sessions.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { PublicKeyError } from "../protocol/key-material.ts";
import { type ParsedPublicKey, parsePublicKey } from "../protocol/public-keys.ts";
import type { ProblemError } from "../schemas/common.ts";
import { LIMITS } from "../schemas/limits.ts";
import type { CertificateAuthorityInput, ConfiguredKeyInput } from "../schemas/public-keys.ts";
import type { ProjectContext } from "./context.ts";
import { keysFromForges, MAX_SKIPPED_LISTED } from "./forges.ts";

/**
 * What a verification session is given in advance: its configured keys (inline, and those its
 * `keys_from` accounts list on code forges) and the certificate authorities it trusts.
 */

/**
 * Parses a list of keys given in advance (configured keys, or CAs). Each bad or repeated one is
 * added to `errors` at its own location, e.g. `body.keys[2].public_key`.
 */
function parseKeyList<T extends { public_key: string }>(
  field: "keys" | "certificate_authorities",
  inputs: T[],
  errors: ProblemError[],
  check: (key: ParsedPublicKey) => string | null = () => null,
): { input: T; position: number; key: ParsedPublicKey }[] {
  const parsed: { input: T; position: number; key: ParsedPublicKey }[] = [];
  const seen = new Map<string, number>();
  for (const [position, input] of inputs.entries()) {
    const fail = (message: string, echo = true) =>
      errors.push({
        location: `body.${field}[${position}].public_key`,
        message,
        ...(echo ? { value: input.public_key } : {}),
      });
    let key: ParsedPublicKey;
    try {
      key = parsePublicKey(input.public_key);
    } catch (error) {
      if (!(error instanceof PublicKeyError)) throw error;
      // A private key pasted by mistake is never sent back, not even in part.
      fail(error.message, error.code !== "private_key");
      continue;
    }
    const first = seen.get(key.publicKeySha256);
    const problem = first !== undefined ? `Duplicate of ${field}[${first}]` : check(key);
    if (problem) {
      fail(problem);
      continue;
    }
    seen.set(key.publicKeySha256, position);
    parsed.push({ input, position, key });
  }
  return parsed;
}

/** A key an account on a forge lists that was not added, and why (the create answer says). */
export interface SkippedKey {
  source: string;
  public_key: string;
  reason: string;
}

/**
 * The configured keys and trusted CAs of a new verification session, or a 400 naming each bad
 * one: the keys given inline, then those the `keys_from` accounts list (each with its `source`).
 */
export async function keysGivenInAdvance(
  ctx: ProjectContext,
  input: {
    keys?: ConfiguredKeyInput[];
    keys_from?: string[] | undefined;
    certificate_authorities?: CertificateAuthorityInput[];
    require_security_key?: boolean | undefined;
  },
  now: string,
) {
  const errors: ProblemError[] = [];
  const onlySecurityKeys = (key: ParsedPublicKey) =>
    input.require_security_key && key.securityKey === null
      ? "Not a security key, and require_security_key is set: it could never be proven"
      : null;
  const keys = parseKeyList("keys", input.keys ?? [], errors, onlySecurityKeys);
  const authorities = parseKeyList(
    "certificate_authorities",
    input.certificate_authorities ?? [],
    errors,
  );
  if (errors.length > 0) {
    const detail =
      errors.length === 1 ? (errors[0]?.message ?? "") : `${errors.length} keys are invalid`;
    throw new ApiError(400, detail, errors);
  }
  const listed = input.keys_from?.length ? await keysFromForges(ctx.env, input.keys_from) : [];
  const given: {
    key: ParsedPublicKey;
    name: string | null;
    externalId: string | null;
    source: string | null;
  }[] = keys.map(({ input, key }) => ({
    key,
    name: input.name ?? null,
    externalId: input.external_id ?? null,
    source: null,
  }));
  const skipped: SkippedKey[] = [];
  const seen = new Set(given.map(({ key }) => key.publicKeySha256));
  for (const entry of listed) {
    if (!("key" in entry)) {
      skipped.push({ source: entry.source, public_key: entry.line, reason: entry.reason });
      continue;
    }
    const problem = seen.has(entry.key.publicKeySha256)
      ? "Already given"
      : onlySecurityKeys(entry.key);
    if (problem) {
      skipped.push({ source: entry.source, public_key: entry.key.publicKeySsh, reason: problem });
      continue;
    }
    seen.add(entry.key.publicKeySha256);
    given.push({ key: entry.key, name: null, externalId: null, source: entry.source });
  }
  if (given.length > LIMITS.maxKeysPerVerifySession) {
    throw badRequest(
      "body.keys_from",
      `keys and keys_from give ${given.length} keys together; a session expects at most ${LIMITS.maxKeysPerVerifySession}`,
    );
  }
  const rows = (sessionId: string) => ({
    keys: given.map(
      ({ key, name, externalId, source }, position): SessionKeyRow => ({
        id: newId("vk"),
        sessionId,
        position,
        name,
        externalId,
        source,
        ...key,
        verifiedAt: null,
        createdAt: now,
        version: 0,
      }),
    ),
    authorities: authorities.map(
      ({ input, position, key }): SessionAuthorityRow => ({
        id: newId("ca"),
        sessionId,
        position,
        name: input.name ?? null,
        ...key,
        createdAt: now,
      }),
    ),
  });
  // A list of thousands is reported as its first few and a count: answers stay small.
  return { rows, skipped: skipped.slice(0, MAX_SKIPPED_LISTED), skippedCount: skipped.length };
}
