import fc from "fast-check";

/**
 * fast-check arbitraries for the JSON Schemas of the served OpenAPI document: values that fit a
 * schema (its types, enums, bounds, patterns, formats), so a property can send each operation
 * what the document says it takes, mixed with values that do not fit.
 */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
}

/** Beyond this depth an object or array is left empty: a body need not be a deep tree. */
const MAX_DEPTH = 4;
/** Arrays hold at most this many items, whatever `maxItems` allows. */
const MAX_ITEMS = 3;

export function arbitraryOf(
  schema: JsonSchema | undefined,
  components: Record<string, JsonSchema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema) return fc.anything();
  if (schema.$ref)
    return arbitraryOf(components[schema.$ref.split("/").at(-1) ?? ""], components, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return fc.oneof(...alternatives.map((one) => arbitraryOf(one, components, depth)));
  if (schema.allOf?.[0])
    return arbitraryOf({ ...schema.allOf[0], ...schema, allOf: undefined }, components, depth);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["string"];
  return fc.oneof(...types.map((type) => ofType(type, schema, components, depth)));
}

function ofType(
  type: string,
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({
        min: schema.minimum ?? schema.exclusiveMinimum ?? -1000,
        max: Math.min(schema.maximum ?? 100_000, Number.MAX_SAFE_INTEGER),
      });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 100_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "array":
      return depth >= MAX_DEPTH
        ? fc.constant([])
        : fc.array(arbitraryOf(schema.items, components, depth + 1), {
            minLength: schema.minItems ?? 0,
            maxLength: Math.max(
              schema.minItems ?? 0,
              Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS),
            ),
          });
    case "object":
      return objectOf(schema, components, depth);
    default:
      return stringOf(schema);
  }
}

function objectOf(schema: JsonSchema, components: Record<string, JsonSchema>, depth: number) {
  if (depth >= MAX_DEPTH || (!schema.properties && !schema.additionalProperties))
    return fc.constant({});
  if (!schema.properties) {
    const values =
      typeof schema.additionalProperties === "object"
        ? arbitraryOf(schema.additionalProperties, components, depth + 1)
        : fc.anything();
    return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys: MAX_ITEMS });
  }
  const shape = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => [
      name,
      arbitraryOf(property, components, depth + 1),
    ]),
  );
  return fc.record(shape, { requiredKeys: schema.required ?? [] });
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 300);
  if (schema.format === "date-time")
    return fc
      .date({
        min: new Date(Date.now() - 86_400_000),
        max: new Date(Date.now() + 40 * 86_400_000),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
  if (schema.format === "uri") return fc.webUrl();
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((text) => text.length >= minLength && text.length <= maxLength);
    } catch {
      // a pattern fast-check cannot generate from: any string
    }
  }
  return fc.string({ minLength, maxLength, unit: "binary" });
}
