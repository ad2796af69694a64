import { and, count, eq, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accountSshKeys, recoveryCodes, usedSignInCodes } from "../db/directory.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { badRequest, conflict } from "../lib/errors.ts";
import { newId, randomBase32 } from "../lib/ids.ts";
import { PublicKeyError } from "../protocol/key-material.ts";
import { parsePublicKey, parsePublicKeyBlob } from "../protocol/public-keys.ts";
import { parseDetachedSignature } from "../protocol/sshsig.ts";
import { readSignature } from "./signature-proofs.ts";

/**
 * Signing in by proving an SSH key, as a session's signature proof does (domain/signature-proofs.ts),
 * with a namespace of its own so that no signature made for one counts for the other. The browser
 * that asks is given a code, kept in its own HttpOnly cookie (sealed, with its expiry, and the
 * account when it is the step after a password); the page shows the `ssh-keygen -Y sign` command
 * for a message naming the service and the code, and the signature comes back pasted into that
 * same browser's form. A signature made for another browser's code therefore signs in nobody
 * here: its message is not this browser's (docs/security.md). Each code signs in once.
 */
export const SIGN_IN_NAMESPACE = "keyproof-signin";
/** How long a sign-in code may be used. */
export const SIGN_IN_CODE_SECONDS = 5 * 60;
/** Recovery codes made when an account's first SSH key is added. */
export const RECOVERY_CODE_COUNT = 10;

/** The message a sign-in code's signature is over: the service's host, then the code. */
export const signInMessage = (host: string, code: string) => `keyproof-signin:${host}:${code}`;

export const signInCommand = (message: string) =>
  `printf '%s' '${message}' | ssh-keygen -Y sign -n ${SIGN_IN_NAMESPACE} -f ~/.ssh/id_ed25519`;

export const newSignInCode = () => randomBase32(26);

/** Registers an SSH public key for the account, under the same key rules as sessions. */
export async function addSshKey(
  db: Database,
  accountId: string,
  input: { name: string; publicKey: string },
  now = new Date(),
) {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100)
    throw badRequest("body.name", "Name the key (up to 100 characters)");
  let parsed: ReturnType<typeof parsePublicKey>;
  try {
    parsed = parsePublicKey(input.publicKey);
  } catch (error) {
    if (error instanceof PublicKeyError) throw badRequest("body.public_key", error.message);
    throw error;
  }
  const [type, data] = parsed.publicKeySsh.split(" ");
  const added = await db
    .insert(accountSshKeys)
    .values({
      id: newId("ask", now.getTime()),
      accountId,
      name,
      publicKey: `${type} ${data}`,
      fingerprint: parsed.publicKeySha256,
      createdAt: now.toISOString(),
      lastUsedAt: null,
    })
    .onConflictDoNothing()
    .returning();
  const [row] = added;
  if (!row) throw conflict("This key is already registered to an account: each key signs in one");
  return row;
}

export function sshKeysOf(db: Database, accountId: string) {
  return db
    .select()
    .from(accountSshKeys)
    .where(eq(accountSshKeys.accountId, accountId))
    .orderBy(accountSshKeys.createdAt);
}

export async function hasSshKey(db: Database, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(accountSshKeys)
    .where(eq(accountSshKeys.accountId, accountId));
  return (row?.n ?? 0) > 0;
}

export async function removeSshKey(db: Database, accountId: string, keyId: string) {
  const removed = await db
    .delete(accountSshKeys)
    .where(and(eq(accountSshKeys.accountId, accountId), eq(accountSshKeys.id, keyId)))
    .returning();
  return removed[0] ?? null;
}

/**
 * The fingerprint of the key a pasted signature names, before anything is checked: what its
 * failures are counted under (each key its own limit); null for text that names no key.
 */
export function claimedKey(armored: string): string | null {
  try {
    return parsePublicKeyBlob(parseDetachedSignature(armored).publicKey).publicKeySha256;
  } catch {
    return null;
  }
}

