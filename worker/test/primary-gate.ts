import { setPrimaryGate } from "../src/development/d1-simulation.ts";

/**
 * Holds every call that reaches D1's primary until `release`: a primary on the far side of the
 * world, or one that answers nothing while a test looks. (A flag polled by each held call: a
 * promise made in one object's context cannot be settled from another's.) `calls` are the
 * statements held so far.
 */
export function holdPrimary() {
  const calls: string[] = [];
  const state = { held: true };
  holding = state;
  setPrimaryGate(async (statement) => {
    calls.push(statement);
    while (state.held) await new Promise((resolve) => setTimeout(resolve, 5));
  });
  return {
    calls,
    get reached() {
      return calls.length;
    },
    release: releasePrimary,
  };
}

/** The hold under way, if any. */
let holding: { held: boolean } | null = null;

/** Lets every held call go on, and holds no more (for `afterEach`). */
export function releasePrimary() {
  if (holding) holding.held = false;
  holding = null;
  setPrimaryGate(null);
}
