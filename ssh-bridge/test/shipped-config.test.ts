import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";
import { removeState, seedProject, startLocalWorker } from "../../test-support/local-worker.ts";
import { apiClient } from "./helpers/api.ts";

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
