import { generateKeyPairSync } from "node:crypto";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { stopChildrenWithThisProcess } from "./scripts/process-guard.ts";
import { makeKeyFixtures } from "./worker/test/setup/ssh-key-fixtures.ts";

/** A JWK set of two Ed25519 keys, as ATTESTATION_KEYS holds one mid-rotation. */
function twoAttestationKeys(): string {
  const key = () => generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  return JSON.stringify({ keys: [key(), key()] });
}

/**
 * The files that take longest, longest first: started first, they run beside the many short ones
 * instead of after them, alone. (Vitest's own order puts larger files first until it has timed a
 * run, and these are small files that wait a long time.) docs/testing.md keeps their times.
 */
const STARTED_FIRST = [
  "ssh-bridge/test/npm-start.test.ts",
  "ssh-bridge/test/bench-smoke-cost.test.ts",
  "ssh-bridge/test/bench-smoke-shards.test.ts",
  "ssh-bridge/test/fleet.test.ts",
  "ssh-bridge/test/web-app-walk.test.ts",
  "ssh-bridge/test/bench-smoke-ssh.test.ts",
  "ssh-bridge/test/bench-smoke-api.test.ts",
];

/** Bridge-side files that start nothing: the quick check runs them with the worker project. */
const NODE_ONLY = [
  "ssh-bridge/test/client-retries.test.ts",
  "ssh-bridge/test/import-graph.test.ts",
  "ssh-bridge/test/index-migrations.test.ts",
  "ssh-bridge/test/key-decisions.test.ts",
  "ssh-bridge/test/preflight.test.ts",
  "ssh-bridge/test/proxy-protocol.test.ts",
  "ssh-bridge/test/terminal.test.ts",
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const at = STARTED_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? STARTED_FIRST.length : at;
    };
    // A stable sort: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig(async () => {
  // The Worker tests' workerd is Miniflare's child, in this process: it stops with the run, however
  // the run ends (killed outright too).
  stopChildrenWithThisProcess("workerd serve");
  // Each kind of database has its migrations: the directory's, and every index shard's.
  const directoryMigrations = await readD1Migrations("migrations/directory");
  const indexMigrations = await readD1Migrations("migrations/index");
  return {
    test: {
      // This machine has two cores, and most of a bridge file's time is spent waiting (for ssh,
      // workerd, a browser): three files at once keep both cores busy. (Vitest's default here is
      // one less than the cores: one file at a time.)
      maxWorkers: 3,
      sequence: { sequencer: SlowestFirst },
      // The Worker's routine JSON lines (one per request) would bury what a failing test printed;
      // its warnings and errors still show. request-log.test.ts reads the lines it needs itself.
      onConsoleLog: (log: string) => !/^\{"level":"(debug|info)"/.test(log),
      projects: [
        {
          // The Worker inside workerd, with real D1, Durable Objects and Queues.
          plugins: [
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  DIRECTORY_MIGRATIONS: directoryMigrations,
                  INDEX_MIGRATIONS: indexMigrations,
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
                  // Every request line, as tests read them (request-log.test.ts tries the share).
                  REQUEST_LOG_SUCCESS_ONE_IN: "1",
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
            // One workerd for every file a vitest worker runs, not one a file: starting one and
            // migrating its databases took some 10 s a file. Files share its storage, so each test
            // works in projects of its own, and a test that looks for a trace in every database
            // makes traces no other test has (fresh-traces.ts).
            isolate: false,
            // Three files at once share two cores: a test that takes 1 s alone may take several,
            // and a condition polled for (a push landing, an object emptying) as long.
            testTimeout: 30_000,
            expect: { poll: { timeout: 10_000 } },
            setupFiles: ["worker/test/setup/apply-migrations.ts"],
            globalSetup: ["worker/test/setup/http-servers-global.ts"],
          },
        },
        {
          // Plain Node, nothing started: the bridge's rules, its terminal text, PROXY headers,
          // the import graph, the index's migrations over SQLite.
          test: {
            name: "node",
            environment: "node",
            include: NODE_ONLY,
          },
        },
        {
          // Real bridges and a real `wrangler dev`, driven by the OpenSSH client.
          test: {
            name: "bridge",
            environment: "node",
            include: ["ssh-bridge/test/**/*.test.ts"],
            exclude: NODE_ONLY,
            globalSetup: ["ssh-bridge/test/setup/global-worker.ts"],
            setupFiles: ["ssh-bridge/test/setup/end-with-runner.ts"],
            testTimeout: 60_000,
            hookTimeout: 90_000,
          },
        },
      ],
    },
  };
});
