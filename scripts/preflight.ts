/**
 * `npm run preflight [-- [--env NAME] path/to/wrangler.toml]`: refuses a configuration that still holds the
 * values a local run uses, before `wrangler deploy` (which checks the configuration's shape, not
 * whether it names localhost). One line each, exit 1; exit 0 once nothing is left (docs/deploying.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { ROOT } from "./local-dev.ts";

/** What wrangler.toml says that a deploy depends on: its `[vars]` and each D1 database. */
export interface DeployedConfig {
  vars: Record<string, string>;
  databases: { binding: string; id: string }[];
}

type Table = Record<string, unknown>;
const tableOf = (value: unknown): Table =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};

/** One environment's settings: `vars` and `d1_databases` are not inherited by `[env.NAME]`. */
function deployedIn(table: Table): DeployedConfig {
  const vars: Record<string, string> = {};
  // A number or a boolean is what the Worker reads as text: `= 3` is set as surely as `= "3"`.
  for (const [name, value] of Object.entries(tableOf(table.vars))) vars[name] = String(value);
  const databases = (Array.isArray(table.d1_databases) ? table.d1_databases : []).map(
    (database) => {
      const { binding, database_id } = tableOf(database);
      return { binding: String(binding ?? ""), id: String(database_id ?? "") };
    },
  );
  return { vars, databases };
}

/**
 * Each deployable configuration of a wrangler.toml, by the name `wrangler deploy --env` takes
 * ("" for the top level), read with a TOML parser: basic and literal strings, numbers, inline
 * tables and every `[env.NAME]` are seen as wrangler sees them.
 */
export function readDeployedConfigs(text: string): Map<string, DeployedConfig> {
  const parsed = parse(text) as Table;
  const configs = new Map([["", deployedIn(parsed)]]);
  for (const [name, table] of Object.entries(tableOf(parsed.env)))
    configs.set(name, deployedIn(tableOf(table)));
  return configs;
}

/** Hosts only this machine reaches: what a local run names, never what users should. */
const LOCAL_HOST = /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0)$/i;
/** The ids wrangler.toml ships with: `wrangler d1 create` prints the real ones. */
const PLACEHOLDER_ID = /^00000000-0000-4000-8000-0000000000[0-9a-f]{2}$/;
/** Settings only a local run may have (config.ts refuses them in production at start, too). */
const DEVELOPMENT_ONLY = [
  "SIMULATED_D1_PRIMARY_MS",
  "SIMULATED_D1_QUERY_MS",
  "RETENTION_DAY_SECONDS",
  "RETIREMENT_GRACE_SECONDS",
  "METERING",
];

/** Each value a production deploy must not have, in a sentence naming it. */
export function deployProblems({ vars, databases }: DeployedConfig): string[] {
  const problems: string[] = [];
  if (vars.ENVIRONMENT !== "production")
    problems.push(
      `ENVIRONMENT is "${vars.ENVIRONMENT ?? ""}": set it to "production" (only local runs deliver webhooks to private addresses)`,
    );
  let origin: URL | null = null;
  try {
    origin = new URL(vars.PUBLIC_URL ?? "");
  } catch {
    // said below
  }
  if (origin?.protocol !== "https:" || LOCAL_HOST.test(origin?.hostname ?? ""))
    problems.push(
      `PUBLIC_URL is "${vars.PUBLIC_URL ?? ""}": set it to the Worker's public https origin (proof_url and signature_url start with it)`,
    );
  if (!vars.SSH_HOST || LOCAL_HOST.test(vars.SSH_HOST))
    problems.push(
      `SSH_HOST is "${vars.SSH_HOST ?? ""}": set it to the name users type (ssh_command shows it)`,
    );
  if (!(vars.SSH_HOST_KEY_FINGERPRINTS ?? "").trim())
    problems.push(
      "SSH_HOST_KEY_FINGERPRINTS is empty: set it to the fingerprints the bridge prints at its first start (the proof page shows them)",
    );
  if (vars.TRUST_CF_CONNECTING_IP !== "true")
    problems.push(
      'TRUST_CF_CONNECTING_IP is not "true": on Cloudflare the edge names the client, and per-address limits need it',
    );
  for (const name of DEVELOPMENT_ONLY)
    if (vars[name] !== undefined)
      problems.push(`${name} is set: it is a development setting; remove it`);
  for (const { binding, id } of databases)
    if (!id || PLACEHOLDER_ID.test(id))
      problems.push(
        `${binding || "a D1 database"} has database_id "${id}": put the id \`wrangler d1 create\` printed`,
      );
  return problems;
}

/** Every environment's problems, each line naming its `[env.NAME]` (none for the top level). */
export function preflightProblems(text: string, only?: string): string[] {
  const configs = readDeployedConfigs(text);
  if (only !== undefined && !configs.has(only)) return [`[env.${only}] is not in this file`];
  return [...configs].flatMap(([name, config]) =>
    only !== undefined && name !== only
      ? []
      : deployProblems(config).map((problem) => (name ? `[env.${name}] ${problem}` : problem)),
  );
}

if (import.meta.main) {
  // `--env NAME` checks what `wrangler deploy --env NAME` deploys; otherwise every environment.
  const args = process.argv.slice(2);
  const envAt = args.indexOf("--env");
  const only = envAt === -1 ? undefined : (args.splice(envAt, 2)[1] ?? "");
  const path = args[0] ?? join(ROOT, "wrangler.toml");
  let problems: string[];
  try {
    problems = preflightProblems(readFileSync(path, "utf8"), only);
  } catch (error) {
    problems = [`it cannot be read as TOML: ${(error as Error).message.split("\n")[0]}`];
  }
  if (problems.length > 0) {
    console.error(`${path} is not ready to deploy:`);
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exit(1);
  }
  console.log(
    `${path} is ready to deploy. (Secrets are not in it: npx wrangler secret list shows BRIDGE_SECRET and ATTESTATION_KEYS.)`,
  );
}
