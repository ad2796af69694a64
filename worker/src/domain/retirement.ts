/**
 * A closed session's object keeps it this long after it closed, then deletes its own storage
 * (`deleteAll`): the index, D1's primary, has all of it by then, and a later call about it reads
 * it back from there. Longer than a read replica's lag (a GET never shows an older state than one
 * answered), the bridge's connection lifetime (a late report gets its sentence) and the continue
 * step's window (its single use is remembered while it can be used). (A module of its own, with
 * nothing to import: the benchmarks read it in Node.)
 */
export const RETIRE_AFTER_MS = 15 * 60_000;
/** Graces past its retirement time a closed session's object may wait for an alarm already set. */
export const RETIREMENT_MAY_WAIT = 3;
