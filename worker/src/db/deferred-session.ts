/**
 * A D1 Sessions API session opened only when a query first runs on it: a request that reads
 * nothing of D1 (a write answered by a session's object) never waits for what opening it needs
 * (api/bookmarks.ts: the pushes of the caller's earlier writes). Statements are prepared on the
 * real session when they run; `getBookmark` is null until then.
 */

interface Deferred {
  readonly sql: string;
  readonly values: unknown[];
}

export function deferredSession(open: () => Promise<D1DatabaseSession>): D1DatabaseSession {
  let opening: Promise<D1DatabaseSession> | null = null;
  let opened: D1DatabaseSession | null = null;
  const session = async () => {
    opening ??= open().then((real) => {
      opened = real;
      return real;
    });
    return opening;
  };
  const real = (statement: Deferred, on: D1DatabaseSession) =>
    statement.values.length > 0
      ? on.prepare(statement.sql).bind(...statement.values)
      : on.prepare(statement.sql);
  const statementOf = (sql: string, values: unknown[]): D1PreparedStatement => {
    const run = async () => real({ sql, values }, await session());
    return {
      sql,
      values,
      bind: (...more: unknown[]) => statementOf(sql, [...values, ...more]),
      first: async (column?: string) =>
        column === undefined ? (await run()).first() : (await run()).first(column),
      run: async () => (await run()).run(),
      all: async () => (await run()).all(),
      raw: async (options?: { columnNames?: boolean }) =>
        options?.columnNames ? (await run()).raw({ columnNames: true }) : (await run()).raw(),
    } as unknown as D1PreparedStatement;
  };
  return {
    prepare: (sql: string) => statementOf(sql, []),
    batch: async (statements: D1PreparedStatement[]) => {
      const on = await session();
      return on.batch(statements.map((statement) => real(statement as unknown as Deferred, on)));
    },
    getBookmark: () => opened?.getBookmark() ?? null,
  } as unknown as D1DatabaseSession;
}
