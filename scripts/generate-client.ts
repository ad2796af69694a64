/**
 * `npm run client:generate`: serves the Worker locally, reads its OpenAPI document and writes the
 * typed client's types (client/src/schema.d.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeState, startLocalWorker } from "../test-support/local-worker.ts";
import { CLIENT_TYPES_PATH, clientTypes } from "./client-types.ts";
import { ROOT } from "./local-dev.ts";

const worker = await startLocalWorker();
try {
  const document = await (await fetch(`${worker.url}/api/v1/openapi.json`)).json();
  writeFileSync(join(ROOT, CLIENT_TYPES_PATH), await clientTypes(document));
  console.log(`wrote ${CLIENT_TYPES_PATH}`);
} finally {
  await worker.stop();
  removeState(worker);
}
