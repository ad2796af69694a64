/**
 * `npm run --silent db:file <BINDING>`: the SQLite file that holds a D1 binding's local database
 * (`DIRECTORY`, `INDEX_0`, …) under the local state (`STATE_DIR`, or wrangler's default), as
 * `npm start` uses it. Copying it aside with `npm start` stopped, and back, is how the restore
 * runbook is rehearsed locally (docs/operations.md): the local stand-in for D1's Time Travel.
 */
import { localD1File } from "../test-support/local-d1.ts";
import { d1Bindings, WRANGLER_STATE } from "./local-dev.ts";

const binding = process.argv[2] ?? "";
const known = d1Bindings();
if (!known.includes(binding)) {
  console.error(`Name a D1 binding: ${known.join(", ")}`);
  process.exit(2);
}
console.log(await localD1File(WRANGLER_STATE, binding));
