import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accounts, apiKeys } from "../db/directory.ts";
import type { Env } from "../env.ts";
import { createAccount } from "./accounts.ts";
import { newApiKeyRow } from "./api-keys.ts";
import type { DEVELOPMENT_ACCOUNT_EMAIL } from "./development-account.ts";
import { hashPassword } from "./passwords.ts";
import { createProject } from "./projects.ts";

/** What `npm run seed` asks a running local Worker for (scripts/seed.ts). */
export interface SeedRequest {
  email: typeof DEVELOPMENT_ACCOUNT_EMAIL;
  password: string;
  /** The account exists but its password is not known any more: it becomes `password`. */
  resetPassword: boolean;
  projectName: string;
}

/**
 * A new project with a live and a test API key in the development account, made the way the web
 * app makes them (the emptiest shard, its settings there first): what `npm run seed` prints. The
 * account is made on first use. Development only (internal/routes.ts).
 */
export async function seedDevelopmentProject(env: Env, directory: Database, seed: SeedRequest) {
  const now = new Date();
  const [existing] = await directory
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, seed.email))
    .limit(1);
  const accountId =
    existing?.id ?? (await createAccount(directory, seed.email, seed.password, now)).id;
  if (existing && seed.resetPassword)
    await directory
      .update(accounts)
      .set({ passwordHash: await hashPassword(seed.password) })
      .where(eq(accounts.id, accountId));
  const project = await createProject(env, directory, accountId, seed.projectName, now);
  const at = now.toISOString();
  const live = await newApiKeyRow({ projectId: project.id, name: "seed", now: at });
  const test = await newApiKeyRow({
    projectId: project.id,
    name: "seed (test)",
    mode: "test",
    now: at,
  });
  await directory.insert(apiKeys).values([live.row, test.row]);
  return { project_id: project.id, api_key: live.plaintext, test_api_key: test.plaintext };
}
