import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { and, count, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accountPasskeys } from "../db/directory.ts";
import { badRequest, conflict } from "../lib/errors.ts";
import { newId, randomBase32 } from "../lib/ids.ts";
import { hasSshKey, spendSignInCode } from "./ssh-sign-in.ts";

/**
 * Passkeys (WebAuthn), with SimpleWebAuthn doing the protocol's parsing and checks. The relying
 * party is the origin the browser is at: its host is the RP ID a passkey is bound to, so a
 * passkey made here answers no other site's challenge (the browser refuses) and an answer made
 * for another origin is refused here. Every challenge is good once and for a few minutes: a
 * sign-in's is the browser's sign-in code (the one an SSH key would sign, domain/ssh-sign-in.ts);
 * a registration's is kept, sealed, in the browser that asked (web/routes/passkeys.tsx).
 */
export interface RelyingParty {
  /** The host the passkey is bound to (the origin's hostname). */
  id: string;
  origin: string;
}

export const relyingPartyOf = (url: string): RelyingParty => {
  const { hostname, origin } = new URL(url);
  return { id: hostname, origin };
};

/** A sign-in code as a WebAuthn challenge: its bytes, base64url-encoded, as the browser echoes it. */
export const challengeOf = (code: string) => isoBase64URL.fromUTF8String(code);

export const newRegistrationChallenge = () => randomBase32(26);

export function passkeysOf(db: Database, accountId: string) {
  return db
    .select()
    .from(accountPasskeys)
    .where(eq(accountPasskeys.accountId, accountId))
    .orderBy(accountPasskeys.createdAt);
}

export async function hasPasskey(db: Database, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(accountPasskeys)
    .where(eq(accountPasskeys.accountId, accountId));
  return (row?.n ?? 0) > 0;
}

/** A passkey or an SSH key: what a password needs beside it, and what owners may require. */
export async function hasSecondFactor(db: Database, accountId: string): Promise<boolean> {
  const [passkey, sshKey] = await Promise.all([
    hasPasskey(db, accountId),
    hasSshKey(db, accountId),
  ]);
  return passkey || sshKey;
}

/** What the browser's `navigator.credentials.create` is asked for: a discoverable passkey. */
export async function registrationOptions(
  db: Database,
  rp: RelyingParty,
  account: { id: string; email: string },
  challenge: string,
) {
  const existing = await passkeysOf(db, account.id);
  return generateRegistrationOptions({
    rpName: "keyproof",
    rpID: rp.id,
    userName: account.email,
    userID: Uint8Array.from(new TextEncoder().encode(account.id)),
    challenge,
    attestationType: "none",
    // Discoverable, so that it signs in with no email typed; one per authenticator.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    excludeCredentials: existing.map((key) => ({
      id: key.credentialId,
      transports: key.transports,
    })),
  });
}

/** The browser's JSON is parsed only as far as an object; SimpleWebAuthn checks the rest. */
function parseResponse<T>(json: string): T {
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string")
      return value as T;
  } catch {}
  throw badRequest("body", "The passkey's answer is missing or not WebAuthn's JSON");
}

/** Registers the passkey the browser created for `challenge` (already checked as unused). */
export async function addPasskey(
  db: Database,
  rp: RelyingParty,
  accountId: string,
  input: { name: string; response: string; challenge: string },
  now = new Date(),
) {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100)
    throw badRequest("body.name", "Name the passkey (up to 100 characters)");
  const response = parseResponse<RegistrationResponseJSON>(input.response);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: isoBase64URL.fromUTF8String(input.challenge),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw badRequest("body", `The passkey was not added: ${(error as Error).message}`);
  }
  if (!verified.verified) throw badRequest("body", "The passkey was not added");
  const { credential, credentialBackedUp } = verified.registrationInfo;
  const [row] = await db
    .insert(accountPasskeys)
    .values({
      id: newId("apk", now.getTime()),
      accountId,
      name,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
      createdAt: now.toISOString(),
      lastUsedAt: null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict("This passkey is already registered");
  return row;
}

export async function removePasskey(db: Database, accountId: string, passkeyId: string) {
  const removed = await db
    .delete(accountPasskeys)
    .where(and(eq(accountPasskeys.accountId, accountId), eq(accountPasskeys.id, passkeyId)))
    .returning();
  return removed[0] ?? null;
}

/**
 * What `navigator.credentials.get` is asked for: any passkey of this site (discoverable), or on
 * the step after a password only that account's.
 */
export async function signInOptions(
  db: Database,
  rp: RelyingParty,
  code: string,
  onlyAccount: string | null,
) {
  const allowed = onlyAccount ? await passkeysOf(db, onlyAccount) : [];
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: code,
    userVerification: "preferred",
    allowCredentials: allowed.map((key) => ({ id: key.credentialId, transports: key.transports })),
  });
}

/** The credential id an answer names, before anything is checked: what failures count under. */
export function claimedPasskey(json: string): string | null {
  try {
    const id = parseResponse<AuthenticationResponseJSON>(json).id;
    return /^[A-Za-z0-9_-]{1,1400}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

export type PasskeyProof =
  | { ok: true; accountId: string; passkeyId: string; name: string }
  /** `accountId`: the account of the registered passkey the answer named, whose log it goes to. */
  | { ok: false; problem: string; accountId?: string };

/**
 * Checks a sign-in answer against this browser's `code`: made by a registered passkey (of
 * `onlyAccount`, on the step after its password) for this origin and this code, with a counter
 * that moved on (a cloned authenticator's does not); then the code is spent.
 */
export async function provePasskey(
  db: Database,
  rp: RelyingParty,
  json: string,
  code: string,
  onlyAccount: string | null,
  now = new Date(),
): Promise<PasskeyProof> {
  let response: AuthenticationResponseJSON;
  try {
    response = parseResponse<AuthenticationResponseJSON>(json);
  } catch {
    return { ok: false, problem: "The passkey's answer is missing or not WebAuthn's JSON." };
  }
  const [registered] = await db
    .select()
    .from(accountPasskeys)
    .where(eq(accountPasskeys.credentialId, response.id))
    .limit(1);
  if (!registered || (onlyAccount !== null && registered.accountId !== onlyAccount))
    return {
      ok: false,
      problem: `That passkey is not registered to ${onlyAccount ? "this account" : "an account"}.`,
    };
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeOf(code),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: registered.credentialId,
        publicKey: isoBase64URL.toBuffer(registered.publicKey),
        counter: registered.counter,
        transports: registered.transports as never,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    return {
      ok: false,
      problem: `The passkey did not sign in: ${(error as Error).message}`,
      accountId: registered.accountId,
    };
  }
  if (!verified.verified)
    return { ok: false, problem: "The passkey did not sign in.", accountId: registered.accountId };
  if (!(await spendSignInCode(db, code, now)))
    return {
      ok: false,
      problem: "This sign-in code was used already: start again for a new one.",
      accountId: registered.accountId,
    };
  await db
    .update(accountPasskeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: now.toISOString() })
    .where(eq(accountPasskeys.id, registered.id));
  return {
    ok: true,
    accountId: registered.accountId,
    passkeyId: registered.id,
    name: registered.name,
  };
}
