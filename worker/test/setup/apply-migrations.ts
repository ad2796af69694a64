import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardBinding, shardNames } from "../../src/db/databases.ts";

// Every database the Worker binds, as `npm run db:migrate` does: the directory, then each shard.
await applyD1Migrations(env.DIRECTORY, env.DIRECTORY_MIGRATIONS);
for (const shard of shardNames(env))
  await applyD1Migrations(shardBinding(env, shard), env.INDEX_MIGRATIONS);
