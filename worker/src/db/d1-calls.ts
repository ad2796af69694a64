import { type D1Simulation, d1Simulation } from "../development/d1-simulation.ts";
import type { Env } from "../env.ts";
import { meterD1, metering, meterQueries, setD1Metering } from "../lib/meter.ts";
import { asIndexError } from "../lib/unavailable.ts";

/**
 * Every D1 binding as the Worker and its objects see it: each call's failure that is D1 being
 * away rather than the query being wrong becomes an IndexUnavailableError (a 503, never a 500),
 * and what each call costs is metered when METERING is on. It wraps the bindings themselves, in
 * index.ts and in each Durable Object, so no code path goes round it. In development it is also
 * where D1's simulation (development/d1-simulation.ts) stands in front of every call.
 */

/** Waits before a call that reached a primary: nothing, unless the simulation is on. */
type PrimaryGate = (sql: string, statements?: number) => Promise<void>;
const openGate: PrimaryGate = async () => undefined;

const READ = /^\s*(select|with)\b/i;
const isWrite = (sql: string) => !READ.test(sql);

/** Runs one D1 call on `binding`, its failure classified; refused at once while simulated away. */
async function guard<T>(
  simulation: D1Simulation | null,
  binding: string,
  call: () => Promise<T>,
): Promise<T> {
  simulation?.refuseIfAway(binding);
  try {
    return await call();
  } catch (error) {
    throw asIndexError(error);
  }
}

type Statement = D1PreparedStatement & { readonly sql: string };

/** A prepared statement whose runs pass `gate` first when `reachesPrimary(sql)` says so. */
function gatedStatement(
  binding: string,
  statement: D1PreparedStatement,
  sql: string,
  reachesPrimary: (sql: string) => boolean,
  simulation: D1Simulation | null,
): Statement {
  simulation?.prepared(binding, sql);
  const gate = simulation?.primary(binding) ?? openGate;
  const wait = () => {
    const primary = reachesPrimary(sql);
    meterQueries(binding, [sql], primary);
    return primary ? gate(sql) : Promise.resolve();
  };
  const write = isWrite(sql);
  const gated = {
    sql,
    bind: (...values: unknown[]) =>
      gatedStatement(binding, statement.bind(...values), sql, reachesPrimary, simulation),
    // Through all(): first() reports no meta, and the meters need it.
    first: (column?: string) =>
      guard(simulation, binding, async () => {
        await wait();
        const result = await statement.all<Record<string, unknown>>();
        meterD1(binding, [result], [sql], write);
        const row = result.results[0] ?? null;
        return column === undefined ? row : (row?.[column] ?? null);
      }),
    run: () =>
      guard(simulation, binding, async () => {
        await wait();
        const result = await statement.run();
        meterD1(binding, [result], [sql], write);
        return result;
      }),
    all: () =>
      guard(simulation, binding, async () => {
        await wait();
        const result = await statement.all();
        meterD1(binding, [result], [sql], write);
        return result;
      }),
    raw: (options?: { columnNames?: boolean }) =>
      guard(simulation, binding, async () => {
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
  simulation: D1Simulation | null,
): D1DatabaseSession {
  const gate = simulation?.primary(binding) ?? openGate;
  let first = constraint === "first-primary";
  const reachesPrimary = (sql: string) => {
    const primary = first || isWrite(sql);
    first = false;
    return primary;
  };
  return {
    prepare: (sql: string) =>
      gatedStatement(binding, session.prepare(sql), sql, reachesPrimary, simulation),
    batch: (statements: D1PreparedStatement[]) =>
      guard(simulation, binding, async () => {
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

/** The binding `binding` with every call guarded, metered and, in development, simulated. */
function gatedDatabase(
  binding: string,
  d1: D1Database,
  simulation: D1Simulation | null,
): D1Database {
  const gate = simulation?.primary(binding) ?? openGate;
  return {
    prepare: (sql: string) => gatedStatement(binding, d1.prepare(sql), sql, () => true, simulation),
    batch: (statements: D1PreparedStatement[]) =>
      guard(simulation, binding, async () => {
        const sqls = statements.map((statement) => (statement as Statement).sql ?? "");
        meterQueries(binding, sqls, true);
        await gate(sqls.join(";\n"), sqls.length);
        const started = performance.now();
        const results = await d1.batch(unwrap(statements));
        meterD1(binding, results, sqls, sqls.some(isWrite), performance.now() - started);
        return results;
      }),
    exec: (sql: string) =>
      guard(simulation, binding, async () => {
        await gate(sql);
        return d1.exec(sql);
      }),
    withSession: (constraintOrBookmark?: string) => {
      simulation?.sessionOpened(constraintOrBookmark ?? "first-unconstrained");
      return gatedSession(
        binding,
        d1.withSession(constraintOrBookmark),
        constraintOrBookmark,
        simulation,
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

/** The environment as the Worker and its objects see it: every D1 binding wrapped. */
export function withD1(env: Env): Env {
  let wrapped = wrappedEnvs.get(env);
  if (!wrapped) {
    setD1Metering(metering(env));
    const simulation = d1Simulation(env);
    const gated = Object.entries(env).flatMap(([name, value]) =>
      isD1(value) ? [[name, gatedDatabase(name, value, simulation)]] : [],
    );
    wrapped = { ...env, ...Object.fromEntries(gated) } as Env;
    wrappedEnvs.set(env, wrapped);
  }
  return wrapped;
}
