import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";

/**
 * An index shard's migrations over data written before them, in SQLite as D1 runs it (foreign
 * keys on). Migration 0003 moves each connection's keys into its row: what was there
 * must be there after, in the shape the Worker reads (db/sessions.ts `IndexedConnectionKey`).
 */

const migration = (name: string) =>
  readFileSync(join(ROOT, "migrations/index", name), "utf8")
    .split("--> statement-breakpoint")
    .filter((statement) => statement.trim() !== "");

function shardBefore(last: string) {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  const names = [
    "0000_baseline.sql",
    "0001_session_event_ids.sql",
    "0002_sessions_index_without_status.sql",
  ];
  for (const name of names.slice(0, names.indexOf(last) + 1))
    for (const statement of migration(name)) db.exec(statement);
  return db;
}

describe("migration 0003: a connection's keys inside its row", () => {
  it("carries every key into its connection's row, oldest id first, and keeps key rows only for security keys", () => {
    const db = shardBefore("0002_sessions_index_without_status.sql");
    db.exec(`INSERT INTO sessions (id, project_id, kind, connection_identifier, status, multi_key,
      multi_connection, must_confirm, match_all_keys, max_attempts, failed_attempts, expired_at,
      created_at, updated_at) VALUES ('cs_1', 'prj_1', 'collect', 'identifier1', 'completed', 1, 1,
      0, 0, 1, 0, 't0', 't0', 't0')`);
    db.exec(`INSERT INTO connections (id, session_id, ip_address, client_version, created_at,
      outcome) VALUES ('con_1', 'cs_1', '192.0.2.1', 'SSH-2.0-x', 't1', 'collected'),
      ('con_2', 'cs_1', '192.0.2.2', 'SSH-2.0-x', 't2', 'refused')`);
    db.exec(`INSERT INTO connection_keys (id, connection_id, session_id, public_key_ssh,
      public_key_pem, public_key_md5, public_key_sha256, public_key_algorithm, public_key_bits,
      comment, security_key, certificate, created_at) VALUES
      ('ck_2', 'con_1', 'cs_1', 'ssh-ed25519 BBBB', 'PEM', 'MD5:b', 'SHA256:b', 'ssh-ed25519', 256,
        'me@host', NULL, NULL, 't1'),
      ('ck_1', 'con_1', 'cs_1', 'sk-ssh-ed25519@openssh.com AAAA', NULL, 'MD5:a', 'SHA256:a',
        'sk-ssh-ed25519@openssh.com', 256, NULL, '{"counter":5}', NULL, 't1')`);

    for (const statement of migration("0003_connection_keys_in_row.sql")) db.exec(statement);

    const rows = db.prepare("SELECT id, keys FROM connections ORDER BY id").all() as {
      id: string;
      keys: string;
    }[];
    expect(rows.map((row) => [row.id, JSON.parse(row.keys)])).toEqual([
      [
        "con_1",
        [
          {
            id: "ck_1",
            publicKeySsh: "sk-ssh-ed25519@openssh.com AAAA",
            publicKeyPem: null,
            publicKeyMd5: "MD5:a",
            publicKeySha256: "SHA256:a",
            publicKeyAlgorithm: "sk-ssh-ed25519@openssh.com",
            publicKeyBits: 256,
            comment: null,
            securityKey: { counter: 5 },
            certificate: null,
            createdAt: "t1",
          },
          {
            id: "ck_2",
            publicKeySsh: "ssh-ed25519 BBBB",
            publicKeyPem: "PEM",
            publicKeyMd5: "MD5:b",
            publicKeySha256: "SHA256:b",
            publicKeyAlgorithm: "ssh-ed25519",
            publicKeyBits: 256,
            comment: "me@host",
            securityKey: null,
            certificate: null,
            createdAt: "t1",
          },
        ],
      ],
      ["con_2", []],
    ]);
    expect(db.prepare("SELECT id FROM connection_keys").all()).toEqual([{ id: "ck_1" }]);
  });
});
