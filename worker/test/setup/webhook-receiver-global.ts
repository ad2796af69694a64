import type { TestProject } from "vitest/node";
import { startWebhookReceiver } from "../../../test-support/webhook-receiver.ts";

declare module "vitest" {
  export interface ProvidedContext {
    receiverUrl: string;
  }
}

/** A real HTTP receiver on 127.0.0.1 that the Worker under test delivers webhooks to. */
export default async function setup(project: TestProject) {
  const receiver = await startWebhookReceiver();
  project.provide("receiverUrl", receiver.url);
  return () => receiver.close();
}
