import { Validator } from "@seriousme/openapi-schema-validator";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, screenshot } from "./helpers/chromium.ts";

const workerUrl = inject("workerUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("the API description", () => {
  it("validates as OpenAPI 3.1 against the specification's own schema", async () => {
    const document = await (await fetch(`${workerUrl}/api/v1/openapi.json`)).json();
    const validator = new Validator();
    const result = await validator.validate(document as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("answers every documented operation: 401 for an invalid key, unless marked public", async () => {
    const document = (await (await fetch(`${workerUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const publicOperations: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const concrete = path.replace(/\{(\w+)\}/g, "x_$1");
        const response = await fetch(`${workerUrl}${concrete}`, {
          method: method.toUpperCase(),
          headers: { "x-api-key": "kp_live_invalid" },
        });
        // A public operation (`security: []`) names its session in the path: none here.
        const expected = operation.security?.length === 0 ? 404 : 401;
        if (expected === 404) publicOperations.push(`${method} ${path}`);
        expect(response.status, `${method} ${path}`).toBe(expected);
      }
    }
    expect(publicOperations).toEqual(["post /api/v1/signatures/{connection_identifier}/"]);
  });

  it("reads as a reference in Chromium, with every field described and nothing fetched from elsewhere", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(workerUrl)) elsewhere.push(request.url());
    });
    await page.goto(`${workerUrl}/docs#post-api-v1-ssh-verify-sessions`);
    await expect.poll(() => page.locator("h1").textContent()).toBe("keyproof API reference");
    const operation = page.locator("#post-api-v1-ssh-verify-sessions");
    await expect
      .poll(() => operation.locator("code.path").textContent())
      .toBe("/api/v1/ssh/verify/sessions/");
    const fields = await operation
      .locator("h4:has-text('Request body') + .table-wrap table.fields")
      .innerText();
    expect(fields).toContain("keys[].public_key");
    expect(fields).toContain("An OpenSSH authorized_keys line");
    expect(await operation.locator("pre").innerText()).toContain("curl -X POST");
    await screenshot(page, "api-reference", false);
    expect(elsewhere).toEqual([]);
    await page.close();
  });
});