/** What a pasted signature proves: the account whose key made it, or why it proves nothing. */
export type SignInProof =
  | { ok: true; accountId: string; keyId: string; fingerprint: string }
  | { ok: false; problem: string; fingerprint: string | null };

/**
 * Checks `armored` against this browser's `message`: a signature in the sign-in namespace over
 * exactly that message, by a plain key (not a certificate) registered to an account — to
 * `onlyAccount` when the code is the step after that account's password — and marks the code
 * used; a code used once proves nothing again.
 */
export async function proveSignIn(
  db: Database,
  armored: string,
  message: string,
  code: string,
  onlyAccount: string | null,
  now = new Date(),
): Promise<SignInProof> {
  const read = readSignature(armored, message, SIGN_IN_NAMESPACE);
  if ("problem" in read) return { ok: false, problem: read.problem, fingerprint: null };
  const key = parsePublicKeyBlob(read.key);
  const fingerprint = key.publicKeySha256;
  if (key.certificate)
    return { ok: false, problem: "Sign in with the key itself, not a certificate.", fingerprint };
  const [registered] = await db
    .select()
    .from(accountSshKeys)
    .where(eq(accountSshKeys.fingerprint, fingerprint))
    .limit(1);
  if (!registered || (onlyAccount !== null && registered.accountId !== onlyAccount))
    return {
      ok: false,
      problem: `The key ${fingerprint} is not registered to ${onlyAccount ? "this account" : "an account"}.`,
      fingerprint,
    };
  if (!(await spendSignInCode(db, code, now)))
    return {
      ok: false,
      problem: "This sign-in code was used already: start again for a new one.",
      fingerprint,
    };
  await db
    .update(accountSshKeys)
    .set({ lastUsedAt: now.toISOString() })
    .where(eq(accountSshKeys.id, registered.id));
  return { ok: true, accountId: registered.accountId, keyId: registered.id, fingerprint };
}

/**
 * Marks a sign-in code (or a passkey registration's challenge) used: true the first time, false
 * ever after. A code is one browser's, for one sign-in by whichever way proves it.
 */
export async function spendSignInCode(db: Database, code: string, now = new Date()) {
  const fresh = await db
    .insert(usedSignInCodes)
    .values({ codeHash: await sha256Hex(code), usedAt: now.toISOString() })
    .onConflictDoNothing()
    .returning();
  return fresh.length > 0;
}

/** A recovery code as shown: four groups of four base32 characters. */
const newRecoveryCode = () => randomBase32(16).match(/.{4}/g)?.join("-") ?? "";

const normalCode = (code: string) => code.toLowerCase().replace(/[^0-9a-z]/g, "");

/** Makes the account's recovery codes (replacing any): shown once, kept as SHA-256 only. */
export async function createRecoveryCodes(db: Database, accountId: string, now = new Date()) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = await Promise.all(
    codes.map(async (code) => ({
      accountId,
      codeHash: await sha256Hex(normalCode(code)),
      createdAt: now.toISOString(),
      usedAt: null,
    })),
  );
  await db.batch([
    db.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId)),
    db.insert(recoveryCodes).values(rows),
  ]);
  return codes;
}

export async function hasRecoveryCodes(db: Database, accountId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.accountId, accountId));
  return (row?.n ?? 0) > 0;
}

/** Uses one of the account's recovery codes: true once, false for any other or a used one. */
export async function useRecoveryCode(
  db: Database,
  accountId: string,
  code: string,
  now = new Date(),
) {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now.toISOString() })
    .where(
      and(
        eq(recoveryCodes.accountId, accountId),
        eq(recoveryCodes.codeHash, await sha256Hex(normalCode(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning();
  return used.length > 0;
}

/** The cron's share: used sign-in codes past any code's life (a day after their use). */
export function usedSignInCodesPastTheirTime(db: Database, now = new Date()) {
  const before = new Date(now.getTime() - 86_400_000).toISOString();
  return db
    .delete(usedSignInCodes)
    .where(lt(usedSignInCodes.usedAt, before))
    .returning({ codeHash: usedSignInCodes.codeHash });
}
