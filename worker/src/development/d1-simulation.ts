import type { Env } from "../env.ts";
import { IndexUnavailableError } from "../lib/unavailable.ts";

/**
 * Development and tests only: D1 made to behave as production's would, or to fail, so what
 * production does is measured and tested, not estimated. Production configuration refuses its
 * settings (config.ts); the D1 binding's wrapper (db/d1-calls.ts) asks `d1Simulation` once per
 * environment and, in production, gets nothing.
 *
 * SIMULATED_D1_PRIMARY_MS: every call that reaches a primary waits that long first, as if the
 * primary were that far away (bench/geo.ts): writes, reads outside a Sessions API replica read,
 * and the first query of a `first-primary` session. Replica reads do not wait: locally the replica
 * is beside the caller.
 * SIMULATED_D1_QUERY_MS: a database's primary as D1's limits page describes it — one query at a
 * time, each taking that long ("an average query of 1 ms: about 1,000 queries a second",
 * https://developers.cloudflare.com/d1/platform/limits/) — so a burst queues at the primary as it
 * would in production, and what a proof costs it is counted where it binds. Locally every Worker
 * and object of the script shares one isolate, so one queue per database here is the database's.
 */

/** What decides when a call that reached a primary may go on. */
export type PrimaryGate = (sql: string, statements?: number) => Promise<void>;

/** What the wrapper of a D1 binding asks of the simulation at each call. */
export interface D1Simulation {
  /** Throws while the binding is away (a simulated outage), before anything is sent. */
  refuseIfAway(binding: string): void;
  /** Waits before a call that reached `binding`'s primary. */
  primary(binding: string): PrimaryGate;
  /** A statement was prepared (the query-plan test reads them). */
  prepared(binding: string, sql: string): void;
  /** A Sessions API session was opened with this constraint or bookmark. */
  sessionOpened(constraint: string): void;
}

/** Every call that reached a primary while the simulation is on, for tests to count. */
export const primaryCalls: string[] = [];
/**
 * Every distinct statement prepared while recording is on, with the database it was prepared on:
 * the query-plan test reads them (worker/test/query-plans.test.ts).
 */
export const statementsPrepared = new Map<string, string>();
/** What each Sessions API session was opened with (a constraint or a bookmark), for tests. */
export const sessionsOpened: string[] = [];

/** The logs keep their newest entries only: a long local run must not grow without end. */
const LOG_LENGTH = 1000;
/** Distinct statements kept at most: a bound, should something make statements without end. */
const STATEMENTS_KEPT = 5000;
/** Every D1 database: what `setD1Outage(true)` takes away when it names none. */
const EVERY_DATABASE = "*";

let recordingStatements = false;
let gateOverride: PrimaryGate | null = null;
/** The databases (binding names) every call to which fails as if unreachable. */
const away = new Set<string>();
/** When each database's simulated primary is free again (SIMULATED_D1_QUERY_MS). */
const primaryFreeAt = new Map<string, number>();
/** A query's time set at run time (`PUT /__dev/primary`, bench/history.ts), over the setting's. */
let queryMsNow: number | null = null;

function record(log: string[], entry: string) {
  log.push(entry);
  if (log.length > LOG_LENGTH) log.splice(0, log.length - LOG_LENGTH);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tests start (and clear) or stop the recording of statements. */
export function recordStatements(on: boolean) {
  recordingStatements = on;
  if (on) statementsPrepared.clear();
}

/**
 * Tests take D1 away (every call, replicas too, fails) and bring it back: every database, or
 * only those named (`["INDEX_1"]`: one shard away, the others answering).
 */
export function setD1Outage(down: boolean, databases: string[] = [EVERY_DATABASE]) {
  for (const name of databases) {
    if (down) away.add(name);
    else away.delete(name);
  }
  if (!down && databases[0] === EVERY_DATABASE) away.clear();
}

/** Tests hold the primary (an outage, a slow region) by putting their own gate in front of it. */
export function setPrimaryGate(gate: PrimaryGate | null) {
  gateOverride = gate;
}

/** Every primary's query takes `ms` from now on (null: the setting's again). */
export function setSimulatedQueryMs(ms: number | null) {
  queryMsNow = ms;
}

async function takeTurn(binding: string, queryMs: number, statements: number) {
  const now = performance.now();
  const start = Math.max(now, primaryFreeAt.get(binding) ?? 0);
  const done = start + queryMs * statements;
  primaryFreeAt.set(binding, done);
  await sleep(done - now);
}

/** The simulation `env` asks for, or null (production, or a development run without it). */
export function d1Simulation(
  env: Pick<Env, "SIMULATED_D1_PRIMARY_MS" | "SIMULATED_D1_QUERY_MS">,
): D1Simulation | null {
  const delay = env.SIMULATED_D1_PRIMARY_MS;
  const queryMs = Number(env.SIMULATED_D1_QUERY_MS) || 0;
  if ((delay === undefined || delay === "") && queryMs === 0) return null;
  const delayMs = Number(delay) || 0;
  return {
    refuseIfAway(binding) {
      if (away.has(EVERY_DATABASE) || away.has(binding))
        throw new IndexUnavailableError(new Error("D1_ERROR: Network connection lost."));
    },
    primary:
      (binding) =>
      async (sql, statements = 1) => {
        record(primaryCalls, sql);
        if (gateOverride) return gateOverride(sql);
        if (delayMs > 0) await sleep(delayMs);
        const ms = queryMsNow ?? queryMs;
        if (ms > 0) await takeTurn(binding, ms, statements);
      },
    prepared(binding, sql) {
      if (recordingStatements && statementsPrepared.size < STATEMENTS_KEPT)
        statementsPrepared.set(sql, binding);
    },
    sessionOpened(constraint) {
      record(sessionsOpened, constraint);
    },
  };
}
