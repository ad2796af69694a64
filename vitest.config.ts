import { generateKeyPairSync } from "node:crypto";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { makeKeyFixtures } from "./worker/test/setup/ssh-key-fixtures.ts";

/** A JWK set of two Ed25519 keys, as ATTESTATION_KEYS holds one mid-rotation. */
function twoAttestationKeys(): string {
  const key = () => generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  return JSON.stringify({ keys: [key(), key()] });
}

/** `.sql` files import as their text, as wrangler.toml's Text rule has them in the Worker. */
const sqlAsText: Plugin = {
  name: "sql-as-text",
  transform: (code, id) =>
    id.endsWith(".sql") ? { code: `export default ${JSON.stringify(code)};`, map: null } : null,
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [sqlAsText],
    test: {
      // The Worker's routine JSON lines (one per request) would bury what a failing test printed;
      // its warnings and errors still show. request-log.test.ts reads the lines it needs itself.
      onConsoleLog: (log: string) => !/^\{"level":"(debug|info)"/.test(log),
      projects: [
        {
          // The Worker inside workerd, with real D1, Durable Objects and Queues.
          plugins: [
            sqlAsText,
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_KEYS: makeKeyFixtures(),
                  BRIDGE_SECRET: "test-bridge-secret",
                  // Two keys: the first signs, both are published (a rotation under way).
                  ATTESTATION_KEYS: twoAttestationKeys(),
                  BRIDGE_SECRET_PREVIOUS: "previous-bridge-secret",
                  RECEIVER_URL: inject("receiverUrl"),
                  // A fake forge on 127.0.0.1 beside the real ones (keys_from).
                  FORGES: JSON.stringify({
                    fake: inject("forgeUrl"),
                    closed: "http://127.0.0.1:9",
                  }),
                  FORGE_URL: inject("forgeUrl"),
                  WEBHOOK_TIMEOUT_SECONDS: "1",
                  SSH_HOST_KEY_FINGERPRINTS: "ED25519 SHA256:hostkeyone, SHA256:hostkeytwo",
                  // The receiver runs on 127.0.0.1; the shipped wrangler.toml says production.
                  ENVIRONMENT: "development",
                  // The D1 binding behind its gate, with no delay: tests hold or count the primary.
                  SIMULATED_D1_PRIMARY_MS: "0",
                },
              },
            })),
          ],
          test: {
            name: "worker",
            include: ["worker/test/**/*.test.ts"],
            setupFiles: ["worker/test/setup/apply-migrations.ts"],
            globalSetup: ["worker/test/setup/http-servers-global.ts"],
          },
        },
        {
          // Real bridges and a real `wrangler dev`, driven by the OpenSSH client.
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
