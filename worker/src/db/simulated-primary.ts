import type { Env } from "../env.ts";
import { meterD1, metering, meterQueries, setD1Metering } from "../lib/meter.ts";
import { asIndexError, IndexUnavailableError } from "../lib/unavailable.ts";

/**
 * SIMULATED_D1_PRIMARY_MS (development only): the D1 binding made to behave as if its primary
 * were that far away, so a production latency model is measured rather than estimated
 * (bench/geo.ts). Every call that reaches the primary waits first: writes, reads outside a
 * Sessions API replica read, and the first query of a `first-primary` session. Replica reads do
 * not wait: locally the replica is beside the caller. It wraps the binding itself, in index.ts
 * and in each Durable Object, so no code path can go round it.
 */

/**
 * What decides when a call that reached the primary may go on: by default, the delay (and with
 * SIMULATED_D1_QUERY_MS, the primary's own time for its `statements`).
 */
export type PrimaryGate = (sql: string, statements?: number) => Promise<void>;

/** Every call that reached the primary while the simulation is on, for tests to count. */
export const primaryCalls: string[] = [];
/**
 * Every distinct statement prepared while recording is on, with the database it was prepared on:
 * the query-plan test reads them (worker/test/query-plans.test.ts).
 */
export const statementsPrepared = new Map<string, string>();
let recordingStatements = false;
/** Distinct statements kept at most: a bound, should something make statements without end. */
const STATEMENTS_KEPT = 5000;

/** Tests start (and clear) or stop the recording of statements. */
export function recordStatements(on: boolean) {
  recordingStatements = on;
  if (on) statementsPrepared.clear();
}
/** What each Sessions API session was opened with (a constraint or a bookmark), for tests. */
export const sessionsOpened: string[] = [];
/** The logs keep their newest entries only: a long local run must not grow without end. */
const LOG_LENGTH = 1000;

function record(log: string[], entry: string) {
  log.push(entry);
  if (log.length > LOG_LENGTH) log.splice(0, log.length - LOG_LENGTH);
}
let gateOverride: PrimaryGate | null = null;
/** Set by tests: the databases (binding names) every call to which fails as if unreachable. */
const away = new Set<string>();
/** Every D1 database: what `setD1Outage(true)` takes away when it names none. */
const EVERY_DATABASE = "*";

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

/**
 * Runs one D1 call on `binding`: refused at once during a simulated outage, and any failure that
 * is D1 being away rather than the query being wrong becomes an IndexUnavailableError (a 503,
 * never a 500).
 */
async function guard<T>(binding: string, call: () => Promise<T>): Promise<T> {
  if (away.has(EVERY_DATABASE) || away.has(binding))
    throw new IndexUnavailableError(new Error("D1_ERROR: Network connection lost."));
  try {
    return await call();
  } catch (error) {
    throw asIndexError(error);
  }
}

/** No delay, no gate: the binding as it is, its failures classified (production). */
const openGate: PrimaryGate = async () => undefined;

/** Tests hold the primary (an outage, a slow region) by putting their own gate in front of it. */
export function setPrimaryGate(gate: PrimaryGate | null) {
  gateOverride = gate;
}

const READ = /^\s*(select|with)\b/i;
const isWrite = (sql: string) => !READ.test(sql);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When each database's simulated primary is free again (SIMULATED_D1_QUERY_MS). */
const primaryFreeAt = new Map<string, number>();

/**
 * SIMULATED_D1_QUERY_MS (development only): a database's primary as D1's limits page describes
 * it — one query at a time, each taking that long ("an average query of 1 ms: about 1,000
 * queries a second", https://developers.cloudflare.com/d1/platform/limits/) — so that a burst
 * queues at the primary as it would in production, and what a proof costs it is counted where it
 * binds. Locally every Worker and object of the script shares one isolate, so one queue per
 * database here is the database's.
 */
async function takeTurn(binding: string, queryMs: number, statements: number) {
  const now = performance.now();
  const start = Math.max(now, primaryFreeAt.get(binding) ?? 0);
  const done = start + queryMs * statements;
  primaryFreeAt.set(binding, done);
  await sleep(done - now);
}

/** A query's time set at run time (`PUT /__dev/primary`, bench/history.ts), over the setting's. */
let queryMsNow: number | null = null;

/** Development only: every primary's query takes `ms` from now on (null: the setting's again). */
export function setSimulatedQueryMs(ms: number | null) {
  queryMsNow = ms;
}

function primaryGate(binding: string, delayMs: number, queryMs: number): PrimaryGate {
  return async (sql, statements = 1) => {
    record(primaryCalls, sql);
    if (gateOverride) return gateOverride(sql);
    if (delayMs > 0) await sleep(delayMs);
    const ms = queryMsNow ?? queryMs;
    if (ms > 0) await takeTurn(binding, ms, statements);
  };
}

type Statement = D1PreparedStatement & { readonly sql: string };

