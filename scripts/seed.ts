/**
 * `npm run seed`: a new project with a new API key in the development account, printed as JSON.
 * Works whether or not `npm start` is running: it writes the local D1 database directly.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newApiKeyRow } from "../worker/src/domain/api-keys.ts";
import { newAccountRow, newProjectRows } from "../worker/src/domain/projects.ts";
import {
  applyLocalMigrations,
  ensureLocalStateDir,
  executeLocalFile,
  nodeVersionCheck,
  queryLocal,
  sqlString,
} from "./local-dev.ts";

const DEV_EMAIL = "dev@keyproof.local";

nodeVersionCheck();
applyLocalMigrations();
const stateDir = ensureLocalStateDir();
const credentialsPath = join(stateDir, "dev-account.json");
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
  const account = await newAccountRow(DEV_EMAIL, password, now);
  accountId = existing?.id ?? account.id;
  statements.push(
    existing
      ? `UPDATE accounts SET password_hash = ${sqlString(account.passwordHash)} WHERE id = ${sqlString(accountId)};`
      : `INSERT INTO accounts (id, email, password_hash, created_at) VALUES (${[account.id, account.email, account.passwordHash, now].map(sqlString).join(", ")});`,
  );
  writeFileSync(credentialsPath, JSON.stringify({ email: DEV_EMAIL, password }), { mode: 0o600 });
}

const { project, owner } = newProjectRows(
  accountId,
  `Development project ${now.slice(0, 19).replace("T", " ")}`,
  now,
);
const { row: key, plaintext } = await newApiKeyRow({ projectId: project.id, name: "seed", now });
statements.push(
  `INSERT INTO projects (id, name, created_at) VALUES (${[project.id, project.name, now].map(sqlString).join(", ")});`,
  `INSERT INTO project_members (project_id, account_id, role, created_at) VALUES (${[owner.projectId, owner.accountId, owner.role, now].map(sqlString).join(", ")});`,
  `INSERT INTO api_keys (id, project_id, name, prefix, hash, created_at) VALUES (${[key.id, key.projectId, key.name, key.prefix, key.hash, now].map(sqlString).join(", ")});`,
);
const sqlPath = join(stateDir, `seed-${process.pid}.sql`);
writeFileSync(sqlPath, statements.join("\n"));
try {
  executeLocalFile(sqlPath);
} finally {
  rmSync(sqlPath, { force: true });
}

console.log(
  JSON.stringify(
    { account_email: DEV_EMAIL, password, project_id: project.id, api_key: plaintext },
    null,
    2,
  ),
);
