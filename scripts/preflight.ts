/**
 * `npm run preflight [-- path/to/wrangler.toml]`: refuses a configuration that still holds the
 * values a local run uses, before `wrangler deploy` (which checks the configuration's shape, not
 * whether it names localhost). One line each, exit 1; exit 0 once nothing is left (docs/deploying.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./local-dev.ts";

/** What wrangler.toml says that a deploy depends on: its `[vars]` and each D1 database. */
export interface DeployedConfig {
  vars: Record<string, string>;
  databases: { binding: string; id: string }[];
}

/**
 * The `[vars]` strings and the `[[d1_databases]]` of a wrangler.toml, as keyproof's is written:
 * `NAME = "value"` lines. (No TOML parser is a dependency; anything else in the file is ignored.)
 */
export function readDeployedConfig(text: string): DeployedConfig {
  const vars: Record<string, string> = {};
  const databases: { binding: string; id: string }[] = [];
  let table = "";
  let database: { binding: string; id: string } | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      table = header[1] ?? "";
      database = table === "d1_databases" ? { binding: "", id: "" } : null;
      if (database) databases.push(database);
      continue;
    }
    const pair = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"$/.exec(line);
    if (!pair) continue;
    const [, name = "", value = ""] = pair;
    if (table === "vars") vars[name] = value;
    if (database && name === "binding") database.binding = value;
    if (database && name === "database_id") database.id = value;
  }
  return { vars, databases };
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

if (import.meta.main) {
  const path = process.argv[2] ?? join(ROOT, "wrangler.toml");
  const problems = deployProblems(readDeployedConfig(readFileSync(path, "utf8")));
  if (problems.length > 0) {
    console.error(`${path} is not ready to deploy:`);
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exit(1);
  }
  console.log(
    `${path} is ready to deploy. (Secrets are not in it: npx wrangler secret list shows BRIDGE_SECRET and ATTESTATION_KEYS.)`,
  );
}
