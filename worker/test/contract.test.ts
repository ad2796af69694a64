import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, createSession, expectProblem, locations, newProject } from "./helpers.ts";
import { contract } from "./openapi-contract.ts";
import { world } from "./openapi-world.ts";
import { objectOf } from "./session-objects.ts";

/** The OpenAPI document describes every answer the API gives. */

const ed = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

async function operations() {
  const { document } = await contract();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, operation: item[method] }] : [])),
  );
}

describe("the document and the server agree", () => {
  it("documents the 400 every operation with a path parameter gives for an id too long", async () => {
    const { apiKey, testKey } = await newProject();
    let checked = 0;
    for (const { path, method, operation } of await operations()) {
      if (operation.security?.length === 0 || !path.includes("{")) continue;
      expect(Object.keys(operation.responses), `${method} ${path}`).toContain("400");
      const response = await call(path.replace(/\{\w+\}/g, "x".repeat(65)), {
        method: method.toUpperCase(),
        // The test helpers exist only for test keys.
        key: path.includes("/test_helpers/") ? testKey : apiKey,
        body: method === "get" || method === "delete" ? undefined : {},
      });
      expect(response.status, `${method} ${path}`).toBe(400);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(19);
  });

  it("takes offset and limit as the integers the document says, capping a large limit", async () => {
    const { apiKey } = await newProject();
    const { document } = await contract();
    const list = document.paths["/api/v1/ssh/collect/sessions/"]?.get;
    const offset = list?.parameters?.find((p) => "name" in p && p.name === "offset");
    expect(offset).toMatchObject({ schema: { type: "integer", minimum: 0 } });
    await createSession(apiKey, "collect");
    const huge = await callJson<{ limit: number; items: unknown[] }>(
      "/api/v1/ssh/collect/sessions/?limit=9007199254740992",
      200,
      { key: apiKey },
    );
    expect(huge).toMatchObject({ limit: 100 });
    expect(huge.items).toHaveLength(1);
    const far = await callJson<{ items: unknown[] }>(
      "/api/v1/ssh/collect/sessions/?offset=9007199254740993",
      200,
      { key: apiKey },
    );
    expect(far.items).toEqual([]);
    for (const query of ["offset=null", "offset=-1", "limit=0", "limit=1.5"]) {
      const problem = await expectProblem(
        await call(`/api/v1/ssh/collect/sessions/?${query}`, { key: apiKey }),
        400,
      );
      expect(locations(problem)).toEqual([`query.${query.split("=")[0]}`]);
    }
  });

  it("names the webhook header whose name is not an HTTP token, as the document's pattern does", async () => {
    const { apiKey } = await newProject();
    const { document } = await contract();
    const headers = (document.components.schemas?.WebhookCreate as SchemaWithProperties | undefined)
      ?.properties?.headers;
    expect(headers?.propertyNames?.pattern).toBeTypeOf("string");
    const problem = await expectProblem(
      await call("/api/v1/webhooks/", {
        method: "POST",
        key: apiKey,
        body: { url: "https://example.com/hook", headers: { "X Trace": "1", "X-Ok": "2" } },
      }),
      400,
    );
    expect(problem.errors).toEqual([
      {
        location: "body.headers.X Trace",
        message: expect.stringMatching(/^"X Trace": Not a valid header name/),
        value: "X Trace",
      },
    ]);
  });

  it("describes return_url as the absolute URL the server requires", async () => {
    const { document } = await contract();
    const returnUrl = (
      document.components.schemas?.CollectSessionCreate as SchemaWithProperties | undefined
    )?.properties?.return_url;
    expect(returnUrl).toMatchObject({ format: "uri", pattern: expect.stringContaining("://") });
  });

  it("declares Idempotency-Key on every POST with its 409 and 422, and the bookmark header everywhere", async () => {
    let posts = 0;
    for (const { path, method, operation } of await operations()) {
      if (operation.security?.length === 0) continue;
      const refs = (operation.parameters ?? []).flatMap((p) => ("$ref" in p ? [p.$ref] : []));
      expect(refs, `${method} ${path}`).toContain("#/components/parameters/Bookmark");
      if (method !== "post") continue;
      posts++;
      expect(refs, path).toContain("#/components/parameters/IdempotencyKey");
      expect(Object.keys(operation.responses), path).toEqual(
        expect.arrayContaining(["409", "422", "503"]),
      );
    }
    expect(posts).toBeGreaterThanOrEqual(9);
  });

  it("names the service's own address in servers, whatever Host the request gave", async () => {
    const response = await call("/api/v1/openapi.json", { headers: { host: "evil.example" } });
    const document = (await response.json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: env.PUBLIC_URL.replace(/\/+$/, "") }]);
  });

  it("answers a wrong method on the public signature URL with a 405 problem, no key asked", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    for (const key of [null, apiKey]) {
      const response = await call(`/api/v1/signatures/${session.connection_identifier}/`, {
        method: "GET",
        key,
      });
      const problem = await expectProblem(response, 405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(problem.detail).toMatch(/POST/);
    }
  });

  it("gives an idempotent replay its own x-request-id", async () => {
    const { apiKey } = await newProject();
    const first = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body: {},
      headers: { "idempotency-key": "replay-request-id" },
    });
    const replay = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body: {},
      headers: { "idempotency-key": "replay-request-id" },
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    expect(replay.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await replay.json()).toEqual(await first.json());
  });

  it("ends a proof page's live channel at once when the session is already over", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect", { multi_connection: true });
    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    const response = await call(`/p/${session.connection_identifier}/live`, {
      headers: { upgrade: "websocket" },
    });
    expect(response.status).toBe(101);
    const socket = response.webSocket;
    if (!socket) throw new Error("no WebSocket");
    const heard: string[] = [];
    const closed = new Promise<number>((resolve) => {
      socket.addEventListener("message", (event) => heard.push(String(event.data)));
      socket.addEventListener("close", (event) => resolve(event.code));
    });
    socket.accept();
    expect(await closed).toBe(1000);
    expect(JSON.parse(heard[0] ?? "{}")).toMatchObject({ final: true, state: "done" });
    await runInDurableObject(objectOf(session.id), (_instance, state) => {
      expect(state.getWebSockets()).toHaveLength(0);
    });
  });

  it("refuses a PEM public key whose block holds more than the key", async () => {
    const { apiKey } = await newProject();
    const pem = ed?.pem[0] ?? "";
    const lines = pem.trim().split("\n");
    const der = Buffer.from(lines.slice(1, -1).join(""), "base64");
    const padded = Buffer.concat([der, Buffer.from([0, 1, 2, 3])]).toString("base64");
    const extended = [lines[0], ...(padded.match(/.{1,64}/g) ?? []), lines.at(-1)].join("\n");
    const problem = await expectProblem(
      await call("/api/v1/ssh/verify/sessions/", {
        method: "POST",
        key: apiKey,
        body: { keys: [{ public_key: `${extended}\n` }] },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.keys[0].public_key"]);
    expect(problem.detail).toMatch(/not a single, whole public key/);
  });

  it("documents a forge it cannot reach as a 503 with Retry-After, saying what happened", async () => {
    const { apiKey } = await newProject();
    const { document } = await contract();
    const create = document.paths["/api/v1/ssh/verify/sessions/"]?.post;
    const unreachable = create?.responses["503"] as { description?: string } | undefined;
    expect(unreachable?.description).toMatch(/forge/);
    const response = await call("/api/v1/ssh/verify/sessions/", {
      method: "POST",
      key: apiKey,
      body: { keys_from: ["closed:alice"] },
    });
    const problem = await expectProblem(response, 503);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(problem.detail).toMatch(
      /^127\.0\.0\.1:9 could not be reached \(.+\); nothing was created/,
    );
    expect(problem.detail).not.toMatch(/in time|within/);
  });
});

describe("the document's own examples", () => {
  it("are accepted: each request example gets its documented success", async () => {
    const project = await newProject();
    const concrete = await world(project);
    let sent = 0;
    for (const { path, method, operation } of await operations()) {
      const body = operation.requestBody?.content["application/json"];
      const schema = body?.schema as { $ref?: string } | undefined;
      const { document } = await contract();
      const example = schema?.$ref
        ? (
            document.components.schemas?.[schema.$ref.split("/").at(-1) ?? ""] as {
              example?: unknown;
            }
          )?.example
        : undefined;
      if (example === undefined) continue;
      const response = await call(concrete(path), {
        method: method.toUpperCase(),
        key: path.includes("/test_helpers/") ? project.testKey : project.apiKey,
        body: example,
      });
      const success = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      expect(success, `${method} ${path}: ${await response.clone().text()}`).toContain(
        String(response.status),
      );
      sent++;
    }
    expect(sent).toBeGreaterThanOrEqual(8);
  });
});

type SchemaWithProperties = {
  properties?: Record<string, { propertyNames?: { pattern?: string } } & Record<string, unknown>>;
};
