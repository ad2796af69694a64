import { newAccountRow } from "../worker/src/domain/accounts.ts";
import { newApiKeyRow } from "../worker/src/domain/api-keys.ts";
import { newProjectRows } from "../worker/src/domain/projects.ts";

export function sqlString(value: string | null): string {
  return value === null ? "NULL" : `'${value.replaceAll("'", "''")}'`;
}

const values = (...items: (string | null)[]) => `VALUES (${items.map(sqlString).join(", ")})`;

export async function accountSql(email: string, password: string, now: string) {
  const account = await newAccountRow(email, password, now);
  return {
    account,
    insert: `INSERT INTO accounts (id, email, password_hash, created_at) ${values(account.id, account.email, account.passwordHash, now)};`,
  };
}

/**
 * SQL for a new project owned by `accountId`, placed on `shard`, with a live and a test API key
 * (test mode), and those keys in plaintext: the directory's statements, and the shard's (its
 * retention copy).
 */
export async function projectWithKeySql(
  accountId: string,
  projectName: string,
  shard: string,
  now: string,
) {
  const { project, owner } = newProjectRows(accountId, projectName, shard, now);
  const live = await newApiKeyRow({ projectId: project.id, name: "seed", now });
  const test = await newApiKeyRow({
    projectId: project.id,
    name: "seed (test)",
    mode: "test",
    now,
  });
  const keyInsert = ({ row: key }: typeof live) =>
    `INSERT INTO api_keys (id, project_id, name, livemode, prefix, hash, created_at) VALUES (${[key.id, key.projectId, key.name].map(sqlString).join(", ")}, ${key.livemode ? 1 : 0}, ${[key.prefix, key.hash, now].map(sqlString).join(", ")});`;
  const statements = [
    `INSERT INTO projects (id, name, created_at, retention_days, shard) VALUES (${[project.id, project.name, now].map(sqlString).join(", ")}, ${project.retentionDays}, ${sqlString(shard)});`,
    `INSERT INTO project_members (project_id, account_id, role, created_at) ${values(owner.projectId, owner.accountId, owner.role, now)};`,
    keyInsert(live),
    keyInsert(test),
  ];
  return {
    projectId: project.id,
    apiKey: live.plaintext,
    testApiKey: test.plaintext,
    statements,
    shardStatements: [
      `INSERT INTO project_settings (project_id, retention_days) VALUES (${sqlString(project.id)}, ${project.retentionDays});`,
    ],
  };
}
