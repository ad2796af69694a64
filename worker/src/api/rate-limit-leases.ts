import type { SpentGrant } from "../domain/rate-limit.ts";
import type { Env } from "../env.ts";
import { objectStub } from "../lib/meter.ts";

/**
 * The project-wide rate limit without a Durable Object round trip per request. Each isolate asks
 * the project's `RateLimiter` for a few hits at a time and spends them itself; a project that
 * uses an isolate's grant up quickly gets bigger grants, one that does not gets one at a time.
 * A grant lasts LEASE_MS, or QUIET_LEASE_MS while the project uses at most half its limit, and
 * the isolate tells at its next lease when it spent each hit, to the second: the limiter then
 * counts them when they were made and forgets the ones not spent (domain/rate-limit.ts).
 *
 * Exactness: the limit is never exceeded, anywhere (the Durable Object logs every grant as if it
 * were spent at the last moment it could be until it is told otherwise). A request can be refused
 * a little before the limit when another isolate holds hits it has not spent or told of yet: at
 * most one grant (up to MAX_GRANT) per isolate, for at most LEASE_MS, or QUIET_LEASE_MS for a
 * grant made while the window was at most half full. `Retry-After` comes from the Durable
 * Object's log, to the second once every isolate has told of its grants.
 */

/** How long an isolate may spend a grant. */
export const LEASE_MS = 2_000;
/** How long while the window holds at most half the limit: a project far from it asks rarely. */
export const QUIET_LEASE_MS = 30_000;
/** The largest grant, as a share of the limit. */
const MAX_GRANT_SHARE = 0.05;
/** Grants an isolate keeps to tell of; past this the oldest stay logged at their end (safe). */
const MAX_UNTOLD = 32;

interface Grant extends SpentGrant {
  left: number;
}

/** An isolate's grants for one project, and the size of the next one to ask for. */
interface ProjectGrants {
  grants: Grant[];
  /** Grants spent or ended, to tell the limiter of at the next lease. */
  untold: SpentGrant[];
  next: number;
  /** What the project had left at the last grant, for `RateLimit-Remaining`. */
  remaining: number;
}

const projects = new Map<string, ProjectGrants>();
/** Isolates hold many projects; the oldest go first past this. */
const MAX_PROJECTS = 10_000;

export interface Admission {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfter: number;
}

/** Spends one hit from the grant that runs out first; false when none is left. */
function spend(state: ProjectGrants, now: number): boolean {
  let wasted = false;
  state.grants = state.grants.filter((grant) => {
    if (grant.until > now && grant.left > 0) return true;
    if (grant.left > 0) wasted = true;
    state.untold.push({ until: grant.until, granted: grant.granted, spent: grant.spent });
    return false;
  });
  state.untold.splice(0, state.untold.length - MAX_UNTOLD);
  // Grants left unspent mean the project is slower than its grants: ask for one at a time.
  if (wasted) state.next = 1;
  const grant = state.grants[0];
  if (!grant) return false;
  grant.left -= 1;
  // When, rounded up to the second (never later than the grant's end, where it is logged now).
  const at = Math.min(grant.until, Math.ceil(now / 1000) * 1000);
  const last = grant.spent.at(-1);
  if (last?.[0] === at) last[1] += 1;
  else grant.spent.push([at, 1]);
  return true;
}

const left = (state: ProjectGrants) => state.grants.reduce((sum, grant) => sum + grant.left, 0);

export async function admit(env: Env, limiterName: string, limit: number): Promise<Admission> {
  let state = projects.get(limiterName);
  if (!state) {
    if (projects.size >= MAX_PROJECTS) projects.delete(projects.keys().next().value ?? "");
    state = { grants: [], untold: [], next: 1, remaining: limit };
    projects.set(limiterName, state);
  }
  const allowed = (current: ProjectGrants): Admission => ({
    allowed: true,
    limit,
    remaining: Math.max(0, current.remaining + left(current)),
    retryAfter: 0,
  });
  if (spend(state, Date.now())) return allowed(state);
  const size = state.next;
  const limiter = objectStub(env, env.RATE_LIMITER, limiterName);
  const untold = state.untold;
  state.untold = [];
  const grant = await limiter.lease(limit, size, LEASE_MS, QUIET_LEASE_MS, untold);
  if (grant.granted > 0) {
    state.grants.push({
      left: grant.granted,
      granted: grant.granted,
      until: grant.until,
      spent: [],
    });
    state.grants.sort((a, b) => a.until - b.until);
    state.remaining = grant.remaining;
    // This isolate spent its grants before they ran out: the next may be bigger.
    state.next = Math.min(Math.max(1, Math.floor(limit * MAX_GRANT_SHARE)), size * 2);
  }
  // Another request may have brought a grant meanwhile.
  if (spend(state, Date.now())) return allowed(state);
  return { allowed: false, limit, remaining: 0, retryAfter: Math.max(1, grant.retryAfter) };
}
