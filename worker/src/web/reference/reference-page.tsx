import type { OpenApiDocument } from "../../api/openapi-document.ts";
import { STATUS_TITLES } from "../../lib/errors.ts";
import { Table } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { curlExample } from "./curl-example.ts";
import { Prose } from "./prose.tsx";
import { componentName, type FieldRow, fieldRows, type JsonSchema } from "./schema-fields.ts";
import { WebhooksReference } from "./webhooks-reference.tsx";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  id: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: JsonSchema }> }
  >;
  security?: unknown[];
}

/** Every kind of problem, with the anchor its `type` points at (`/docs#problem-conflict`). */
export const PROBLEM_KINDS: [string, number, string][] = [
  [
    "invalid-request",
    400,
    "Invalid JSON, wrong types, unknown fields or constraint violations; `errors` names each field.",
  ],
  [
    "unauthorized",
    401,
    "Missing, unknown, revoked or expired API key (the answer does not say which).",
  ],
  [
    "forbidden",
    403,
    "Not for this caller: a test key changing the project's settings, or an owner-only action in the web app.",
  ],
  ["not-found", 404, "Unknown path, or a resource outside the key's project."],
  ["method-not-allowed", 405, "Known path, wrong method; the Allow header lists the right ones."],
  ["conflict", 409, "The action conflicts with the session's state."],
  [
    "gone",
    410,
    "What was asked for existed and was erased on request: a redacted session's attestation.",
  ],
  ["body-too-large", 413, "The body is over 64 KiB."],
  ["unsupported-media-type", 415, "The body is not application/json."],
  [
    "idempotency-key-reused",
    422,
    "The Idempotency-Key was sent before with another request; use a new key for a new request.",
  ],
  [
    "key-not-counted",
    422,
    "A signature proof verified and was recorded, but its key does not count in the session (not one it expects, refused): `result` says what was recorded.",
  ],
  ["rate-limited", 429, "The project's rate limit is exceeded; wait for Retry-After seconds."],
  ["internal-error", 500, "A fault on our side; quote the request_id."],
  [
    "unavailable",
    503,
    "Something keyproof depends on cannot be reached just now; retry after Retry-After seconds. A POST sent again with the same Idempotency-Key is never done twice.",
  ],
];

function operationsOf(document: OpenApiDocument): Operation[] {
  const shared = (document.components?.parameters ?? {}) as Record<string, Parameter>;
  // Headers every operation shares are components; the page shows them where they apply.
  const parameter = (entry: Parameter | { $ref: string }) =>
    "$ref" in entry ? (shared[entry.$ref.split("/").at(-1) ?? ""] as Parameter) : entry;
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const found = (item as Record<string, Omit<Operation, "method" | "path" | "id">>)[method];
      if (!found) return [];
      const operation = { ...found, parameters: found.parameters?.map(parameter) };
      const slug = path
        .replace(/[{}]/g, "")
        .replace(/[^a-z0-9]+/gi, "-")
        .replace(/^-|-$/g, "");
      const id = `${method}-${slug}`;
      return [{ ...operation, method, path, id }];
    }),
  );
}

