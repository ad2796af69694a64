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
 * It is meant to be copied: the `state` in the return URL is bound to the visitor's browser (a
 * cookie), so a result cannot be replayed into someone else's; it keeps one webhook however often
 * it restarts; and it shows a visitor nothing but their own result.
 *
 *   KEYPROOF_URL=http://localhost:8787 KEYPROOF_API_KEY=kp_live_... PORT=3000 npm start -w examples/hosted-flow
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

/** The cookie that binds a `state` to the browser that started it. */
const STATE_COOKIE = "example_state";

/** Sessions this app started, by the `state` it put in their return_url. */
const started = new Map<string, { sessionId: string }>();
/** Webhook deliveries received and verified, by session id. */
const received = new Map<string, WebhookEvent[]>();

/** One line and an exit when keyproof cannot be reached: nothing else can work. */
async function reachKeyproof() {
  try {
    const { data, error } = await keyproof.GET("/api/v1/auth/info/");
    if (data) return data;
    console.error(`keyproof at ${KEYPROOF_URL} refused the API key: ${error?.detail ?? "unknown"}`);
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    console.error(
      `cannot reach keyproof at ${KEYPROOF_URL} (${reason}); is it running? Set KEYPROOF_URL.`,
    );
  }
  process.exit(2);
}
const { project_id: projectId, livemode } = await reachKeyproof();

/**
 * The project webhook this app listens with: the one already made for its URL (a restart does
 * not make another), or a new one. Its secret verifies every delivery; it is deleted when the
 * app stops, so no webhook is left failing at an address nobody listens on.
 */
async function listeningWebhook(url: string): Promise<{ id: string; secret: string }> {
  const { data: hooks } = await keyproof.GET("/api/v1/webhooks/");
  const existing = hooks?.items.find((hook) => hook.url === url);
  if (existing) {
    const { data } = await keyproof.GET("/api/v1/webhooks/{webhook_id}/secret/", {
      params: { path: { webhook_id: existing.id } },
    });
    if (data) return { id: existing.id, secret: data.secret };
  }
  const { data: hook } = await keyproof.POST("/api/v1/webhooks/", {
    body: { url, events: ["verified", "status_changed"] },
  });
  if (!hook?.secret) throw new Error("could not create the webhook");
  return { id: hook.id, secret: hook.secret };
}
const { id: webhookId, secret } = await listeningWebhook(`${PUBLIC_URL}/webhooks/keyproof`);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(response: ServerResponse, status: number, title: string, body: string) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  response.end(`<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui;max-width:40rem;margin:2rem auto;padding:0 1rem}code{overflow-wrap:anywhere}</style>
<h1>${escapeHtml(title)}</h1>${body}`);
}

/** The `state` this browser's cookie holds, if any. */
function stateOf(request: IncomingMessage): string | undefined {
  const cookies = new URLSearchParams((request.headers.cookie ?? "").replace(/;\s*/g, "&"));
  return cookies.get(STATE_COOKIE) ?? undefined;
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
  // The state is this browser's: a result that comes back in another browser is not accepted.
  response.writeHead(303, {
    location: data.proof_url,
    "set-cookie": `${STATE_COOKIE}=${state}; Path=/done; HttpOnly; SameSite=Lax; Max-Age=3600`,
  });
  response.end();
}

async function done(request: IncomingMessage, url: URL, response: ServerResponse) {
  const state = url.searchParams.get("state") ?? "";
  if (state !== stateOf(request))
    return page(
      response,
      400,
      "Not verified",
      "<p>This result was not started in this browser.</p>",
    );
  const mine = started.get(state);
  const token = url.searchParams.get("keyproof_attestation") ?? "";
  let claims: AttestationClaims;
  try {
    claims = await verifyAttestation(token, {
      jwksUrl: `${KEYPROOF_URL}/.well-known/jwks.json`,
      audience: projectId,
      issuer: KEYPROOF_URL,
      // Run with a test key (kp_test_…), the app accepts test attestations; a live app never does.
      acceptTestMode: !livemode,
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
  const events = (received.get(claims.sub) ?? []).map((event) => event.event);
  page(
    response,
    200,
    verified ? "Verified" : `Not verified (${claims.status})`,
    `<p id="result" data-status="${escapeHtml(claims.status)}">${
      verified ? "You hold the key you gave." : "The key was not proven."
    }</p><ul>${claims.keys.map((key) => `<li><code>${escapeHtml(key.public_key_sha256)}</code> by ${key.method}</li>`).join("")}</ul>
<p class="webhooks">Webhooks received for this session: <span id="webhooks">${escapeHtml(events.join(", ") || "none yet")}</span></p>`,
  );
}

async function webhook(request: IncomingMessage, response: ServerResponse) {
  const body = await readBody(request);
  let event: WebhookEvent;
  try {
    event = verifyWebhook({ secret, headers: request.headers, body });
  } catch {
    return response.writeHead(400).end("bad signature");
  }
  received.set(event.id, [...(received.get(event.id) ?? []), event]);
  console.log(`webhook ${event.event} for ${event.id} (${request.headers["webhook-id"]})`);
  response.writeHead(204).end();
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", PUBLIC_URL);
  try {
    if (request.method === "POST" && url.pathname === "/start")
      return await start(request, response);
    if (request.method === "GET" && url.pathname === "/done")
      return await done(request, url, response);
    if (request.method === "POST" && url.pathname === "/webhooks/keyproof")
      return await webhook(request, response);
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

/** Stopping (Ctrl-C, SIGTERM): the webhook goes with the app, then the app. */
async function stop() {
  server.close();
  await keyproof
    .DELETE("/api/v1/webhooks/{webhook_id}/", { params: { path: { webhook_id: webhookId } } })
    .catch(() => undefined);
  process.exit(0);
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
