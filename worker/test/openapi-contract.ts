import { exports } from "cloudflare:workers";
import { type Schema, Validator } from "@cfworker/json-schema";
import { expect } from "vitest";

/**
 * The served OpenAPI document as a contract every public API response in the tests is held to
 * (helpers.ts `call` checks each one): the status is one the operation lists, the content type
 * one it describes, and the body valid against its schema. A drift between the routes and the
 * document fails the test that caused it.
 */

export interface ContractOperation {
  method: string;
  path: string;
  pattern: RegExp;
  operation: {
    parameters?: ({ name: string; in: string; required?: boolean; schema?: Schema } | Ref)[];
    requestBody?: { content: Record<string, { schema: Schema }>; required?: boolean };
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
    security?: unknown[];
  };
}

interface Ref {
  $ref: string;
}

export interface ContractDocument {
  paths: Record<string, Record<string, ContractOperation["operation"]>>;
  components: Record<string, Record<string, unknown>>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

let loaded: Promise<{ document: ContractDocument; operations: ContractOperation[] }> | null = null;

/** The document the Worker serves, read once per test file, with each operation's path pattern. */
export function contract() {
  loaded ??= (async () => {
    const response = await exports.default.fetch(
      new Request("http://localhost/api/v1/openapi.json"),
    );
    const document = (await response.json()) as ContractDocument;
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          method,
          path,
          // A trailing slash is canonical and its absence accepted.
          pattern: new RegExp(`^${path.replace(/\/$/, "").replace(/\{\w+\}/g, "[^/]+")}/?$`),
          operation,
        })),
    );
    return { document, operations };
  })();
  return loaded;
}

/** The documented operation a request is for, if any (405s and unknown paths have none). */
export async function operationFor(method: string, url: string) {
  const { operations } = await contract();
  const { pathname } = new URL(url, "http://localhost");
  return operations.find(
    (candidate) => candidate.method === method.toLowerCase() && candidate.pattern.test(pathname),
  );
}

/** A parameter or schema as written, or the component it refers to. */
export async function resolved<T>(value: T | Ref): Promise<T> {
  if (typeof value !== "object" || value === null || !("$ref" in value)) return value as T;
  const { document } = await contract();
  const [, , kind = "", name = ""] = value.$ref.split("/");
  return document.components[kind]?.[name] as T;
}

const validators = new Map<string, Validator>();

/** A validator for the schema at `pointer` inside the document, its `$ref`s resolved there. */
async function validatorAt(pointer: string): Promise<Validator> {
  let validator = validators.get(pointer);
  if (!validator) {
    const { document } = await contract();
    validator = new Validator(
      { ...(document as unknown as Schema), $ref: pointer } as Schema,
      "2020-12",
      false,
    );
    validators.set(pointer, validator);
  }
  return validator;
}

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** Why `body` does not fit the schema at `pointer`, or an empty list when it does. */
export async function schemaErrors(pointer: string, body: unknown): Promise<string[]> {
  const result = (await validatorAt(pointer)).validate(body);
  return result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

/** Fails the running test when `response` is not what the document says `method url` answers. */
export async function expectDocumented(method: string, url: string, response: Response) {
  const found = await operationFor(method, url);
  if (!found) return;
  const where = `${method.toUpperCase()} ${new URL(url, "http://localhost").pathname} → ${response.status}`;
  const status = String(response.status);
  const described = found.operation.responses[status] ?? found.operation.responses.default;
  expect(described, `${where}: status not in the OpenAPI document`).toBeDefined();
  if (!described) return;
  const text = await response.text();
  if (!described.content) {
    expect(text, `${where}: the document describes no body`).toBe("");
    return;
  }
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  expect(Object.keys(described.content), `${where}: content type`).toContain(mediaType);
  if (!mediaType.endsWith("json")) return;
  const pointer = [
    "#",
    "paths",
    escapePointer(found.path),
    found.method,
    "responses",
    status in found.operation.responses ? status : "default",
    "content",
    escapePointer(mediaType),
    "schema",
  ].join("/");
  expect(await schemaErrors(pointer, JSON.parse(text)), `${where}: body`).toEqual([]);
}