function Fields(props: { rows: FieldRow[] }) {
  if (props.rows.length === 0) return <p class="muted">No fields.</p>;
  return (
    <Table head={["Field", "Type", "Description"]} class="fields">
      {props.rows.map((row) => (
        <tr>
          <td>
            <code>{row.name}</code>
            {row.required ? <span class="required">required</span> : null}
          </td>
          <td class="mono type">{row.type}</td>
          <td>
            <Prose text={row.description} />
            {row.rules.length > 0 ? <span class="rules">{row.rules.join("; ")}</span> : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}

function OperationSection(props: {
  operation: Operation;
  origin: string;
  components: Record<string, JsonSchema>;
}) {
  const { operation, components } = props;
  const body = operation.requestBody?.content?.["application/json"]?.schema ?? null;
  const parameters: FieldRow[] = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    type: `${parameter.in} · ${parameter.schema?.type ?? "string"}`,
    required: parameter.required ?? false,
    description: parameter.description ?? parameter.schema?.description ?? "",
    rules: [
      ...(parameter.schema?.minimum !== undefined ? [`≥ ${parameter.schema.minimum}`] : []),
      ...(parameter.schema?.default !== undefined
        ? [`default ${JSON.stringify(parameter.schema.default)}`]
        : []),
      ...(parameter.schema?.enum ? [`one of ${parameter.schema.enum.join(", ")}`] : []),
    ],
  }));
  const responses = Object.entries(operation.responses ?? {});
  const success = responses.filter(([status]) => status.startsWith("2"));
  const failures = responses.filter(([status]) => !status.startsWith("2"));
  const open = Array.isArray(operation.security) && operation.security.length === 0;
  return (
    <section class="operation" id={operation.id}>
      <h3>
        <span class={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>{" "}
        <code class="path">{operation.path}</code>
      </h3>
      <p class="summary">
        <Prose text={operation.summary} />
        {open ? <span class="badge">no API key</span> : null}
      </p>
      {operation.description ? (
        <p>
          <Prose text={operation.description} />
        </p>
      ) : null}
      {parameters.length > 0 ? (
        <>
          <h4>Parameters</h4>
          <Fields rows={parameters} />
        </>
      ) : null}
      {body ? (
        <>
          <h4>
            Request body{" "}
            <span class="muted">
              application/json{operation.requestBody?.required ? "" : ", may be left out"}
            </span>
          </h4>
          <Fields rows={fieldRows(body, components)} />
        </>
      ) : null}
      <h4>Example</h4>
      {/* Focusable: a keyboard scrolls a long line into view (WCAG 2.1.1). */}
      <pre tabindex={0}>
        <code>
          {curlExample({
            origin: props.origin,
            method: operation.method,
            path: operation.path,
            body,
            components,
          })}
        </code>
      </pre>
      <h4>Responses</h4>
      {success.map(([status, response]) => {
        const schema = response.content?.["application/json"]?.schema;
        return (
          <details>
            <summary>
              <strong>{status}</strong> <Prose text={response.description} />
              {schema && componentName(schema) ? (
                <span class="muted"> · {componentName(schema)}</span>
              ) : null}
            </summary>
            {schema ? <Fields rows={fieldRows(schema, components)} /> : null}
          </details>
        );
      })}
      <ul class="errors">
        {failures.map(([status, response]) => (
          <li>
            <a href={`#problem-${PROBLEM_KINDS.find(([, code]) => String(code) === status)?.[0]}`}>
              {status}
            </a>{" "}
            <Prose text={response.description} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `/docs`: the API reference, rendered on the server from the document the routes generate. */
export function referencePage(document: OpenApiDocument, page?: PageContext) {
  const origin = document.servers?.[0]?.url ?? "";
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const operations = operationsOf(document);
  const tags = (document.tags ?? []).map((tag) => ({
    ...tag,
    operations: operations.filter((operation) => operation.tags?.[0] === tag.name),
  }));
  return (
    <Layout title="API reference" page={page} wide>
      <div class="reference">
        <nav class="toc" aria-label="Contents">
          <a href="#introduction">Introduction</a>
          <a href="#errors">Errors</a>
          {tags.map((tag) => (
            <>
              <strong>{tag.name}</strong>
              {tag.operations.map((operation) => (
                <a href={`#${operation.id}`}>
                  <span class={`method method-${operation.method}`}>
                    {operation.method.toUpperCase()}
                  </span>{" "}
                  <Prose text={operation.summary} />
                </a>
              ))}
            </>
          ))}
          <strong>Webhooks</strong>
          <a href="#webhook-events">Events</a>
          <a href="#webhook-deliveries">Deliveries and verification</a>
        </nav>
        <div class="reference-body">
          <h1 id="introduction">keyproof API reference</h1>
          <p>
            <Prose text={document.info.description} />
          </p>
          <p>
            Base URL <code>{origin}/api/v1</code>. Create the API key in your project's settings; a
            missing, unknown, revoked or expired key gets the same 401. Bodies are at most 64 KiB.
            Lists take <code>offset</code> and <code>limit</code> (default and maximum 100) and
            answer <code>{"{items, total, offset, limit, has_more}"}</code>, newest first. The
            machine-readable document is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>{" "}
            (OpenAPI 3.1).
          </p>
          <h2 id="errors">Errors</h2>
          <p>
            Every error is <code>application/problem+json</code> (RFC 9457):
          </p>
          <Fields rows={fieldRows(components.Problem ?? {}, components)} />
          <Table>
            {PROBLEM_KINDS.map(([slug, status, text]) => (
              <tr id={`problem-${slug}`}>
                <td>{status}</td>
                <td>{STATUS_TITLES[status as keyof typeof STATUS_TITLES]}</td>
                <td>
                  <code>/docs#problem-{slug}</code>
                </td>
                <td>
                  <Prose text={text} />
                </td>
              </tr>
            ))}
          </Table>
          {tags.map((tag) => (
            <>
              <h2 id={`tag-${tag.name.toLowerCase().replace(/\W+/g, "-")}`}>{tag.name}</h2>
              <p>
                <Prose text={tag.description} />
              </p>
              {tag.operations.map((operation) => (
                <OperationSection operation={operation} origin={origin} components={components} />
              ))}
            </>
          ))}
          <WebhooksReference />
        </div>
      </div>
    </Layout>
  );
}
