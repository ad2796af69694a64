import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { type ErrorStatus, STATUS_TITLES } from "../lib/errors.ts";
import { attestationClaims } from "../schemas/attestations.ts";
import { problem } from "../schemas/common.ts";
import { WEBHOOK_EVENTS, webhookEvent } from "../schemas/webhook-events.ts";
import { BOOKMARK_HEADER, BOOKMARK_MAX_LENGTH, BOOKMARK_PATTERN } from "./bookmarks.ts";
import { API_KEY_HEADER } from "./middleware.ts";
import { WHEN } from "./responses.ts";

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
  {
    name: "Project",
    description: "The API key's project: how long its closed sessions are kept (`retention_days`).",
  },
  {
    name: "Audit log",
    description:
      "Every change to the project by a member or an API key: who made it, when and from where.",
  },
  {
    name: "Test helpers",
    description:
      "Test mode: with a `kp_test_` key, drive a test session to each outcome without an SSH key in sight. A live key gets 404, as for an unknown path.",
  },
];

export type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/**
 * The OpenAPI 3.1 document, generated from the routes themselves: an operation exists in the
 * document exactly when it is served. Paths get their canonical trailing slash back (route
 * merging drops it from the collection paths).
 */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>, publicUrl: string): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "keyproof API",
      version: "1.0.0",
      description:
        "Prove that a person controls an SSH private key. Every request carries `x-api-key`; bodies are JSON; errors are application/problem+json; a trailing slash is canonical and may be left out.",
    },
    // The service's own address, never the request's Host header.
    servers: [{ url: publicUrl.replace(/\/+$/, "") }],
    security: [{ apiKey: [] }],
    tags: TAGS,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path.endsWith("/") ? path : `${path}/`,
      item,
    ]),
  );
  // Webhooks are named by their event (`collect_session.key_collected`): they have no path,
  // but the registry puts the API's mount point before each name.
  document.webhooks = Object.fromEntries(
    Object.entries(document.webhooks ?? {}).map(([name, item]) => [
      name.replace(/^.*\//, ""),
      item,
    ]),
  );
  describeMiddleware(document);
  describeCrossFieldRules(document);
  return document;
}

/** `timeout` and `expired_at` are alternatives (schemas/sessions.ts, `oneExpiry`). */
const ONE_EXPIRY = {
  not: { required: ["timeout", "expired_at"] },
  description: "`timeout` and `expired_at` are alternatives: give one at most",
};

/**
 * The rules the API enforces across fields (schemas/sessions.ts refines them), stated in the
 * request schemas as JSON Schema says them, so that a client generated from the document, or a
 * fuzzer driven by it, never sends what the API refuses: one expiry at most; a verification
 * session needs a key, a forge account or a CA; `principal` needs a CA.
 */
function describeCrossFieldRules(document: OpenApiDocument) {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const nonEmpty = (field: string) => ({
    required: [field],
    properties: { [field]: { minItems: 1 } },
  });
  for (const name of [
    "CollectSessionCreate",
    "CollectSessionPatch",
    "VerifySessionCreate",
    "VerifySessionPatch",
  ]) {
    const schema = schemas[name];
    if (schema) schema.allOf = [...((schema.allOf as unknown[]) ?? []), { not: ONE_EXPIRY.not }];
  }
  const verify = schemas.VerifySessionCreate;
  if (!verify) return;
  // Inside allOf, so that a generated client types it as the object and one of these required.
  verify.allOf = [
    ...((verify.allOf as unknown[]) ?? []),
    { anyOf: [nonEmpty("keys"), nonEmpty("keys_from"), nonEmpty("certificate_authorities")] },
  ];
  verify.dependentSchemas = { principal: nonEmpty("certificate_authorities") };
  verify.description = [
    verify.description,
    `${ONE_EXPIRY.description}; at least one of \`keys\`, \`keys_from\` and \`certificate_authorities\` is not empty; \`principal\` needs \`certificate_authorities\`.`,
  ]
    .filter(Boolean)
    .join(" ");
}

