import type { D1Migration } from "cloudflare:test";
import type { KeyFixtures } from "./setup/ssh-key-fixtures.ts";

declare global {
  namespace Cloudflare {
    interface Env {
      DIRECTORY_MIGRATIONS: D1Migration[];
      INDEX_MIGRATIONS: D1Migration[];
      /** Base URL of the test webhook receiver (test-support/webhook-receiver.ts). */
      RECEIVER_URL: string;
      /** Base URL of the fake code forge (test-support/fake-forge.ts), named `fake` in FORGES. */
      FORGE_URL: string;
      TEST_KEYS: KeyFixtures;
    }
  }
}
