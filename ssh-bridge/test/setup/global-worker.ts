import type { TestProject } from "vitest/node";
import { removeState, seedProject, startLocalWorker } from "../../../test-support/local-worker.ts";

declare module "vitest" {
  export interface ProvidedContext {
    workerUrl: string;
    bridgeSecret: string;
    apiKey: string;
    persistTo: string;
  }
}

/** One real local Worker (wrangler dev) shared by the bridge tests. */
export default async function setup(project: TestProject) {
  const worker = await startLocalWorker();
  const { apiKey } = await seedProject(worker);
  project.provide("workerUrl", worker.url);
  project.provide("bridgeSecret", worker.secret);
  project.provide("apiKey", apiKey);
  project.provide("persistTo", worker.persistTo);
  return async () => {
    await worker.stop();
    removeState(worker);
  };
}
