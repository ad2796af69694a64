import type { Database } from "../db/client.ts";
import type { Env } from "../env.ts";

/**
 * What every project-scoped domain function receives: its databases, bindings, the caller's
 * project. `db` is the project's index shard (sessions, events, webhooks, deliveries),
 * through the request's Sessions API session where the API opened one; `directory` holds the
 * account-level data (projects, members, API keys). No query reads both.
 */
export interface ProjectContext {
  db: Database;
  directory: Database;
  /** The shard's D1 binding (`INDEX_2`): where the project's sessions and pushes go. */
  shard: string;
  env: Env;
  projectId: string;
  /** Live data, or the project's test data: never both. */
  livemode: boolean;
  now: Date;
}
