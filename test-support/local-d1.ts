import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { d1Bindings, ROOT, wranglerAsync } from "../scripts/local-dev.ts";

/**
 * Local D1 state for the Workers tests and benches start. Migrating a new state directory takes
 * wrangler some 20 s (a process a database); it is done once per set of migrations, into a template
 * kept under node_modules/.cache, and each Worker's state starts as a copy of it. The template
 * also knows which SQLite file is which binding, so a project is seeded by writing its rows
 * straight into the files, not by a `wrangler d1 execute` a statement list (some 3 s each).
 */

const CACHE = join(ROOT, "node_modules", ".cache", "keyproof");
const D1_DIR = join("v3", "d1", "miniflare-D1DatabaseObject");
/** A template being made by another process is waited for this long at most. */
const LOCK_PATIENCE_MS = 180_000;
/** How long a write waits for a running workerd that holds the file's lock. */
const BUSY_TIMEOUT_MS = 10_000;

interface Template {
  /** The migrated state directory to copy. */
  dir: string;
  /** Each D1 binding's SQLite file, relative to a state directory. */
  files: Record<string, string>;
}

const made = new Map<string, Promise<Template>>();

/** The migrated template for a wrangler configuration (wrangler.toml by default). */
export function migratedTemplate(config = join(ROOT, "wrangler.toml")): Promise<Template> {
  const key = templateKey(config);
  let template = made.get(key);
  if (!template) {
    template = readyTemplate(key, config);
    made.set(key, template);
  }
  return template;
}

/** Makes `persistTo` a state directory with every D1 database of `config` migrated. */
export async function copyMigratedState(persistTo: string, config?: string): Promise<void> {
  const template = await migratedTemplate(config);
  mkdirSync(persistTo, { recursive: true });
  cpSync(join(template.dir, "state"), persistTo, { recursive: true });
}

/** The SQLite file of a D1 binding's local database under `persistTo`. */
export async function localD1File(persistTo: string, binding: string, config?: string) {
  const file = (await migratedTemplate(config)).files[binding];
  if (!file) throw new Error(`no D1 binding ${binding} in ${config ?? "wrangler.toml"}`);
  return join(persistTo, file);
}

/** Rows of a query on a local D1 database's file. */
export function queryD1File<T>(file: string, sql: string, ...params: (string | number)[]): T[] {
  const db = openD1File(file);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Runs statements on a local D1 database's file, in one transaction. */
export function writeD1File(file: string, statements: string[]) {
  const db = openD1File(file);
  try {
    db.exec("BEGIN IMMEDIATE");
    for (const statement of statements) db.exec(statement);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

function openD1File(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  // A running workerd may hold the file's lock for a moment: wait as D1 would.
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

/** Names the migrations, the configuration and wrangler: any change makes a new template. */
function templateKey(config: string): string {
  const hash = createHash("sha256");
  const migrations = join(ROOT, "migrations");
  for (const file of filesUnder(migrations).sort()) {
    hash.update(relative(migrations, file));
    hash.update(readFileSync(file));
  }
  hash.update(readFileSync(config));
  hash.update(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json")));
  return `d1-${hash.digest("hex").slice(0, 16)}`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The template, made now unless this or another process made it already. */
async function readyTemplate(key: string, config: string): Promise<Template> {
  const dir = join(CACHE, key);
  const manifest = join(dir, "bindings.json");
  const lock = `${dir}.lock`;
  mkdirSync(CACHE, { recursive: true });
  const deadline = Date.now() + LOCK_PATIENCE_MS;
  for (;;) {
    if (existsSync(manifest)) return { dir, files: JSON.parse(readFileSync(manifest, "utf8")) };
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // Another process is making it; one that died leaves a lock older than it could take.
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - since > LOCK_PATIENCE_MS) rmSync(lock, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`${lock} was held for too long`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    if (existsSync(manifest)) return { dir, files: JSON.parse(readFileSync(manifest, "utf8")) };
    const building = `${dir}.${process.pid}-${randomBytes(4).toString("hex")}`;
    const files = await migrateOneByOne(join(building, "state"), config);
    writeFileSync(join(building, "bindings.json"), JSON.stringify(files));
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
    return { dir, files };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Migrates each binding's database in turn: the SQLite file that appears is that binding's.
 * Each file is then checkpointed, so a copy is one file a database.
 */
async function migrateOneByOne(state: string, config: string) {
  const files: Record<string, string> = {};
  const d1Dir = join(state, D1_DIR);
  const databases = () =>
    existsSync(d1Dir)
      ? readdirSync(d1Dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")
      : [];
  for (const binding of d1Bindings(config)) {
    const before = new Set(databases());
    await wranglerAsync(["d1", "migrations", "apply", binding, "--local"], state, config);
    const [file, ...more] = databases().filter((name) => !before.has(name));
    if (!file || more.length > 0)
      throw new Error(`migrating ${binding} made ${more.length + (file ? 1 : 0)} new databases`);
    files[binding] = join(D1_DIR, file);
  }
  for (const file of Object.values(files)) {
    const db = new DatabaseSync(join(state, file));
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  }
  return files;
}
