import { z } from "zod";
import { authInfo } from "./auth-info.ts";
import { listEnvelope, problem } from "./common.ts";
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

type Method = "get" | "post" | "patch" | "put" | "delete";

/** One public operation: the routes validate with these same schemas. */
export interface OperationDoc {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  status: 200 | 201 | 204;
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
