/**
 * `npm run seed`: a new project with a live and a test API key in the development account, printed
 * as JSON. While `npm start` runs on the same state, its Worker makes them (a signed development
 * call: a second or so); otherwise the local D1 databases are written directly through wrangler.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEVELOPMENT_ACCOUNT_EMAIL } from "../worker/src/domain/development-account.ts";
import { signRequest } from "../worker/src/protocol/request-signing.ts";
import {
  applyLocalMigrations,
  ensureDevVars,
  ensureLocalStateDir,
  executeLocalSql,
  leastUsedLocalShard,
  nodeVersionCheck,
  queryLocal,
  runningWorkerUrl,
  WRANGLER_STATE,
} from "./local-dev.ts";
import { accountSql, projectWithKeySql, sqlString } from "./seed-sql.ts";

const DEV_EMAIL = DEVELOPMENT_ACCOUNT_EMAIL;
const SEED_PATH = "/internal/v1/dev/seed";

interface Seeded {
  project_id: string;
  api_key: string;
  test_api_key: string;
}

nodeVersionCheck();
const credentialsPath = join(ensureLocalStateDir(), "dev-account.json");
const now = new Date().toISOString();
const projectName = `Development project ${now.slice(0, 19).replace("T", " ")}`;
// The development account's password, kept beside the local state; a new one if it was lost.
const known = existsSync(credentialsPath)
  ? (JSON.parse(readFileSync(credentialsPath, "utf8")) as { password: string }).password
  : null;
const password = known ?? randomBytes(12).toString("base64url");
if (!known)
  writeFileSync(credentialsPath, JSON.stringify({ email: DEV_EMAIL, password }), { mode: 0o600 });

const seeded = (await throughRunningWorker()) ?? (await throughWrangler());
console.log(JSON.stringify({ account_email: DEV_EMAIL, password, ...seeded }, null, 2));

/** The running `npm start`'s Worker makes them, as the web app would; null when none runs. */
async function throughRunningWorker(): Promise<Seeded | null> {
  const url = runningWorkerUrl();
  if (!url) return null;
  const body = JSON.stringify({
    email: DEV_EMAIL,
    password,
    resetPassword: !known,
    projectName,
  });
  const headers = await signRequest(ensureDevVars().BRIDGE_SECRET ?? "", {
    method: "POST",
    path: SEED_PATH,
    body,
  });
  const response = await fetch(`${url}${SEED_PATH}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(10_000),
  }).catch(() => null);
  return response?.status === 201 ? ((await response.json()) as Seeded) : null;
}

/** No Worker runs: the local databases are written through wrangler (several seconds). */
async function throughWrangler(): Promise<Seeded> {
  await applyLocalMigrations();
  const statements: string[] = [];
  const [existing] = queryLocal<{ id: string }>(
    `SELECT id FROM accounts WHERE email = ${sqlString(DEV_EMAIL)}`,
  );
  let accountId = existing?.id ?? "";
  if (!existing || !known) {
    // First run, or the password file was lost: (re)set the development account's password.
    const { account, insert } = await accountSql(DEV_EMAIL, password, now);
    accountId = existing?.id ?? account.id;
    statements.push(
      existing
        ? `UPDATE accounts SET password_hash = ${sqlString(account.passwordHash)} WHERE id = ${sqlString(accountId)};`
        : insert,
    );
  }
  const shard = leastUsedLocalShard();
  const made = await projectWithKeySql(accountId, projectName, shard, now);
  // The shard first: a project the directory names always has its settings there.
  executeLocalSql(made.shardStatements, WRANGLER_STATE, shard);
  executeLocalSql([...statements, ...made.statements]);
  return { project_id: made.projectId, api_key: made.apiKey, test_api_key: made.testApiKey };
}
