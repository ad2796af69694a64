/**
 * A CI-style test of a keyproof integration in test mode: no SSH key in sight.
 *
 *   KEYPROOF_URL=http://localhost:8787 KEYPROOF_TEST_API_KEY=kp_test_... npx node examples/hosted-flow/ci-test.ts
 *
 * It listens for webhooks on 127.0.0.1, makes a test webhook and a test verification session,
 * has the test helper prove the session's key, and checks what a real integration relies on:
 * the signed `status_changed` webhook arrives and verifies, and its attestation verifies — with
 * test mode accepted explicitly, as only a test suite should.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createKeyproofClient,
  verifyAttestation,
  verifyWebhook,
  type WebhookEvent,
} from "@keyproof/client";

const KEYPROOF_URL = process.env.KEYPROOF_URL ?? "http://localhost:8787";
const API_KEY = process.env.KEYPROOF_TEST_API_KEY ?? "";
assert.match(
  API_KEY,
  /^kp_test_/,
  "Set KEYPROOF_TEST_API_KEY to a test key (npm run seed prints test_api_key)",
);
const keyproof = createKeyproofClient({ baseUrl: KEYPROOF_URL, apiKey: API_KEY });

// 1. A receiver for this run's webhooks.
const deliveries: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    deliveries.push({ headers: request.headers, body });
    response.end("ok");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const { port } = receiver.address() as AddressInfo;

const { data: info, response: asked } = await keyproof.GET("/api/v1/auth/info/");
assert.ok(info, `keyproof at ${KEYPROOF_URL} refused the key (${asked.status})`);
const { data: webhook } = await keyproof.POST("/api/v1/webhooks/", {
  body: { url: `http://127.0.0.1:${port}/keyproof`, events: ["status_changed"] },
});
assert.ok(webhook?.secret && webhook.livemode === false);

try {
  // 2. A test session for a key the user "holds", proved by the test helper.
  const publicKey = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x as string;
  const blob = Buffer.concat([
    Buffer.from([0, 0, 0, 11]),
    Buffer.from("ssh-ed25519"),
    Buffer.from([0, 0, 0, 32]),
    Buffer.from(publicKey, "base64url"),
  ]).toString("base64");
  const { data: session } = await keyproof.POST("/api/v1/ssh/verify/sessions/", {
    body: { keys: [{ public_key: `ssh-ed25519 ${blob}` }], external_id: "ci-user-1" },
  });
  assert.ok(session && session.livemode === false);
  const { data: proven } = await keyproof.POST(
    "/api/v1/test_helpers/ssh/verify/sessions/{session_id}/simulate/",
    { params: { path: { session_id: session.id } }, body: { action: "prove" } },
  );
  assert.equal(proven?.status, "verified");

  // 3. The webhook that ends the session: signed with the webhook's secret, a test event.
  const deadline = Date.now() + 20_000;
  let event: WebhookEvent | undefined;
  while (!event && Date.now() < deadline) {
    const found = deliveries.find((delivery) => delivery.body.includes(session.id));
    if (found)
      event = verifyWebhook({ secret: webhook.secret, headers: found.headers, body: found.body });
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.ok(event, "no webhook arrived within 20 s");
  assert.equal(event.event, "status_changed");
  assert.equal(event.livemode, false);

  // 4. Its attestation verifies — only because test mode is accepted here.
  const token = String((event.payload as { attestation?: string }).attestation);
  const options = {
    jwksUrl: `${KEYPROOF_URL}/.well-known/jwks.json`,
    audience: info.project_id,
    issuer: KEYPROOF_URL,
  };
  await assert.rejects(verifyAttestation(token, options), /test-mode/);
  const claims = await verifyAttestation(token, { ...options, acceptTestMode: true });
  assert.equal(claims.sub, session.id);
  assert.equal(claims.status, "verified");
  assert.equal(claims.livemode, false);
  console.log(`ok: ${session.id} verified in test mode; webhook and attestation checked`);
} finally {
  await keyproof.DELETE("/api/v1/webhooks/{webhook_id}/", {
    params: { path: { webhook_id: webhook.id } },
  });
  receiver.close();
}
