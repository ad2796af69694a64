import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { call, callJson, newProject } from "./helpers.ts";
import { schemaErrors } from "./openapi-contract.ts";
import { documentedOperations, type OpenApiTestDocument } from "./openapi-operations.ts";

describe("OpenAPI document", () => {
  it("describes exactly the API routes the app serves, no more and no fewer", async () => {
    const doc = await callJson<OpenApiTestDocument>("/api/v1/openapi.json", 200);
    expect(doc.openapi).toBe("3.1.0");
    const documented = documentedOperations(doc).map(
      (op) => `${op.method.toUpperCase()} ${op.path.replace(/\/$/, "")}`,
    );
    const served = buildApp()
      .routes.filter((route) => route.path.startsWith("/api/v1/") && route.method !== "ALL")
      .filter((route) => route.path !== "/api/v1/openapi.json")
      .map(
        (route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}").replace(/\/$/, "")}`,
      );
    expect([...new Set(served)].sort()).toEqual([...new Set(documented)].sort());
    expect(documented.length).toBeGreaterThanOrEqual(37);
    expect(Object.keys(doc.paths).some((path) => path.includes("internal"))).toBe(false);
    expect(Object.keys(doc.paths).every((path) => path.endsWith("/"))).toBe(true);
  });

  it("is generated from the validation schemas, with their descriptions", async () => {
    const doc = await callJson<OpenApiTestDocument>("/api/v1/openapi.json", 200);
    const create = doc.components.schemas.CollectSessionCreate;
    expect(Object.keys(create?.properties ?? {}).sort()).toEqual(
      [
        "expired_at",
        "external_id",
        "multi_connection",
        "multi_key",
        "must_confirm",
        "require_security_key",
        "require_user_verification",
        "return_url",
        "ssh_banner",
        "ssh_message",
        "timeout",
        "webhooks",
      ].sort(),
    );
    expect(create?.properties?.ssh_banner).toMatchObject({
      maxLength: 2048,
      description: expect.stringContaining("control characters refused"),
    });
    // keys or certificate_authorities: one of them is enough, so neither is required alone.
    const verifyCreate = doc.components.schemas.VerifySessionCreate;
    expect(verifyCreate?.required).toBeUndefined();
    expect(verifyCreate?.properties?.certificate_authorities).toMatchObject({
      maxItems: 10,
      description: expect.stringContaining("valid user certificate"),
    });
    expect(verifyCreate?.properties?.principal).toMatchObject({ maxLength: 255 });
    // Every key record says how a security key held it and what certificate it came in.
    const collected = doc.components.schemas.CollectedKey?.properties ?? {};
    for (const [field, inner] of [
      ["security_key", "counter_regressed"],
      ["certificate", "ca_public_key_sha256"],
    ] as const) {
      expect(collected[field]?.description, field).toBeTypeOf("string");
      expect(collected[field]?.properties?.[inner]?.description, inner).toBeTypeOf("string");
    }
    const list = doc.paths["/api/v1/ssh/collect/sessions/"]?.get;
    expect(list?.parameters?.map((p) => ("$ref" in p ? p.$ref : `${p.in}.${p.name}`))).toEqual([
      "query.offset",
      "query.limit",
      "query.status",
      "query.external_id",
      "#/components/parameters/Bookmark",
    ]);
    expect(doc.components.securitySchemes?.apiKey).toMatchObject({
      in: "header",
      name: "x-api-key",
    });
    for (const ref of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      expect(doc.components.schemas[ref[1] ?? ""], ref[1]).toBeDefined();
    }
  });

  it("states the rules across fields the API enforces, so a body the document allows is never refused", async () => {
    const { apiKey } = await newProject();
    const key = env.TEST_KEYS.accepted.find((entry) => entry.label === "ed25519")?.openssh ?? "";
    const ca = { public_key: key };
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [string, string, Record<string, unknown>, boolean][] = [
      ["CollectSessionCreate", "collect", { timeout: 600, expired_at: later }, false],
      ["CollectSessionCreate", "collect", { timeout: 600 }, true],
      ["VerifySessionCreate", "verify", {}, false],
      ["VerifySessionCreate", "verify", { keys: [], certificate_authorities: [] }, false],
      ["VerifySessionCreate", "verify", { keys: [{ public_key: key }], principal: "alice" }, false],
      ["VerifySessionCreate", "verify", { keys: [{ public_key: key }], expired_at: later }, true],
      ["VerifySessionCreate", "verify", { certificate_authorities: [ca], principal: "a" }, true],
    ];
    for (const [schema, kind, body, allowed] of cases) {
      const errors = await schemaErrors(`#/components/schemas/${schema}`, body);
      expect(errors.length === 0, `${schema} ${JSON.stringify(body)}: ${errors}`).toBe(allowed);
      const answer = await call(`/api/v1/ssh/${kind}/sessions/`, {
        method: "POST",
        key: apiKey,
        body,
      });
      expect(answer.status, `${kind} ${JSON.stringify(body)}`).toBe(allowed ? 201 : 400);
    }
  });

  it("renders a reference with every operation's fields and descriptions at /docs", async () => {
    const response = await call("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const html = (await response.text())
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
    const doc = await callJson<OpenApiTestDocument>("/api/v1/openapi.json", 200);
    for (const op of documentedOperations(doc)) {
      expect(html).toContain(`<code class="path">${op.path}</code>`);
      expect(html).toContain(`id="${op.method}-`);
    }
    // Request fields with their descriptions and limits, an example, the error shape, webhooks.
    expect(html).toContain("keys[].public_key");
    expect(html).toContain("An OpenSSH authorized_keys line");
    expect(html).toContain("at most 2048 characters");
    // The service's own address (PUBLIC_URL), not the Host the request named.
    expect(html).toContain('curl -X POST "http://localhost:8787/api/v1/ssh/verify/sessions/"');
    expect(html).toContain('id="problem-conflict"');
    // Code in the errors' table is code, not text between backticks.
    expect(html).toContain("<code>errors</code> names each field");
    expect(html).not.toMatch(/`[a-z_]+`/);
    expect(html).toContain('id="webhook-events"');
    expect(html).toContain("webhook-signature");
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    expect(html).not.toMatch(/<link[^>]+href="https?:/);
  });
});
