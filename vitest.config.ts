import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { makeKeyFixtures } from "./worker/test/setup/ssh-key-fixtures.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, TEST_KEYS: makeKeyFixtures() },
              },
            }),
          ],
          test: {
            name: "worker",
            include: ["worker/test/**/*.test.ts"],
            setupFiles: ["worker/test/setup/apply-migrations.ts"],
          },
        },
        {
          test: {
            name: "bridge",
            environment: "node",
            include: ["ssh-bridge/test/**/*.test.ts"],
            globalSetup: ["ssh-bridge/test/setup/global-worker.ts"],
            testTimeout: 60_000,
            hookTimeout: 90_000,
          },
        },
      ],
    },
  };
});
