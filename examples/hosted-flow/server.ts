/**
 * An integrator's whole keyproof integration, in one small Node web app:
 *
 * 1. A visitor gives the public key they claim to hold; the app creates a verification session
 *    with its own `return_url` (carrying a `state` it remembers) and sends the browser to the
 *    session's hosted proof page.
 * 2. The visitor proves the key there (ssh, or ssh-keygen -Y sign) and the page sends them back.
 * 3. The app checks the attestation offline (keyproof's published keys), that it is about the
 *    session it created for this visitor, and shows the result.
 * 4. Meanwhile keyproof's webhooks arrive, each checked with the webhook's secret.
 *
 *   KEYPROOF_URL=http://localhost:8787 KEYPROOF_API_KEY=kp_live_... npm start -w examples/hosted-flow
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  type AttestationClaims,
  createKeyproofClient,
  verifyAttestation,
  verifyWebhook,
  type WebhookEvent,
} from "@keyproof/client";

const KEYPROOF_URL = process.env.KEYPROOF_URL ?? "http://localhost:8787";
const API_KEY = process.env.KEYPROOF_API_KEY ?? "";
const PORT = Number(process.env.PORT ?? 3000);
/** Where keyproof's webhooks reach this app (it must be reachable from keyproof). */
const PUBLIC_URL = process.env.PUBLIC_URL ?? `http://localhost:${PORT}`;

if (!API_KEY) {
  console.error("Set KEYPROOF_API_KEY (npm run seed prints one).");
  process.exit(2);
}

const keyproof = createKeyproofClient({ baseUrl: KEYPROOF_URL, apiKey: API_KEY });

/** Sessions this app started, by the `state` it put in their return_url. */
const started = new Map<string, { sessionId: string }>();
/** Webhook deliveries received and verified, newest last. */
const received: WebhookEvent[] = [];

const { data: me } = await keyproof.GET("/api/v1/auth/info/");
if (!me) throw new Error("keyproof did not accept the API key");
const projectId = me.project_id;

// One project webhook, made at start: its secret verifies every delivery.
const { data: hook } = await keyproof.POST("/api/v1/webhooks/", {
  body: { url: `${PUBLIC_URL}/webhooks/keyproof`, events: ["verified", "status_changed"] },
});
if (!hook?.secret) throw new Error("could not create the webhook");
const webhookSecret = hook.secret;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(response: ServerResponse, status: number, title: string, body: string) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  response.end(`<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><body style="font-family:system-ui;max-width:40rem;margin:2rem auto;padding:0 1rem">
<h1>${escapeHtml(title)}</h1>${body}</body>`);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function start(request: IncomingMessage, response: ServerResponse) {
  const form = new URLSearchParams(await readBody(request));
  const state = randomBytes(16).toString("hex");
  const { data, error } = await keyproof.POST("/api/v1/ssh/verify/sessions/", {
    body: {
      keys: [{ public_key: form.get("public_key") ?? "" }],
      max_attempts: 3,
      return_url: `${PUBLIC_URL}/done?state=${state}`,
    },
  });
  if (!data)
    return page(
      response,
      400,
      "That key cannot be used",
      `<p>${escapeHtml(error?.detail ?? "")}</p><p><a href="/">Back</a></p>`,
    );
  started.set(state, { sessionId: data.id });
  response.writeHead(303, { location: data.proof_url });
  response.end();
}

async function done(url: URL, response: ServerResponse) {
  const state = url.searchParams.get("state") ?? "";
  const mine = started.get(state);
  const token = url.searchParams.get("keyproof_attestation") ?? "";
  let claims: AttestationClaims;
  try {
    claims = await verifyAttestation(token, {
      jwksUrl: `${KEYPROOF_URL}/.well-known/jwks.json`,
      audience: projectId,
      issuer: KEYPROOF_URL,
    });
  } catch (error) {
    return page(
      response,
      400,
      "Not verified",
      `<p>The result could not be checked: ${escapeHtml(String(error))}</p>`,
    );
  }
  // The attestation must be about the session this visitor started, not any other.
  if (!mine || claims.sub !== mine.sessionId)
    return page(response, 400, "Not verified", "<p>This result is for another session.</p>");
  const verified = claims.status === "verified";
  page(
    response,
    200,
    verified ? "Verified" : `Not verified (${claims.status})`,
    `<p id="result" data-status="${escapeHtml(claims.status)}">${
      verified ? "You hold the key you gave." : "The key was not proven."
    }</p><ul>${claims.keys.map((key) => `<li><code>${escapeHtml(key.public_key_sha256)}</code> by ${key.method}</li>`).join("")}</ul>`,
  );
}

async function webhook(request: IncomingMessage, response: ServerResponse) {
  const body = await readBody(request);
  try {
    received.push(verifyWebhook({ secret: webhookSecret, headers: request.headers, body }));
    response.writeHead(204).end();
  } catch {
    response.writeHead(400).end("bad signature");
  }
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", PUBLIC_URL);
  try {
    if (request.method === "POST" && url.pathname === "/start")
      return await start(request, response);
    if (request.method === "GET" && url.pathname === "/done") return await done(url, response);
    if (request.method === "POST" && url.pathname === "/webhooks/keyproof")
      return await webhook(request, response);
    if (request.method === "GET" && url.pathname === "/events") {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify(received));
    }
    if (request.method === "GET" && url.pathname === "/")
      return page(
        response,
        200,
        "Prove your SSH key",
        `<form method="post" action="/start"><p><label>Your public key (the .pub file)<br>
<textarea name="public_key" rows="3" cols="60" required></textarea></label></p>
<p><button>Prove it</button></p></form>`,
      );
    page(response, 404, "Not found", "");
  } catch (error) {
    page(response, 500, "Something went wrong", `<p>${escapeHtml(String(error))}</p>`);
  }
});
server.listen(PORT, () => console.log(`example app on ${PUBLIC_URL}`));
