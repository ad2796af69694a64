import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { preflightProblems } from "../../scripts/preflight.ts";

/** The shipped wrangler.toml with each value set as docs/deploying.md says. */
function readyToDeploy(): string {
  let n = 0;
  return readFileSync(join(ROOT, "wrangler.toml"), "utf8")
    .replace(/^SSH_HOST = ".*"$/m, 'SSH_HOST = "ssh.example.com"')
    .replace(/^PUBLIC_URL = ".*"$/m, 'PUBLIC_URL = "https://keyproof.example.com"')
    .replace(/^SSH_HOST_KEY_FINGERPRINTS = ".*"$/m, 'SSH_HOST_KEY_FINGERPRINTS = "SHA256:abc"')
    .replace(/^database_id = ".*"$/gm, () => `database_id = "${crypto.randomUUID()}${n++}"`);
}

describe("npm run preflight", () => {
  const run = (config: string) =>
    spawnSync(process.execPath, [join(ROOT, "scripts", "preflight.ts"), config], {
      encoding: "utf8",
    });

  it("refuses the shipped wrangler.toml's development values, one line each", () => {
    const refused = run(join(ROOT, "wrangler.toml"));
    expect(refused.status).toBe(1);
    for (const named of [
      "PUBLIC_URL",
      "SSH_HOST",
      "SSH_HOST_KEY_FINGERPRINTS",
      "DIRECTORY",
      "INDEX_0",
    ])
      expect(refused.stderr).toContain(`- ${named}`);
  });

  it("passes once each is set as docs/deploying.md says, and refuses a development setting", () => {
    const ready = readyToDeploy();
    const dir = mkdtempSync(join(tmpdir(), "keyproof-preflight-"));
    writeFileSync(join(dir, "ready.toml"), ready);
    const passed = run(join(dir, "ready.toml"));
    expect(passed.stderr).toBe("");
    expect(passed.status).toBe(0);
    writeFileSync(
      join(dir, "dev.toml"),
      ready.replace("[vars]", '[vars]\nRETENTION_DAY_SECONDS = "3"'),
    );
    const dev = run(join(dir, "dev.toml"));
    expect(dev.status).toBe(1);
    expect(dev.stderr).toContain("RETENTION_DAY_SECONDS is set");
  });
});

describe("what preflight reads in wrangler.toml", () => {
  const ready = readyToDeploy();

  it("sees a development setting however TOML writes it: a number, a literal string, a boolean", () => {
    expect(preflightProblems(ready)).toEqual([]);
    for (const written of [
      "RETENTION_DAY_SECONDS = 3",
      "RETENTION_DAY_SECONDS = '3'",
      "RETENTION_DAY_SECONDS = 3.5",
      'RETENTION_DAY_SECONDS = """3"""',
    ])
      expect(preflightProblems(ready.replace("[vars]", `[vars]\n${written}`))).toEqual([
        "RETENTION_DAY_SECONDS is set: it is a development setting; remove it",
      ]);
    expect(preflightProblems(ready.replace("[vars]", "[vars]\nMETERING = true"))).toEqual([
      "METERING is set: it is a development setting; remove it",
    ]);
  });

  it("checks every [env.NAME] as wrangler deploys it, its vars and databases not inherited", () => {
    const withEnv = `${ready}
[env.production.vars]
ENVIRONMENT = "production"
PUBLIC_URL = "https://keyproof.example.com"
SSH_HOST = 'ssh.example.com'
SSH_HOST_KEY_FINGERPRINTS = "SHA256:abc"
TRUST_CF_CONNECTING_IP = "true"
RETIREMENT_GRACE_SECONDS = 20

[[env.production.d1_databases]]
binding = "DIRECTORY"
database_id = "00000000-0000-4000-8000-000000000001"
`;
    expect(preflightProblems(withEnv)).toEqual([
      "[env.production] RETIREMENT_GRACE_SECONDS is set: it is a development setting; remove it",
      '[env.production] DIRECTORY has database_id "00000000-0000-4000-8000-000000000001": put the id `wrangler d1 create` printed',
    ]);
    // `--env` checks that environment alone; one the file lacks is named.
    expect(preflightProblems(withEnv, "production")).toHaveLength(2);
    expect(preflightProblems(ready, "staging")).toEqual(["[env.staging] is not in this file"]);
  });

  it("refuses a file TOML cannot read, in one line, with no stack", () => {
    const dir = mkdtempSync(join(tmpdir(), "keyproof-preflight-"));
    writeFileSync(join(dir, "broken.toml"), 'name = "keyproof"\n[vars\n');
    const refused = spawnSync(
      process.execPath,
      [join(ROOT, "scripts", "preflight.ts"), join(dir, "broken.toml")],
      { encoding: "utf8" },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/- it cannot be read as TOML: /);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});
