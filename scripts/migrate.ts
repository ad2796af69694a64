/**
 * `npm run db:migrate -- --local` (or `--remote`): every D1 database's migrations, in one command —
 * the directory's (migrations/directory) and each index shard's (migrations/index), every
 * database wrangler.toml binds. `npm start`, the seed and the tests apply the local ones the same
 * way (scripts/local-dev.ts); docs/deploying.md runs it with --remote.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { applyLocalMigrations, BIN, d1Bindings, nodeVersionCheck, ROOT } from "./local-dev.ts";

nodeVersionCheck();
const where = process.argv.includes("--remote") ? "--remote" : "--local";
if (where === "--local") {
  await applyLocalMigrations();
  console.log(`Applied the migrations of ${d1Bindings().join(", ")} (local).`);
} else {
  // One after another: a remote apply asks nothing, but each is its own call to Cloudflare.
  for (const binding of d1Bindings()) {
    console.log(`${binding}:`);
    const result = spawnSync(
      join(BIN, "wrangler"),
      ["d1", "migrations", "apply", binding, "--remote"],
      { cwd: ROOT, stdio: "inherit" },
    );
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
