import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/schemas/openapi.ts";
import { call, callJson } from "./helpers.ts";

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: unknown }> };
        parameters: { name: string; in: string }[];
      }
    >
  >;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
  };
};

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1, needs no key, and lists every public operation", async () => {
    const doc = await callJson<Document>("/api/v1/openapi.json", 200);
    expect(doc.openapi).toBe("3.1.0");
    for (const op of OPERATIONS)
      expect(doc.paths[op.path]?.[op.method], `${op.method} ${op.path}`).toBeDefined();
    expect(Object.keys(doc.paths).some((path) => path.includes("internal"))).toBe(false);
  });

  it("is generated from the validation schemas", async () => {
    const doc = await callJson<Document>("/api/v1/openapi.json", 200);
    const create = doc.components.schemas.CollectSessionCreate;
    expect(Object.keys(create?.properties ?? {}).sort()).toEqual(
      [
        "expired_at",
        "external_id",
        "multi_connection",
        "multi_key",
        "must_confirm",
        "ssh_banner",
        "ssh_message",
        "timeout",
        "webhooks",
      ].sort(),
    );
    expect(doc.components.schemas.VerifySessionCreate?.required).toEqual(["keys"]);
    const list = doc.paths["/api/v1/ssh/collect/sessions/"]?.get;
    expect(list?.parameters.map((p) => `${p.in}.${p.name}`)).toEqual([
      "query.offset",
      "query.limit",
      "query.status",
      "query.external_id",
    ]);
    expect(JSON.stringify(doc)).not.toContain("#/$defs/");
    for (const ref of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      expect(doc.components.schemas[ref[1] ?? ""], ref[1]).toBeDefined();
    }
  });

  it("renders a reference page at /docs", async () => {
    const response = await call("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const html = await response.text();
    for (const op of OPERATIONS) expect(html).toContain(op.path);
    expect(html).toContain('id="problem-conflict"');
  });
});
