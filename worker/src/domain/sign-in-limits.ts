import type { Env } from "../env.ts";
import { objectStub } from "../lib/meter.ts";
import { normalizeEmail } from "./accounts.ts";

/**
 * Wrong passwords allowed per minute. Only failures count, so the owner of an account can always
 * sign in from their own address while someone else guesses from another; only a guesser spread
 * over many addresses can lock an account (for a minute), the price of stopping them at all.
 */
export const SIGN_IN_FAILURES_PER_MINUTE = {
  /** For one account from one address. */
  accountAndAddress: 10,
  /** From one address, whatever the accounts. */
  address: 30,
  /** For one account, from every address together. */
  account: 100,
} as const;

/** Accounts created per client address: without email confirmation, sign-up tells who exists. */
export const SIGN_UPS_PER_ADDRESS = { limit: 5, windowMs: 10 * 60_000 } as const;

const limiter = (env: Env, name: string) => objectStub(env, env.RATE_LIMITER, name);

function failureCounters(env: Env, email: string, address: string) {
  const account = normalizeEmail(email);
  return [
    [limiter(env, `signin-failures:pair:${account}\n${address}`), "accountAndAddress"],
    [limiter(env, `signin-failures:address:${address}`), "address"],
    [limiter(env, `signin-failures:account:${account}`), "account"],
  ] as const;
}

/** Seconds to wait before this address may try this account again, or null when it may now. */
export async function signInBlocked(
  env: Env,
  email: string,
  address: string,
): Promise<number | null> {
  const decisions = await Promise.all(
    failureCounters(env, email, address).map(([counter, limit]) =>
      counter.check(SIGN_IN_FAILURES_PER_MINUTE[limit]),
    ),
  );
  const blocked = decisions.filter((decision) => !decision.allowed);
  return blocked.length > 0 ? Math.max(...blocked.map((decision) => decision.retryAfter)) : null;
}

export async function recordSignInFailure(env: Env, email: string, address: string) {
  await Promise.all(failureCounters(env, email, address).map(([counter]) => counter.record()));
}

/** Counts a sign-up attempt from this address; false when it is over the limit. */
export async function signUpAllowed(env: Env, address: string): Promise<boolean> {
  const decision = await limiter(env, `signups:address:${address}`).consume(
    SIGN_UPS_PER_ADDRESS.limit,
    SIGN_UPS_PER_ADDRESS.windowMs,
  );
  return decision.allowed;
}
