/**
 * What the Worker costs, counted as Cloudflare bills it (bench/cost.ts, docs/benchmarks.md):
 * invocations, Durable Object requests, rows read and written in the objects' storage and in
 * D1, D1 write transactions, queue messages, alarms, log lines, and the objects' active time. Counted in development only (the local
 * runtime runs the Worker and its objects in one isolate, so one set of counters sees all),
 * read and reset at `/__dev/meters` when `METERING=on`. Counts, not timings: the same on every run.
 */
export interface Meters {
  workerInvocations: number;
  durableObjectRequests: number;
  durableObjectRowsRead: number;
  durableObjectRowsWritten: number;
  /** `setAlarm` and `deleteAlarm` calls: each is billed as a row written (DO pricing). */
  alarmsSet: number;
  /** Lines the Worker and its objects logged: each a Workers Logs event. */
  logLines: number;
  /**
   * Milliseconds objects were busy with a request or an alarm, as its caller (or the alarm
   * handler) timed it: an upper bound of the wall-clock duration Durable Objects bill.
   */
  durableObjectActiveMs: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  d1WriteTransactions: number;
  queueMessages: number;
  /** Each D1 database's size after its last statement (`meta.size_after`), in bytes, by binding. */
  d1SizeBytes: Record<string, number>;
  /** Write transactions by D1 database (binding): how the shards share the load (bench/scale.ts). */
  d1WriteTransactionsBy: Record<string, number>;
  /** Statements in those write transactions, by database. */
  d1WriteStatementsBy: Record<string, number>;
  /** Milliseconds those write transactions took, by database, as the caller saw them. */
  d1WriteMsBy: Record<string, number>;
  /** Requests each shard's index writer received (pushes): its share of an object's ~1,000/s. */
  writerRequestsBy: Record<string, number>;
  /** Every statement each database ran, reads included, on its primary: D1's ~1,000 a second. */
  d1PrimaryQueriesBy: Record<string, number>;
  /** Statements read from a replica (the Sessions API), by database: off the primary. */
  d1ReplicaQueriesBy: Record<string, number>;
  /** Statements run on a primary, by their first words: what a shard's primary spends on. */
  primaryQueriesBy: Record<string, number>;
  /** Rows written per statement (its first words), D1's and the objects' apart: where they go. */
  writtenBy: Record<string, number>;
  /** D1 rows read per statement (its database and first words): what a read walks. */
  d1ReadBy: Record<string, number>;
}

const zero = (): Meters => ({
  workerInvocations: 0,
  durableObjectRequests: 0,
  durableObjectRowsRead: 0,
  durableObjectRowsWritten: 0,
  alarmsSet: 0,
  logLines: 0,
  durableObjectActiveMs: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  d1WriteTransactions: 0,
  queueMessages: 0,
  d1SizeBytes: {},
  d1WriteTransactionsBy: {},
  d1WriteStatementsBy: {},
  d1WriteMsBy: {},
  writerRequestsBy: {},
  d1PrimaryQueriesBy: {},
  d1ReplicaQueriesBy: {},
  primaryQueriesBy: {},
  writtenBy: {},
  d1ReadBy: {},
});

let meters = zero();

/** The meters that are one count each (not kept by database or by statement). */
export type Count = {
  [K in keyof Meters]: Meters[K] extends number ? K : never;
}[keyof Meters];

/** The meters kept by database, by shard or by statement. */
export type Tally = Exclude<keyof Meters, Count>;

export function meter(name: Count, amount = 1) {
  meters[name] += amount;
}

