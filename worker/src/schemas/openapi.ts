import { z } from "zod";
import { authInfo } from "./auth-info.ts";
import { listEnvelope, listQuery, problem } from "./common.ts";
import { LIMITS } from "./limits.ts";
import {
  collectSession,
  collectSessionCreate,
  collectSessionDetail,
  collectSessionListQuery,
  collectSessionPatch,
  verifySession,
  verifySessionCreate,
  verifySessionDetail,
  verifySessionListQuery,
  verifySessionPatch,
} from "./sessions.ts";
import {
  delivery,
  deliveryListQuery,
  event,
  eventListQuery,
  webhook,
  webhookCreate,
  webhookPatch,
  webhookSecret,
  webhookWithSecret,
} from "./webhooks.ts";

type Method = "get" | "post" | "patch" | "put" | "delete";

/** One public operation: the routes validate with these same schemas. */
export interface OperationDoc {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  status: 200 | 201 | 202 | 204;
  response?: z.ZodType;
  errors: number[];
}

const COMMON_ERRORS = [401, 404, 429];
const BODY_ERRORS = [400, 413, 415];

function sessionOperations(
  kind: "collect" | "verify",
  schemas: {
    create: z.ZodType;
    patch: z.ZodType;
    query: z.ZodObject;
    summary: z.ZodType;
    detail: z.ZodType;
  },
): OperationDoc[] {
  const tag = kind === "collect" ? "Collection sessions" : "Verification sessions";
  const noun = kind === "collect" ? "collection session" : "verification session";
  const base = `/api/v1/ssh/${kind}/sessions/`;
  const one = `${base}{session_id}/`;
  return [
    {
      method: "post",
      path: base,
      tag,
      summary: `Create a ${noun}`,
      body: schemas.create,
      status: 201,
      response: schemas.detail,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "get",
      path: base,
      tag,
      summary: `List ${noun}s, newest first`,
      query: schemas.query,
      status: 200,
      response: listEnvelope(schemas.summary),
      errors: [400, ...COMMON_ERRORS],
    },
    {
      method: "get",
      path: one,
      tag,
      summary: `Get a ${noun} with its connections and keys`,
      status: 200,
      response: schemas.detail,
      errors: COMMON_ERRORS,
    },
    {
      method: "patch",
      path: one,
      tag,
      summary: `Change the options of an open ${noun}`,
      body: schemas.patch,
      status: 200,
      response: schemas.detail,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS, 409],
    },
    {
      method: "post",
      path: `${one}complete/`,
      tag,
      summary: `Close a multi-connection ${noun}`,
      status: 200,
      response: schemas.detail,
      errors: [...COMMON_ERRORS, 409],
    },
    {
      method: "delete",
      path: one,
      tag,
      summary: `Delete a ${noun} with its connections and keys`,
      status: 204,
      errors: COMMON_ERRORS,
    },
  ];
}

function sessionWebhookOperations(kind: "collect" | "verify"): OperationDoc[] {
  const tag = "Session webhooks";
  const base = `/api/v1/ssh/${kind}/sessions/{session_id}/webhooks/`;
  const one = `${base}{webhook_id}/`;
  const noun = `a ${kind === "collect" ? "collection" : "verification"} session`;
  return [
    {
      method: "get",
      path: base,
      tag,
      summary: `List the webhooks of ${noun}`,
      query: listQuery,
      status: 200,
      response: listEnvelope(webhook),
      errors: [400, ...COMMON_ERRORS],
    },
    {
      method: "post",
      path: base,
      tag,
      summary: `Add a webhook to ${noun}`,
      body: webhookCreate,
      status: 201,
      response: webhookWithSecret,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "get",
      path: one,
      tag,
      summary: "Get a session webhook",
      status: 200,
      response: webhook,
      errors: COMMON_ERRORS,
    },
    {
      method: "patch",
      path: one,
      tag,
      summary: "Change some fields of a session webhook",
      body: webhookPatch,
      status: 200,
      response: webhook,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "put",
      path: one,
      tag,
      summary: "Replace a session webhook's definition",
      body: webhookCreate,
      status: 200,
      response: webhook,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "delete",
      path: one,
      tag,
      summary: "Delete a session webhook",
      status: 204,
      errors: COMMON_ERRORS,
    },
    {
      method: "get",
      path: `${one}secret/`,
      tag,
      summary: "Reveal a session webhook's signing secret",
      status: 200,
      response: webhookSecret,
      errors: COMMON_ERRORS,
    },
  ];
}