/** A prepared statement whose runs pass `gate` first when `reachesPrimary(sql)` says so. */
function gatedStatement(
  binding: string,
  statement: D1PreparedStatement,
  sql: string,
  reachesPrimary: (sql: string) => boolean,
  gate: PrimaryGate,
): Statement {
  if (recordingStatements && statementsPrepared.size < STATEMENTS_KEPT)
    statementsPrepared.set(sql, binding);
  const wait = () => {
    const primary = reachesPrimary(sql);
    meterQueries(binding, [sql], primary);
    return primary ? gate(sql) : Promise.resolve();
  };
  const write = isWrite(sql);
  const gated = {
    sql,
    bind: (...values: unknown[]) =>
      gatedStatement(binding, statement.bind(...values), sql, reachesPrimary, gate),
    // Through all(): first() reports no meta, and the meters need it.
    first: (column?: string) =>
      guard(binding, async () => {
        await wait();
        const result = await statement.all<Record<string, unknown>>();
        meterD1(binding, [result], [sql], write);
        const row = result.results[0] ?? null;
        return column === undefined ? row : (row?.[column] ?? null);
      }),
    run: () =>
      guard(binding, async () => {
        await wait();
        const result = await statement.run();
        meterD1(binding, [result], [sql], write);
        return result;
      }),
    all: () =>
      guard(binding, async () => {
        await wait();
        const result = await statement.all();
        meterD1(binding, [result], [sql], write);
        return result;
      }),
    raw: (options?: { columnNames?: boolean }) =>
      guard(binding, async () => {
        await wait();
        // A write through raw() (drizzle's `.returning()` outside a batch: a webhook's lease) goes
        // through all(), whose meta says the rows it wrote; its RETURNING names one table's
        // columns, each once, so each row's values in column order are the row raw() returns.
        if (write && !options?.columnNames) {
          const result = await statement.all<Record<string, unknown>>();
          meterD1(binding, [result], [sql], write);
          return result.results.map((row) => Object.values(row));
        }
        const rows = options?.columnNames
          ? await statement.raw({ columnNames: true })
          : await statement.raw();
        // raw() reports no meta: the rows it returned are counted as read, a floor.
        meterD1(
          binding,
          [{ meta: { rows_read: rows.length, rows_written: 0 } as D1Meta }],
          [sql],
          write,
        );
        return rows;
      }),
    // D1's own batch() needs its own statements back.
    unwrap: () => statement,
  };
  return gated as unknown as Statement;
}

const unwrap = (statements: D1PreparedStatement[]) =>
  statements.map((statement) =>
    "unwrap" in statement ? (statement as { unwrap(): D1PreparedStatement }).unwrap() : statement,
  );

/** A Sessions API session: reads go to a replica, writes and `first-primary`'s first query do not. */
function gatedSession(
  binding: string,
  session: D1DatabaseSession,
  constraint: string | undefined,
  gate: PrimaryGate,
): D1DatabaseSession {
  let first = constraint === "first-primary";
  const reachesPrimary = (sql: string) => {
    const primary = first || isWrite(sql);
    first = false;
    return primary;
  };
  return {
    prepare: (sql: string) =>
      gatedStatement(binding, session.prepare(sql), sql, reachesPrimary, gate),
    batch: (statements: D1PreparedStatement[]) =>
      guard(binding, async () => {
        const sqls = statements.map((statement) => (statement as Statement).sql ?? "");
        const primary = sqls.some(reachesPrimary);
        meterQueries(binding, sqls, primary);
        if (primary) await gate(sqls.join(";\n"), sqls.length);
        const started = performance.now();
        const results = await session.batch(unwrap(statements));
        meterD1(binding, results, sqls, sqls.some(isWrite), performance.now() - started);
        return results;
      }),
    getBookmark: () => session.getBookmark(),
  } as unknown as D1DatabaseSession;
}

/** The binding `binding` with every call to the primary behind `gate`. */
export function gatedDatabase(binding: string, d1: D1Database, gate: PrimaryGate): D1Database {
  return {
    prepare: (sql: string) => gatedStatement(binding, d1.prepare(sql), sql, () => true, gate),
    batch: (statements: D1PreparedStatement[]) =>
      guard(binding, async () => {
        const sqls = statements.map((statement) => (statement as Statement).sql ?? "");
        meterQueries(binding, sqls, true);
        await gate(sqls.join(";\n"), sqls.length);
        const started = performance.now();
        const results = await d1.batch(unwrap(statements));
        meterD1(binding, results, sqls, sqls.some(isWrite), performance.now() - started);
        return results;
      }),
    exec: (sql: string) =>
      guard(binding, async () => {
        await gate(sql);
        return d1.exec(sql);
      }),
    withSession: (constraintOrBookmark?: string) => {
      record(sessionsOpened, constraintOrBookmark ?? "first-unconstrained");
      return gatedSession(
        binding,
        d1.withSession(constraintOrBookmark),
        constraintOrBookmark,
        gate,
      );
    },
    dump: () => d1.dump(),
  } as unknown as D1Database;
}

const wrappedEnvs = new WeakMap<Env, Env>();

/** Whether `value` is a D1 binding: the directory and every index shard. */
const isD1 = (value: unknown): value is D1Database =>
  typeof value === "object" &&
  value !== null &&
  "withSession" in value &&
  "prepare" in value &&
  "batch" in value;

/**
 * The environment as the Worker and its objects see it: every D1 binding's failures classified
 * (D1 away is a 503, lib/unavailable.ts); with SIMULATED_D1_PRIMARY_MS or SIMULATED_D1_QUERY_MS
 * set, every call to a primary gated.
 */
export function withD1(env: Env): Env {
  let wrapped = wrappedEnvs.get(env);
  if (!wrapped) {
    setD1Metering(metering(env));
    const delay = env.SIMULATED_D1_PRIMARY_MS;
    const queryMs = Number(env.SIMULATED_D1_QUERY_MS) || 0;
    const simulated = (delay !== undefined && delay !== "") || queryMs > 0;
    const gate = (name: string) =>
      simulated ? primaryGate(name, Number(delay) || 0, queryMs) : openGate;
    const gated = Object.entries(env).flatMap(([name, value]) =>
      isD1(value) ? [[name, gatedDatabase(name, value, gate(name))]] : [],
    );
    wrapped = { ...env, ...Object.fromEntries(gated) } as Env;
    wrappedEnvs.set(env, wrapped);
  }
  return wrapped;
}
