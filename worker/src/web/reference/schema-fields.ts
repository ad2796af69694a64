/** JSON Schema, as far as the OpenAPI document the routes generate uses it. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  example?: unknown;
}

/** One line of a field table: `keys[].public_key`, its type, whether required, and what it is. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  rules: string[];
}

/** Nested objects are listed down to this depth; deeper ones name their component instead. */
const MAX_DEPTH = 3;

export function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const name = schema.$ref?.split("/").at(-1);
  return name ? (components[name] ?? schema) : schema;
}

/** The component a `$ref` names, for "see X" links. */
export const componentName = (schema: JsonSchema) => schema.$ref?.split("/").at(-1);

function typeLabel(schema: JsonSchema, components: Record<string, JsonSchema>): string {
  const resolved = resolve(schema, components);
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) return variants.map((variant) => typeLabel(variant, components)).join(" | ");
  if (resolved.enum) return resolved.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (resolved.const !== undefined) return JSON.stringify(resolved.const);
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type ?? "any"];
  return types
    .map((type) => {
      if (type === "array" && resolved.items) return `${typeLabel(resolved.items, components)}[]`;
      if (type === "object" && typeof resolved.additionalProperties === "object")
        return `map of ${typeLabel(resolved.additionalProperties, components)}`;
      if (type === "string" && resolved.format) return resolved.format;
      return type;
    })
    .join(" | ");
}

function rules(schema: JsonSchema): string[] {
  const found: string[] = [];
  if (schema.minimum !== undefined) found.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) found.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) found.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) found.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) found.push(`at most ${schema.maxLength} characters`);
  if (schema.minItems !== undefined) found.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) found.push(`at most ${schema.maxItems} items`);
  if (schema.default !== undefined) found.push(`default ${JSON.stringify(schema.default)}`);
  return found;
}

/** Every field of an object schema, nested ones with dotted names, in the document's order. */
export function fieldRows(
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  prefix = "",
  depth = 0,
): FieldRow[] {
  const object = resolve(schema, components);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).flatMap(([key, property]) => {
    const resolved = resolve(property, components);
    const name = `${prefix}${key}`;
    const row: FieldRow = {
      name,
      type: typeLabel(property, components),
      required: required.has(key),
      description: resolved.description ?? property.description ?? "",
      rules: rules(resolved),
    };
    const element = resolved.items ? resolve(resolved.items, components) : resolved;
    const nested = element.properties && depth < MAX_DEPTH;
    if (!nested) return [row];
    const childPrefix = resolved.items ? `${name}[].` : `${name}.`;
    return [row, ...fieldRows(element, components, childPrefix, depth + 1)];
  });
}
