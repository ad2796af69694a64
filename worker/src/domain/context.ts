import type { Database } from "../db/client.ts";
import type { Env } from "../env.ts";

/** What every project-scoped domain function receives: storage, bindings, the caller's project. */
export interface ProjectContext {
  db: Database;
  env: Env;
  projectId: string;
  /** Live data, or the project's test data (SPEC §20): never both. */
  livemode: boolean;
  now: Date;
}
