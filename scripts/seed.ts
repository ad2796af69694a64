/**
 * `npm run seed`: a new project with a live and a test API key in the development account, printed
 * as JSON.
 * Works whether or not `npm start` is running: it writes the local D1 database directly.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyLocalMigrations,
  ensureLocalStateDir,
  executeLocalSql,
  leastUsedLocalShard,
  nodeVersionCheck,
  queryLocal,
  WRANGLER_STATE,
} from "./local-dev.ts";
import { accountSql, projectWithKeySql, sqlString } from "./seed-sql.ts";

const DEV_EMAIL = "dev@keyproof.local";

nodeVersionCheck();
await applyLocalMigrations();
const credentialsPath = join(ensureLocalStateDir(), "dev-account.json");
const now = new Date().toISOString();
const statements: string[] = [];

const [existing] = queryLocal<{ id: string }>(
  `SELECT id FROM accounts WHERE email = ${sqlString(DEV_EMAIL)}`,
);
let password: string;
let accountId: string;
if (existing && existsSync(credentialsPath)) {
  accountId = existing.id;
  password = (JSON.parse(readFileSync(credentialsPath, "utf8")) as { password: string }).password;
} else {
  // First run, or the password file was lost: (re)set the development account's password.
  password = randomBytes(12).toString("base64url");
  const { account, insert } = await accountSql(DEV_EMAIL, password, now);
  accountId = existing?.id ?? account.id;
  statements.push(
    existing
      ? `UPDATE accounts SET password_hash = ${sqlString(account.passwordHash)} WHERE id = ${sqlString(accountId)};`
      : insert,
  );
  writeFileSync(credentialsPath, JSON.stringify({ email: DEV_EMAIL, password }), { mode: 0o600 });
}

const projectName = `Development project ${now.slice(0, 19).replace("T", " ")}`;
const shard = leastUsedLocalShard();
const {
  projectId,
  apiKey,
  testApiKey,
  statements: projectStatements,
  shardStatements,
} = await projectWithKeySql(accountId, projectName, shard, now);
// The shard first: a project the directory names always has its settings there.
executeLocalSql(shardStatements, WRANGLER_STATE, shard);
executeLocalSql([...statements, ...projectStatements]);

console.log(
  JSON.stringify(
    {
      account_email: DEV_EMAIL,
      password,
      project_id: projectId,
      api_key: apiKey,
      test_api_key: testApiKey,
    },
    null,
    2,
  ),
);
