import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { schema } from "../src/db/client.ts";
import * as objectSchema from "../src/session-object/tables.ts";
import { LEGACY_TABLES, type LegacyTablesMadeBy } from "./session-objects.ts";

/** The drizzle schema in worker/src/db and the tables the migrations build must agree exactly. */
const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable =>
  is(value, SQLiteTable),
);

type ColumnInfo = { name: string; type: string; notnull: number; pk: number };
type IndexInfo = { name: string; unique: number; origin: string };

describe("drizzle schema against the applied migrations", () => {
  it("covers every table the migrations create", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
    ).all<{ name: string }>();
    expect(results.map((row) => row.name).sort()).toEqual(
      tables.map((table) => getTableConfig(table).name).sort(),
    );
  });

  it.each(tables.map((table) => [getTableConfig(table).name, table] as const))(
    "%s matches",
    async (name, table) => {
      const config = getTableConfig(table);
      const { results: columns } = await env.DB.prepare(
        `PRAGMA table_info(${name})`,
      ).all<ColumnInfo>();
      const primaryKeyColumns = new Set(
        config.primaryKeys.flatMap((pk) => pk.columns.map((column) => column.name)),
      );
      expect(builtColumns(columns)).toEqual(declaredColumns(table, primaryKeyColumns));
      const { results: indexes } = await env.DB.prepare(
        `PRAGMA index_list(${name})`,
      ).all<IndexInfo>();
      const declared = config.indexes.map((index) => ({
        name: index.config.name,
        unique: index.config.unique,
      }));
      const uniqueColumns = config.columns
        .filter((c) => c.isUnique)
        .map((c) => ({ name: `${name}_${c.name}_unique`, unique: true }));
      expect(
        indexes
          .filter((i) => i.origin === "c")
          .map((i) => ({ name: i.name, unique: i.unique === 1 }))
          .sort(byName),
      ).toEqual([...declared, ...uniqueColumns].sort(byName));
      for (const index of config.indexes) {
        const { results: indexColumns } = await env.DB.prepare(
          `PRAGMA index_info(${index.config.name})`,
        ).all<{ name: string }>();
        expect(indexColumns.map((c) => c.name)).toEqual(
          index.config.columns.map((column) => ("name" in column ? column.name : String(column))),
        );
      }
      const { results: foreignKeys } = await env.DB.prepare(
        `PRAGMA foreign_key_list(${name})`,
      ).all<{ from: string; table: string; on_delete: string }>();
      expect(
        foreignKeys.map((fk) => `${fk.from}->${fk.table}:${fk.on_delete.toLowerCase()}`).sort(),
      ).toEqual(
        // One entry per column of a key, as SQLite lists a key of several columns.
        config.foreignKeys
          .flatMap((fk) => {
            const ref = fk.reference();
            const to = `${getTableConfig(ref.foreignTable).name}:${fk.onDelete ?? "no action"}`;
            return ref.columns.map((column) => `${column.name}->${to}`);
          })
          .sort(),
      );
    },
  );
});

describe("foreign keys", () => {
  // A parent's deletion (a cascade, a SET NULL) finds the rows that name it through an index; one
  // without reads the whole child table for every parent row deleted.
  it.each(tables.map((table) => [getTableConfig(table).name] as const))(
    "of %s are each found by an index",
    async (name) => {
      const { results: foreignKeys } = await env.DB.prepare(
        `PRAGMA foreign_key_list(${name})`,
      ).all<{ id: number; from: string }>();
      const keys = new Map<number, { from: string }[]>();
      for (const fk of foreignKeys) keys.set(fk.id, [...(keys.get(fk.id) ?? []), fk]);
      for (const columns of keys.values()) {
        const where = columns.map((fk) => `"${fk.from}" = ?`).join(" AND ");
        const { results: plan } = await env.DB.prepare(
          `EXPLAIN QUERY PLAN SELECT 1 FROM "${name}" WHERE ${where}`,
        )
          .bind(...columns.map(() => "x"))
          .all<{ detail: string }>();
        const key = columns.map((fk) => fk.from).join(", ");
        expect(plan.map((step) => step.detail).join("; "), `${name}(${key})`).toMatch(/^SEARCH/);
      }
    },
  );
});

function byName(a: { name: string }, b: { name: string }) {
  return a.name.localeCompare(b.name);
}

/** The columns a table was built with, as SQLite reports them. */
function builtColumns(columns: ColumnInfo[]) {
  return columns
    .map((c) => ({
      name: c.name,
      type: c.type.toLowerCase(),
      notNull: c.notnull === 1 || c.pk > 0,
    }))
    .sort(byName);
}

/** The columns drizzle declares, in the same shape (a key's columns are never null). */
function declaredColumns(table: SQLiteTable, keyColumns = new Set<string>()) {
  return getTableConfig(table)
    .columns.map((c) => ({
      name: c.name,
      type: c.getSQLType().toLowerCase(),
      notNull: c.notNull || c.primary || keyColumns.has(c.name),
    }))
    .sort(byName);
}

/**
 * The tables objects made before 2026-11-26 kept their session in, against tables.ts, through
 * which legacy-tables.ts reads them: made at once (compact-schema.sql) or by the migrations.
 */
describe("a session object's tables of before, against what reads them", () => {
  const objectTables = (Object.values(objectSchema) as unknown[]).filter(
    (value): value is SQLiteTable => is(value, SQLiteTable),
  );

  it.each(
    Object.keys(LEGACY_TABLES).flatMap((how) =>
      objectTables.map((table) => [getTableConfig(table).name, how, table] as const),
    ),
  )("%s as %s made it matches", async (name, how, table) => {
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`schema-drift-${how}-${name}`));
    const columns = await runInDurableObject(stub, async (_instance, state) => {
      await LEGACY_TABLES[how as LegacyTablesMadeBy](state.storage);
      return state.storage.sql.exec<ColumnInfo>(`PRAGMA table_info(${name})`).toArray();
    });
    expect(builtColumns(columns)).toEqual(declaredColumns(table));
  });
});
