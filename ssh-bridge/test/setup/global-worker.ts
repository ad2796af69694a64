import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startFakeForge } from "../../../test-support/fake-forge.ts";
import { removeState, seedProject, startLocalWorker } from "../../../test-support/local-worker.ts";
import { fingerprintSetting, loadOrCreateHostKeys } from "../../src/server-keys.ts";

declare module "vitest" {
  export interface ProvidedContext {
    workerUrl: string;
    bridgeSecret: string;
    apiKey: string;
    /** The same project's `kp_test_` key. */
    testApiKey: string;
    persistTo: string;
    /** The bridges' host keys, whose fingerprints the Worker's proof page shows. */
    hostKeyDir: string;
    /** A code forge on 127.0.0.1, named `fake` in the Worker's FORGES (keys_from). */
    forgeUrl: string;
  }
}

/** One real local Worker (wrangler dev) shared by the bridge tests. */
export default async function setup(project: TestProject) {
  const hostKeyDir = mkdtempSync(join(tmpdir(), "keyproof-hostkeys-"));
  const hostKeys = await loadOrCreateHostKeys(hostKeyDir);
  const forge = await startFakeForge();
  const worker = await startLocalWorker({
    vars: {
      SSH_HOST_KEY_FINGERPRINTS: fingerprintSetting(hostKeys),
      FORGES: JSON.stringify({ fake: forge.url }),
    },
  });
  const { apiKey, testApiKey } = await seedProject(worker);
  project.provide("workerUrl", worker.url);
  project.provide("bridgeSecret", worker.secret);
  project.provide("apiKey", apiKey);
  project.provide("testApiKey", testApiKey);
  project.provide("persistTo", worker.persistTo);
  project.provide("hostKeyDir", hostKeyDir);
  project.provide("forgeUrl", forge.url);
  return async () => {
    await worker.stop();
    await forge.close();
    removeState(worker);
  };
}
