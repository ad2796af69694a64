import type { TestProject } from "vitest/node";
import { startFakeForge } from "../../../test-support/fake-forge.ts";
import { startWebhookReceiver } from "../../../test-support/webhook-receiver.ts";

declare module "vitest" {
  export interface ProvidedContext {
    receiverUrl: string;
    forgeUrl: string;
  }
}

/**
 * Real HTTP servers on 127.0.0.1 the Worker under test reaches: a receiver it delivers webhooks
 * to, and a code forge whose accounts list keys (`keys_from`).
 */
export default async function setup(project: TestProject) {
  const receiver = await startWebhookReceiver();
  const forge = await startFakeForge();
  project.provide("receiverUrl", receiver.url);
  project.provide("forgeUrl", forge.url);
  return async () => {
    await receiver.close();
    await forge.close();
  };
}