const WEBHOOK_OPERATIONS: OperationDoc[] = (() => {
  const tag = "Webhooks";
  const base = "/api/v1/webhooks/";
  const one = `${base}{webhook_id}/`;
  return [
    {
      method: "get",
      path: base,
      tag,
      summary: "List project webhooks (they receive every session's events)",
      query: listQuery,
      status: 200,
      response: listEnvelope(webhook),
      errors: [400, ...COMMON_ERRORS],
    },
    {
      method: "post",
      path: base,
      tag,
      summary: "Create a project webhook; the response shows its secret",
      body: webhookCreate,
      status: 201,
      response: webhookWithSecret,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "get",
      path: one,
      tag,
      summary: "Get a webhook (project or session)",
      status: 200,
      response: webhook,
      errors: COMMON_ERRORS,
    },
    {
      method: "patch",
      path: one,
      tag,
      summary: "Change some fields of a webhook",
      body: webhookPatch,
      status: 200,
      response: webhook,
      errors: [...BODY_ERRORS, ...COMMON_ERRORS],
    },
    {
      method: "delete",
      path: one,
      tag,
      summary: "Delete a webhook and its delivery history",
      status: 204,
      errors: COMMON_ERRORS,
    },
    {
      method: "get",
      path: `${one}secret/`,
      tag,
      summary: "Reveal a webhook's signing secret",
      status: 200,
      response: webhookSecret,
      errors: COMMON_ERRORS,
    },
    {
      method: "post",
      path: `${one}test/`,
      tag,
      summary: "Send a `ping` event to this webhook",
      status: 202,
      response: delivery,
      errors: COMMON_ERRORS,
    },
    {
      method: "get",
      path: `${one}deliveries/`,
      tag,
      summary: "List deliveries (invocations) with every attempt, newest first",
      query: deliveryListQuery,
      status: 200,
      response: listEnvelope(delivery),
      errors: [400, ...COMMON_ERRORS],
    },
    {
      method: "post",
      path: `${one}deliveries/{invocation_id}/retry/`,
      tag,
      summary: "Deliver an invocation again, with the same webhook-id",
      status: 202,
      response: delivery,
      errors: COMMON_ERRORS,
    },
  ];
})();

export const OPERATIONS: OperationDoc[] = [
  {
    method: "get",
    path: "/api/v1/auth/info/",
    tag: "Auth",
    summary: "Describe the calling API key and its project",
    status: 200,
    response: authInfo,
    errors: [401, 429],
  },
  ...sessionOperations("collect", {
    create: collectSessionCreate,
    patch: collectSessionPatch,
    query: collectSessionListQuery,
    summary: collectSession,
    detail: collectSessionDetail,
  }),
  ...sessionOperations("verify", {
    create: verifySessionCreate,
    patch: verifySessionPatch,
    query: verifySessionListQuery,
    summary: verifySession,
    detail: verifySessionDetail,
  }),
  ...sessionWebhookOperations("collect"),
  ...sessionWebhookOperations("verify"),
  ...WEBHOOK_OPERATIONS,
  {
    method: "get",
    path: "/api/v1/events/",
    tag: "Events",
    summary: "The project's event log, newest first, for reconciliation",
    query: eventListQuery,
    status: 200,
    response: listEnvelope(event),
    errors: [400, ...COMMON_ERRORS],
  },
];

type JsonSchema = Record<string, unknown>;

/** Converts with zod's own JSON Schema output, hoisting named schemas into components. */
function jsonSchema(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
) {
  const {
    $defs,
    $schema: _,
    ...rest
  } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const relink = (value: JsonSchema) =>
    JSON.parse(
      JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'),
    ) as JsonSchema;
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = relink(def);
  // A named schema comes back either inline or as a $ref into its own $defs entry.
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) return relink(rest);
  if (!("$ref" in rest)) components[id] = relink(rest);
  return { $ref: `#/components/schemas/${id}` };
}

const problemResponse = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid JSON, wrong types, unknown fields or constraint violations",
  401: "Missing, unknown, revoked or expired API key",
  404: "Unknown path, or a resource outside the key's project",
  409: "The action conflicts with the session's state",
  413: `Body over ${LIMITS.maxBodyBytes / 1024} KiB`,
  415: "Body that is not application/json",
  429: "Project rate limit exceeded; see Retry-After",
};

export function buildOpenApiDocument(serverUrl: string) {
  const components: Record<string, JsonSchema> = {};
  jsonSchema(problem, "output", components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
      name: match[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = op.query
      ? Object.entries(op.query.shape).map(([name, field]) => {
          const schema = jsonSchema(field as z.ZodType, "input", components);
          return { name, in: "query", required: false, description: schema.description, schema };
        })
      : [];
    const responses: Record<string, unknown> = {
      [op.status]: op.response
        ? {
            description: "Success",
            content: {
              "application/json": { schema: jsonSchema(op.response, "output", components) },
            },
          }
        : { description: "Success, no content" },
    };
    for (const status of op.errors)
      responses[status] = problemResponse(ERROR_DESCRIPTIONS[status] ?? "Error");
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      operationId: `${op.method}${op.path
        .replace(/[{}]/g, "")
        .replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())
        .replace(/\W/g, "")}`,
      parameters: [...pathParams, ...queryParams],
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(op.body, "input", components) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "keyproof API",
      version: "1.0.0",
      description:
        "Prove that a person controls an SSH private key. Every request carries `x-api-key`; bodies are JSON; errors are application/problem+json.",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    },
  };
}