type Operation = {
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { description: string; headers?: object; content?: object }>;
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * What the middleware mounted on every API route adds to each operation (app.ts: body limit,
 * bookmarks, the API key, the rate limit, Idempotency-Key), said once here so that no route can
 * leave one out: its request headers, the problems it answers with, and the response headers.
 * Public operations (`security: []`) pass none of it and describe themselves.
 */
function describeMiddleware(document: OpenApiDocument) {
  const components = document.components ?? {};
  document.components = components;
  components.parameters = {
    ...components.parameters,
    Bookmark: {
      name: BOOKMARK_HEADER,
      in: "header",
      required: false,
      description:
        "The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400",
      schema: { type: "string", maxLength: BOOKMARK_MAX_LENGTH, pattern: BOOKMARK_PATTERN },
    },
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    },
  };
  components.headers = {
    ...components.headers,
    RequestId: {
      description: "Identifies this request in keyproof's logs; quote it when asking about one",
      schema: { type: "string" },
    },
    Bookmark: {
      description: `Send it back as \`${BOOKMARK_HEADER}\` on your next request to read at least this fresh`,
      schema: { type: "string", maxLength: BOOKMARK_MAX_LENGTH, pattern: BOOKMARK_PATTERN },
    },
    RetryAfter: {
      description: "Seconds to wait before trying again",
      schema: { type: "integer", minimum: 0 },
    },
    IdempotentReplayed: {
      description:
        "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
      schema: { type: "string", enum: ["true"] },
    },
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const operation = value;
      const isPublic = operation.security?.length === 0;
      const hasPathParameters = (operation.parameters ?? []).some(
        (parameter) => (parameter as { in?: string }).in === "path",
      );
      const added: ErrorStatus[] = isPublic ? [] : [400, 401, 429, 503];
      if (!isPublic && hasPathParameters) added.push(404);
      if (!isPublic && operation.requestBody) added.push(413, 415);
      if (!isPublic && method === "post") added.push(409, 410, 422);
      for (const status of added) addProblem(operation, status);
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers: Record<string, unknown> = { "x-request-id": ref("headers", "RequestId") };
        if (!isPublic) headers[BOOKMARK_HEADER] = ref("headers", "Bookmark");
        if (status === "429" || status === "503")
          headers["Retry-After"] = ref("headers", "RetryAfter");
        if (!isPublic && method === "post" && status.startsWith("2"))
          headers["Idempotent-Replayed"] = ref("headers", "IdempotentReplayed");
        response.headers = { ...headers, ...response.headers };
      }
      if (isPublic) continue;
      operation.parameters = [
        ...(operation.parameters ?? []),
        ref("parameters", "Bookmark"),
        ...(method === "post" ? [ref("parameters", "IdempotencyKey")] : []),
      ];
    }
  }
}

/** The problem `status`, as the middleware means it, added to what the route says of it. */
function addProblem(operation: Operation, status: ErrorStatus) {
  const meaning = WHEN[status] ?? STATUS_TITLES[status];
  const declared = operation.responses[String(status)];
  if (declared) {
    if (!declared.description.includes(meaning))
      declared.description = `${declared.description}; or: ${meaning}`;
    return;
  }
  operation.responses[String(status)] = {
    description: meaning,
    content: { "application/problem+json": { schema: ref("schemas", "Problem") } },
  };
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
  app.openAPIRegistry.register("Problem", problem);
  app.openAPIRegistry.register("AttestationClaims", attestationClaims);
}

/** Once per app: how requests authenticate, referenced by the document's `security`. */
export function registerApiKeyScheme(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: API_KEY_HEADER,
    description:
      "An API key from the project's settings in the web app: `kp_live_...` reads and writes live data, `kp_test_...` the project's test data.",
  });
}