export function readMeters(): Meters {
  foldCursors();
  return {
    ...meters,
    d1SizeBytes: { ...meters.d1SizeBytes },
    d1WriteTransactionsBy: { ...meters.d1WriteTransactionsBy },
    d1WriteStatementsBy: { ...meters.d1WriteStatementsBy },
    d1WriteMsBy: { ...meters.d1WriteMsBy },
    writerRequestsBy: { ...meters.writerRequestsBy },
    d1PrimaryQueriesBy: { ...meters.d1PrimaryQueriesBy },
    d1ReplicaQueriesBy: { ...meters.d1ReplicaQueriesBy },
    primaryQueriesBy: { ...meters.primaryQueriesBy },
    d1ReadBy: { ...meters.d1ReadBy },
    writtenBy: { ...meters.writtenBy },
  };
}

export function resetMeters() {
  cursors.clear();
  const sizes = meters.d1SizeBytes;
  meters = { ...zero(), d1SizeBytes: sizes };
}

/** `rows` written by `sql`, under the statement's first words (bindings are not part of it). */
const firstWords = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 60);

function writtenBy(store: "d1" | "do" | "alarm", sql: string, rows: number) {
  if (rows === 0) return;
  const statement = `${store}: ${firstWords(sql)}`;
  meters.writtenBy[statement] = (meters.writtenBy[statement] ?? 0) + rows;
}

/** An alarm's run, counted as the request it is billed as, and timed as the object's active time. */
export async function meteredAlarm(run: () => Promise<void>): Promise<void> {
  meter("durableObjectRequests");
  const started = performance.now();
  try {
    await run();
  } finally {
    meter("durableObjectActiveMs", performance.now() - started);
  }
}

/**
 * Whether D1's calls are counted: only while metering (`setD1Metering`, from the environment
 * `metering` reads). Their counts are kept by each statement's text, and reading a statement's
 * first words at every query is CPU a deployed Worker would spend for nobody.
 */
let d1Metered = false;

export function setD1Metering(on: boolean) {
  d1Metered = on;
}

/** The statements `sqls` that `database` ran, on its primary or a replica. */
export function meterQueries(database: string, sqls: string[], primary: boolean) {
  if (!d1Metered) return;
  const by = primary ? meters.d1PrimaryQueriesBy : meters.d1ReplicaQueriesBy;
  by[database] = (by[database] ?? 0) + sqls.length;
  if (!primary) return;
  for (const sql of sqls) {
    const statement = `${database}: ${firstWords(sql)}`;
    meters.primaryQueriesBy[statement] = (meters.primaryQueriesBy[statement] ?? 0) + 1;
  }
}

/** A request to `shard`'s index writer. */
export function meterWriterRequest(shard: string) {
  meters.writerRequestsBy[shard] = (meters.writerRequestsBy[shard] ?? 0) + 1;
}

/**
 * D1 results' `meta` from the database bound as `database`, counted, each under its statement's
 * text (`sqls`, in the same order); `write` when they were (part of) a write transaction.
 */
export function meterD1(
  database: string,
  results: { meta?: D1Meta }[],
  sqls: string[],
  write: boolean,
  ms = 0,
) {
  if (!d1Metered) return;
  results.forEach(({ meta }, i) => {
    if (!meta) return;
    meters.d1RowsRead += meta.rows_read ?? 0;
    meters.d1RowsWritten += meta.rows_written ?? 0;
    writtenBy("d1", sqls[i] ?? "", meta.rows_written ?? 0);
    if (meta.rows_read) {
      const statement = `${database}: ${firstWords(sqls[i] ?? "")}`;
      meters.d1ReadBy[statement] = (meters.d1ReadBy[statement] ?? 0) + meta.rows_read;
    }
    if (meta.size_after) meters.d1SizeBytes[database] = meta.size_after;
  });
  if (!write) return;
  meters.d1WriteTransactions += 1;
  const add = (by: Record<string, number>, amount: number) => {
    by[database] = (by[database] ?? 0) + amount;
  };
  add(meters.d1WriteTransactionsBy, 1);
  add(meters.d1WriteStatementsBy, sqls.length);
  add(meters.d1WriteMsBy, ms);
}

