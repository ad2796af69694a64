/**
 * The local stand-in for D1's Time Travel, for rehearsing the restore runbook (docs/operations.md)
 * on `npm start`'s databases (under `STATE_DIR`, or wrangler's default), with `npm start` stopped:
 *   npm run --silent db:local -- save INDEX_0 /tmp/index-0.sqlite      a consistent copy (VACUUM INTO:
 *                                                                     what the write-ahead log holds too)
 *   npm run --silent db:local -- restore INDEX_0 /tmp/index-0.sqlite   the binding's database becomes it
 *   npm run --silent db:local -- path INDEX_0                          the SQLite file behind a binding
 */
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { localD1File } from "../test-support/local-d1.ts";
import { d1Bindings, WRANGLER_STATE } from "./local-dev.ts";

const [command = "", binding = "", copy = ""] = process.argv.slice(2);
const known = d1Bindings();
const refuse = (message: string) => {
  console.error(message);
  process.exit(2);
};
if (!known.includes(binding)) refuse(`Name a D1 binding: ${known.join(", ")}`);
const file = await localD1File(WRANGLER_STATE, binding);
if (command === "path") console.log(file);
else if (command === "save") {
  if (!copy || existsSync(copy)) refuse("Name a new file to save the database to");
  const db = new DatabaseSync(file);
  try {
    db.prepare("VACUUM INTO ?").run(copy);
  } finally {
    db.close();
  }
} else if (command === "restore") {
  if (!copy || !existsSync(copy)) refuse("Name the saved file to restore the database from");
  copyFileSync(copy, file);
  // The log of the database it replaces would be replayed over it.
  for (const suffix of ["-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
} else refuse("Say save, restore or path");
