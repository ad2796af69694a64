import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, wrangler } from "../../scripts/local-dev.ts";

/**
 * D1's migrations as an existing database takes them: wrangler's own local D1 at migration 0020
 * with rows in every table a proof writes, then the rest applied. 0021 rebuilds connections,
 * their keys, events and deliveries under new keys (dropping the old tables children first, so
 * no cascade runs on them); 0022, 0023 and 0024 change indexes; 0025 moves each delivery's
 * attempts into its invocation's row; 0026 keys invocations by webhook, each under an id made
 * from its event's and its webhook's. Every row must come through, and the cascades must still
 * hold afterwards.
 */

const dir = mkdtempSync(join(tmpdir(), "keyproof-d1-upgrade-"));
const migrations = join(dir, "migrations");
const persistTo = join(dir, "state");
const config = join(dir, "wrangler.toml");
mkdirSync(migrations);
writeFileSync(
  config,
  `name = "keyproof-d1-upgrade"
compatibility_date = "2025-01-01"
[[d1_databases]]
binding = "DB"
database_name = "keyproof"
database_id = "00000000-0000-4000-8000-000000000000"
migrations_dir = "migrations"
`,
);

/** Copies the repository's migrations whose number is below `before` into the database's dir. */
function migrationsUpTo(before: number) {
  for (const file of readdirSync(join(ROOT, "migrations")))
    if (/^\d{4}_.*\.sql$/.test(file) && Number(file.slice(0, 4)) < before)
      copyFileSync(join(ROOT, "migrations", file), join(migrations, file));
  wrangler(["d1", "migrations", "apply", "DB", "--local"], persistTo, config);
}

const sqlFile = join(dir, "statements.sql");
function execute(sql: string) {
  writeFileSync(sqlFile, sql);
  wrangler(["d1", "execute", "DB", "--local", "--yes", "--file", sqlFile], persistTo, config);
}

function query<T>(sql: string): T[] {
  const output = wrangler(
    ["d1", "execute", "DB", "--local", "--json", "--command", sql],
    persistTo,
    config,
  );
  return (JSON.parse(output) as { results: T[] }[])[0]?.results ?? [];
}

/** Rows in each of `tables`, read in one query. */
function counts(tables: string[]): Record<string, number> {
  const columns = tables.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`);
  return query<Record<string, number>>(`SELECT ${columns.join(", ")}`)[0] ?? {};
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("D1's migrations on a database with rows", () => {
  it("keep every row through 0021–0026, and the cascades hold after", () => {
    migrationsUpTo(21);
    const at = "2026-11-25T00:00:00.000Z";
    execute(`
      INSERT INTO projects (id, name, created_at) VALUES ('prj_1', 'one', '${at}');
      INSERT INTO sessions (id, project_id, kind, connection_identifier, status, multi_key,
        multi_connection, must_confirm, match_all_keys, max_attempts, failed_attempts, expired_at,
        created_at, updated_at, completed_at)
        VALUES ('cs_1', 'prj_1', 'collect', 'ident1', 'completed', 0, 0, 0, 0, 1, 0, '${at}',
        '${at}', '${at}', '${at}');
      INSERT INTO webhooks (id, project_id, session_id, url, method, headers, events, retries,
        initial_backoff, backoff_multiplier, enabled, secret, created_at, updated_at)
        VALUES ('wh_1', 'prj_1', NULL, 'https://hooks.example.com/', 'post', '{}', '[]', 3, 10, 2,
        1, 's', '${at}', '${at}');
      INSERT INTO connections (id, session_id, ip_address, client_version, created_at, outcome)
        VALUES ('con_1', 'cs_1', '127.0.0.1', 'SSH-2.0-x', '${at}', 'collected');
      INSERT INTO connection_keys (id, connection_id, session_id, public_key_ssh, public_key_md5,
        public_key_sha256, public_key_algorithm, public_key_bits, created_at)
        VALUES ('ck_1', 'con_1', 'cs_1', 'ssh-ed25519 AAAA', 'md5', 'sha', 'ssh-ed25519', 256, '${at}');
      INSERT INTO events (id, project_id, session_id, entity, type, payload, created_at)
        VALUES ('evt_1', 'prj_1', 'cs_1', 'collect_session', 'status_changed', '{}', '${at}');
      INSERT INTO webhook_invocations (id, webhook_id, event_id, status, attempts, created_at,
        updated_at) VALUES ('whi_1', 'wh_1', 'evt_1', 'succeeded', 1, '${at}', '${at}');
      INSERT INTO webhook_attempts (id, invocation_id, attempt, request_time, duration_ms,
        status_code, response_body, error)
        VALUES ('wha_2', 'whi_1', 2, '${at}', 5, 200, 'ok', NULL),
        ('wha_1', 'whi_1', 1, '${at}', 3, NULL, NULL, 'timed out');
    `);
    migrationsUpTo(10_000);

    const proofTables = [
      "sessions",
      "connections",
      "connection_keys",
      "events",
      "webhook_invocations",
    ];
    expect(counts(proofTables)).toEqual(Object.fromEntries(proofTables.map((table) => [table, 1])));
    // The invocation names its event by the event's new key: the project, from its webhook's.
    // …and its id is made from its event's and its webhook's, so that every id names its webhook.
    expect(query("SELECT id, project_id, event_id FROM webhook_invocations")).toEqual([
      { id: "whi_11", project_id: "prj_1", event_id: "evt_1" },
    ]);
    // Its attempts are its attempt log now, oldest first, as the API shows them.
    const [{ attempt_log } = { attempt_log: "" }] = query<{ attempt_log: string }>(
      "SELECT attempt_log FROM webhook_invocations",
    );
    expect(JSON.parse(attempt_log)).toEqual([
      {
        attempt: 1,
        request_time: at,
        duration_ms: 3,
        status_code: null,
        response_body: null,
        error: "timed out",
      },
      {
        attempt: 2,
        request_time: at,
        duration_ms: 5,
        status_code: 200,
        response_body: "ok",
        error: null,
      },
    ]);
    const schema = query<{ type: string; name: string; tbl_name: string; sql: string | null }>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master",
    );
    for (const table of ["connections", "connection_keys", "events", "webhook_invocations"])
      expect(schema.find((row) => row.name === table)?.sql).toContain("WITHOUT ROWID");
    expect(schema.find((row) => row.name === "webhook_invocations")?.sql).toContain(
      "PRIMARY KEY(`webhook_id`, `id`)",
    );
    const sessionIndexes = schema
      .filter((row) => row.type === "index" && row.tbl_name === "sessions")
      .map((row) => row.name);
    expect(sessionIndexes).not.toContain("sessions_project_kind_idx");
    expect(sessionIndexes).not.toContain("sessions_project_created_idx");
    expect(sessionIndexes).not.toContain("sessions_project_completed_idx");
    expect(schema.map((row) => row.name)).not.toContain("webhook_attempts");

    // A webhook takes its deliveries (and their attempts) with it; a session its connections and
    // keys. (An event's deliveries are deleted with it by the statements that delete events.)
    execute("DELETE FROM webhooks WHERE id = 'wh_1';");
    expect(counts(["webhook_invocations"])).toEqual({ webhook_invocations: 0 });
    execute("DELETE FROM sessions WHERE id = 'cs_1';");
    expect(counts(["connections", "connection_keys"])).toEqual({
      connections: 0,
      connection_keys: 0,
    });
  });
});