/**
 * A Durable Object stub whose every call is counted as the request Cloudflare bills (each RPC
 * method call, and `fetch`, is one).
 */
export function meteredStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property === "symbol") return value;
      return (...args: unknown[]) => {
        meter("durableObjectRequests");
        const started = performance.now();
        const result = Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        // An RPC call's result is a thenable: its time is until it settles.
        void Promise.resolve(result).then(
          () => meter("durableObjectActiveMs", performance.now() - started),
          () => meter("durableObjectActiveMs", performance.now() - started),
        );
        return result;
      };
    },
  });
}

/**
 * A Durable Object's storage whose rows are counted: each key the key-value API reads or writes
 * is a row (they live in a hidden SQLite table), SQL statements report their own counts, and each
 * `setAlarm` is counted.
 */
export function meteredStorage(
  storage: DurableObjectStorage,
  /** The object's class, named in the statement table's alarm rows. */
  owner: string,
): DurableObjectStorage {
  const kv = storage.kv;
  const meteredKv = {
    get: (key: string) => {
      meter("durableObjectRowsRead");
      return kv.get(key);
    },
    put: (key: string, value: unknown) => {
      meter("durableObjectRowsWritten");
      writtenBy("do", `kv put ${key.replace(/[:/].*/, "")}`, 1);
      kv.put(key, value);
    },
    delete: (key: string) => {
      meter("durableObjectRowsWritten");
      writtenBy("do", `kv delete ${key.replace(/[:/].*/, "")}`, 1);
      return kv.delete(key);
    },
    list: (options?: DurableObjectListOptions) => kv.list(options),
  } as unknown as SyncKvStorage;
  const sql = storage.sql;
  const meteredSql = new Proxy(sql, {
    get(target, property, _receiver) {
      if (property !== "exec") {
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (query: string, ...bindings: unknown[]) => {
        const cursor = target.exec(query, ...bindings);
        cursors.set(cursor, query);
        return cursor;
      };
    },
  });
  return new Proxy(storage, {
    get(target, property) {
      if (property === "kv") return meteredKv;
      if (property === "sql") return meteredSql;
      const value = Reflect.get(target, property, target);
      if (property === "setAlarm" || property === "deleteAlarm")
        return (...args: unknown[]) => {
          meter("alarmsSet");
          writtenBy("alarm", `${property} (${owner})`, 1);
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      // Every key deleted is a row written (DO pricing: "deletes are counted as rows written").
      if (property === "deleteAll")
        return (...args: unknown[]) => {
          const keys = [...kv.list()].length;
          meters.durableObjectRowsWritten += keys;
          writtenBy("do", "deleteAll", keys);
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * SQL cursors not yet counted: a statement's counts are final once it has been read, which may be
 * after `exec` returns, so they are added when the meters are read.
 */
const cursors = new Map<SqlStorageCursor<Record<string, SqlStorageValue>>, string>();

function foldCursors() {
  for (const [cursor, query] of cursors) {
    meters.durableObjectRowsRead += cursor.rowsRead;
    meters.durableObjectRowsWritten += cursor.rowsWritten;
    writtenBy("do", query, cursor.rowsWritten);
  }
  cursors.clear();
}

/**
 * Metered only where it is read, and asked for: local development with `METERING=on` (the cost
 * benches). The speed benches run without it, as the product does.
 */
export const metering = (env: { ENVIRONMENT?: string; METERING?: string }) =>
  env.ENVIRONMENT === "development" && env.METERING === "on";

/** The stub of the object `name` in `namespace`, each call counted when metering. */
export function objectStub<T extends Rpc.DurableObjectBranded | undefined>(
  env: { ENVIRONMENT?: string; METERING?: string },
  namespace: DurableObjectNamespace<T>,
  name: string,
): DurableObjectStub<T> {
  const stub = namespace.get(namespace.idFromName(name));
  return metering(env) ? meteredStub(stub) : stub;
}
