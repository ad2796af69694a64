import { type JsonSchema, resolve } from "./schema-fields.ts";

/** A value of the schema's shape: its example, its default, or a placeholder for its type. */
function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  const resolved = resolve(schema, components);
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum) return resolved.enum[0];
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === "object") {
    const required = resolved.required ?? [];
    return Object.fromEntries(
      required.map((key) => [key, exampleOf(resolved.properties?.[key] ?? {}, components)]),
    );
  }
  if (type === "array") return resolved.items ? [exampleOf(resolved.items, components)] : [];
  if (type === "integer" || type === "number") return resolved.minimum ?? 1;
  if (type === "boolean") return true;
  if (resolved.format === "date-time") return "2030-01-01T00:00:00Z";
  return "...";
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The curl command that makes this request, with `$KEYPROOF_API_KEY` and a shell variable per path parameter. */
export function curlExample(options: {
  origin: string;
  method: string;
  path: string;
  body: JsonSchema | null;
  components: Record<string, JsonSchema>;
}): string {
  const path = options.path.replace(/\{(\w+)\}/g, (_, name: string) => `$${name.toUpperCase()}`);
  const lines = [`curl -X ${options.method.toUpperCase()} "${options.origin}${path}"`];
  lines.push(`  -H "x-api-key: $KEYPROOF_API_KEY"`);
  if (options.body) {
    const example = exampleOf(options.body, options.components);
    lines.push(`  -H "content-type: application/json"`);
    lines.push(`  -d ${shellQuote(JSON.stringify(example))}`);
  }
  return lines.join(" \\\n");
}
