import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { removeState, seedProject, startLocalWorker } from "../../test-support/local-worker.ts";
import { apiClient } from "./helpers/api.ts";

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
    const shipped = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    let n = 0;
    const ready = shipped
      .replace(/^SSH_HOST = ".*"$/m, 'SSH_HOST = "ssh.example.com"')
      .replace(/^PUBLIC_URL = ".*"$/m, 'PUBLIC_URL = "https://keyproof.example.com"')
      .replace(/^SSH_HOST_KEY_FINGERPRINTS = ".*"$/m, 'SSH_HOST_KEY_FINGERPRINTS = "SHA256:abc"')
      .replace(/^database_id = ".*"$/gm, () => `database_id = "${crypto.randomUUID()}${n++}"`);
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

describe("the configuration that ships", () => {
  it("is production: wrangler.toml sets ENVIRONMENT to production", () => {
    const config = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    expect(config).toMatch(/^ENVIRONMENT = "production"$/m);
  });

  it("refuses webhooks to loopback and private addresses when deployed as documented", async () => {
    const worker = await startLocalWorker({ shippedEnvironment: true });
    try {
      const { apiKey } = await seedProject(worker);
      const api = apiClient(worker.url, apiKey);
      for (const url of [
        "http://127.0.0.1:9000/hook",
        "http://localhost./hook",
        "http://10.0.0.1/",
      ])
        await api.request("POST", "/webhooks/", { url }, 400);
      await api.request("POST", "/webhooks/", { url: "https://hooks.example.com/k" }, 201);
    } finally {
      await worker.stop();
      removeState(worker);
    }
  });
});
