/** The parts of the generated OpenAPI document the tests read. */
/** The parts of a JSON Schema the tests look at. */
export interface SchemaObject {
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface OpenApiTestDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: unknown }> };
        parameters?: ({ name: string; in: string } | { $ref: string })[];
        security?: unknown[];
      }
    >
  >;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes?: Record<string, unknown>;
  };
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation the document describes, as `{ method, path, operation }`. */
export function documentedOperations(doc: OpenApiTestDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}
