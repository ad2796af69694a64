import { env } from "cloudflare:workers";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { schemas } from "../src/db/client.ts";
import { shardBinding, shardNames } from "../src/db/databases.ts";

/**
 * The drizzle schema in worker/src/db and the tables the migrations build must agree exactly, for
 * each kind of database: the directory, and an index shard (every shard alike).
 */
const tablesOf = (schema: Record<string, unknown>) =>
  Object.values(schema).filter((value): value is SQLiteTable => is(value, SQLiteTable));

const KINDS = [
  { kind: "directory", d1: () => env.DIRECTORY, tables: tablesOf(schemas.directory) },
  {
    kind: "index shard",
    d1: () => shardBinding(env, shardNames(env)[0] ?? ""),
    tables: tablesOf(schemas.index),
  },
];

type ColumnInfo = { name: string; type: string; notnull: number; pk: number };
type IndexInfo = { name: string; unique: number; origin: string };

describe.each(KINDS)("the $kind's drizzle schema against its migrations", ({ d1, tables }) => {
  it("covers every table the migrations create", async () => {
    const { results } = await d1()
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
      )
      .all<{ name: string }>();
    expect(results.map((row) => row.name).sort()).toEqual(
      tables.map((table) => getTableConfig(table).name).sort(),
    );
  });

  it.each(tables.map((table) => [getTableConfig(table).name, table] as const))(
    "%s matches",
    async (name, table) => {
      const config = getTableConfig(table);
      const { results: columns } = await d1()
        .prepare(`PRAGMA table_info(${name})`)
        .all<ColumnInfo>();
      const primaryKeyColumns = new Set(
        config.primaryKeys.flatMap((pk) => pk.columns.map((column) => column.name)),
      );
      expect(builtColumns(columns)).toEqual(declaredColumns(table, primaryKeyColumns));
      const { results: indexes } = await d1()
        .prepare(`PRAGMA index_list(${name})`)
        .all<IndexInfo>();
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
        const { results: indexColumns } = await d1()
          .prepare(`PRAGMA index_info(${index.config.name})`)
          .all<{ name: string }>();
        expect(indexColumns.map((c) => c.name)).toEqual(
          index.config.columns.map((column) => ("name" in column ? column.name : String(column))),
        );
      }
      const { results: foreignKeys } = await d1()
        .prepare(`PRAGMA foreign_key_list(${name})`)
        .all<{ from: string; table: string; on_delete: string }>();
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

describe.each(KINDS)("the $kind's foreign keys", ({ d1, tables }) => {
  // A parent's deletion (a cascade, a SET NULL) finds the rows that name it through an index; one
  // without reads the whole child table for every parent row deleted.
  it.each(tables.map((table) => [getTableConfig(table).name] as const))(
    "of %s are each found by an index",
    async (name) => {
      const { results: foreignKeys } = await d1()
        .prepare(`PRAGMA foreign_key_list(${name})`)
        .all<{ id: number; from: string }>();
      const keys = new Map<number, { from: string }[]>();
      for (const fk of foreignKeys) keys.set(fk.id, [...(keys.get(fk.id) ?? []), fk]);
      for (const columns of keys.values()) {
        const where = columns.map((fk) => `"${fk.from}" = ?`).join(" AND ");
        const { results: plan } = await d1()
          .prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM "${name}" WHERE ${where}`)
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

describe("the index shards", () => {
  it("are at least two, each built by the same migrations", async () => {
    const names = shardNames(env);
    expect(names.length).toBeGreaterThanOrEqual(2);
    const schemaOf = async (shard: string) =>
      (
        await shardBinding(env, shard)
          .prepare(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' AND name <> 'd1_migrations' ORDER BY name",
          )
          .all()
      ).results;
    const first = await schemaOf(names[0] ?? "");
    for (const shard of names.slice(1)) expect(await schemaOf(shard)).toEqual(first);
  });
});
