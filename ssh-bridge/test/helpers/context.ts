import { afterAll, beforeAll, inject } from "vitest";
import { apiClient } from "./api.ts";
import { startBridge } from "./bridge.ts";

/** The shared Worker, one bridge for the file, and an API client for the seeded project. */
export function useBridge(overrides: Parameters<typeof startBridge>[1] = {}) {
  const worker = { url: inject("workerUrl"), secret: inject("bridgeSecret") };
  const context = {
    worker,
    api: apiClient(worker.url, inject("apiKey")),
    bridge: null as unknown as Awaited<ReturnType<typeof startBridge>>,
  };
  beforeAll(async () => {
    context.bridge = await startBridge(worker, overrides);
  });
  afterAll(async () => {
    await context.bridge?.close();
  });
  return context;
}
