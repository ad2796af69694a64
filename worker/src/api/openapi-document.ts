import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { attestationClaims } from "../schemas/attestations.ts";
import { WEBHOOK_EVENTS, webhookEvent } from "../schemas/webhook-events.ts";
import { API_KEY_HEADER } from "./middleware.ts";

const TAGS = [
  { name: "Auth", description: "Every request carries an API key in `x-api-key`." },
  {
    name: "Collection sessions",
    description:
      "Record the keys a user proves they hold, whatever they are: ordinary keys, FIDO security keys (`security_key` says whether the key was touched, checked a PIN, and its counter) and OpenSSH certificates (`certificate` says what the certificate says and whether it is valid).",
  },
  {
    name: "Verification sessions",
    description:
      "Check that a user holds one (or all) of the keys you give in advance, or a valid certificate from a CA you trust (`certificate_authorities`, `principal`).",
  },
  {
    name: "Signatures",
    description:
      "Proof without SSH, for users whose network blocks it: a signature made with `ssh-keygen -Y sign`, sent over HTTPS. Public.",
  },
  { name: "Session webhooks", description: "Webhooks that hear one session's events only." },
  { name: "Webhooks", description: "Project webhooks, deliveries and retries." },
  { name: "Events", description: "The event log, for reconciliation." },
];

export type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/**
 * The OpenAPI 3.1 document, generated from the routes themselves: an operation exists in the
 * document exactly when it is served. Paths get their canonical trailing slash back (route
 * merging drops it from the collection paths).
 */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>, origin: string): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "keyproof API",
      version: "1.0.0",
      description:
        "Prove that a person controls an SSH private key. Every request carries `x-api-key`; bodies are JSON; errors are application/problem+json; a trailing slash is canonical and may be left out.",
    },
    servers: [{ url: origin }],
    security: [{ apiKey: [] }],
    tags: TAGS,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path.endsWith("/") ? path : `${path}/`,
      item,
    ]),
  );
  return document;
}

/**
 * Every webhook delivery as an OpenAPI 3.1 `webhooks` entry, and the union of them all as the
 * `WebhookEvent` schema, so generated clients get typed events.
 */
export function registerWebhookEvents(app: OpenAPIHono<AppEnv>) {
  for (const [name, schema] of Object.entries(WEBHOOK_EVENTS)) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: name,
      summary: `\`${name.split(".")[1]}\` about a ${name.split(".")[0]?.replace("_", " ")}`,
      description:
        "Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).",
      request: { body: { content: { "application/json": { schema } }, required: true } },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery; 410 disables the webhook" },
      },
    });
  }
  app.openAPIRegistry.register("WebhookEvent", webhookEvent);
  app.openAPIRegistry.register("AttestationClaims", attestationClaims);
}

/** Once per app: how requests authenticate, referenced by the document's `security`. */
export function registerApiKeyScheme(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: API_KEY_HEADER,
    description: "An API key from the project's settings in the web app (`kp_live_...`).",
  });
}
