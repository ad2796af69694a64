import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, newProject } from "./helpers.ts";
import { arbitraryOf, type JsonSchema } from "./openapi-arbitraries.ts";
import { contract, resolved } from "./openapi-contract.ts";
import { world } from "./openapi-world.ts";

/**
 * Every operation of the served document, fed parameters and bodies generated from the
 * document itself (fast-check), some fitting its schemas and some not. Each answer must be below
 * 500 and one the document lists, with a body that fits (helpers.ts `call` checks every answer).
 */

/** Requests per operation: enough to reach each parameter's edges, bounded for `npm test`. */
const RUNS_PER_OPERATION = 12;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Parameter {
  name: string;
  in: string;
  schema?: JsonSchema;
}

describe("fuzzing every operation from the OpenAPI document", () => {
  it("never answers 5xx or anything the document does not list", async () => {
    const { document } = await contract();
    const components = (document.components.schemas ?? {}) as Record<string, JsonSchema>;
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        operations++;
        // A project of its own per operation: the rate limit is not what is tested.
        const project = await newProject();
        const concrete = await world(project);
        const parameters = await Promise.all(
          (operation.parameters ?? []).map((entry) => resolved<Parameter>(entry as Parameter)),
        );
        const pathArb = fc
          .tuple(
            ...parameters
              .filter((parameter) => parameter.in === "path")
              .map((parameter) =>
                fc
                  .oneof(
                    { weight: 3, arbitrary: fc.constant(null) },
                    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 80 }) },
                    {
                      weight: 1,
                      arbitrary: fc.constantFrom("cs_00000000000000000000000000", "wh_x"),
                    },
                  )
                  .map((value) => [parameter.name, value] as const),
              ),
          )
          .map((values) => {
            let filled = path;
            for (const [name, value] of values)
              if (value !== null) filled = filled.replace(`{${name}}`, encodeURIComponent(value));
            return concrete(filled);
          });
        const queryArb = fc
          .tuple(
            ...parameters
              .filter((parameter) => parameter.in === "query")
              .map((parameter) =>
                fc
                  .option(
                    fc.oneof(
                      { weight: 3, arbitrary: arbitraryOf(parameter.schema, components) },
                      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
                    ),
                  )
                  .map((value) => [parameter.name, value] as const),
              ),
          )
          .map((pairs) => {
            const query = new URLSearchParams();
            for (const [name, value] of pairs) if (value !== null) query.set(name, String(value));
            return query.size > 0 ? `?${query}` : "";
          });
        const json = operation.requestBody?.content["application/json"]?.schema as JsonSchema;
        const text = operation.requestBody?.content["text/plain"];
        const bodyArb: fc.Arbitrary<{ body?: unknown; rawBody?: string }> = json
          ? fc
              .oneof(
                { weight: 3, arbitrary: arbitraryOf(json, components) },
                { weight: 1, arbitrary: fc.jsonValue() },
              )
              .map((body) => ({ body }))
          : text
            ? fc.string({ maxLength: 400 }).map((rawBody) => ({ rawBody }))
            : fc.constant({});
        await fc.assert(
          fc.asyncProperty(pathArb, queryArb, bodyArb, async (target, query, payload) => {
            const response = await call(`${target}${query}`, {
              method: method.toUpperCase(),
              key: operation.security?.length === 0 ? null : project.apiKey,
              ...payload,
              ...(payload.rawBody !== undefined
                ? { headers: { "content-type": "text/plain" } }
                : {}),
            });
            expect(response.status, `${method} ${target}${query}`).toBeLessThan(500);
          }),
          { numRuns: RUNS_PER_OPERATION },
        );
      }
    }
    expect(operations).toBeGreaterThanOrEqual(40);
  }, 120_000);

  it("reads every bookmark of the documented form, not only one the Worker made", async () => {
    const { document } = await contract();
    const project = await newProject();
    const concrete = await world(project);
    const bookmark = (
      await resolved<Parameter>({ $ref: "#/components/parameters/Bookmark" } as never)
    ).schema;
    // Of the form, and made by no response: any caller's, a copy damaged in transit.
    const stranger = [
      "0123abcd-00000001-00000002-0123456789abcdef0123456789abcdef",
      "first-unconstrained cs_00000000000000000000000000",
      "0123abcd-00000001-00000002-0123456789abcdef0123456789abcdef vs_0123456789abcdefghjkmnpqrs",
    ].map((lead) => `${lead}.AAAAAAAAAAAAAAAAAAAAAA`);
    for (const value of stranger) expect(value).toMatch(new RegExp(String(bookmark?.pattern)));
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths))
      for (const method of METHODS) {
        const operation = item[method];
        const declares = (operation?.parameters ?? []).some(
          (entry) => (entry as { $ref?: string }).$ref === "#/components/parameters/Bookmark",
        );
        if (!operation || !declares || path.includes("test_helpers")) continue;
        operations++;
        for (const value of stranger) {
          const response = await call(concrete(path), {
            method: method.toUpperCase(),
            key: project.apiKey,
            headers: { "keyproof-bookmark": value },
          });
          const text = await response.text();
          expect(text, `${method} ${path}`).not.toContain("header.keyproof-bookmark");
          expect(response.status, `${method} ${path}`).toBeLessThan(500);
        }
      }
    expect(operations).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
