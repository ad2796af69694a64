import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyproofClient } from "../../client/src/index.ts";

/**
 * The typed client makes a request again when keyproof says to (429 or 503 with Retry-After),
 * where a repeat is safe: a read, or a write with an Idempotency-Key. Against a real HTTP server
 * that answers as keyproof does while a database is away, then as usual.
 */
let server: Server;
let base = "";
/** Each request the server got, and how many more it answers 503 (or 429) before 200. */
const seen: { method: string; path: string }[] = [];
let refusals = 0;
let refusal = { status: 503, retryAfter: "0" };

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method ?? "", path: request.url ?? "" });
    request.resume();
    if (refusals > 0) {
      refusals -= 1;
      response.writeHead(refusal.status, {
        "content-type": "application/problem+json",
        "retry-after": refusal.retryAfter,
      });
      response.end(JSON.stringify({ status: refusal.status, title: "Try again" }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ project_id: "prj_x", livemode: false }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => createKeyproofClient({ baseUrl: base, apiKey: "kp_test_x" });
const reset = (count: number, status = 503, retryAfter = "0") => {
  seen.length = 0;
  refusals = count;
  refusal = { status, retryAfter };
};

describe("the typed client's retries", () => {
  it("reads again after a 503 or a 429 with Retry-After, up to three times", async () => {
    reset(2);
    const { data, response } = await client().GET("/api/v1/auth/info/");
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
    expect(seen).toHaveLength(3);
    reset(5, 429);
    const gaveUp = await client().GET("/api/v1/auth/info/");
    expect(gaveUp.response.status).toBe(429);
    expect(seen).toHaveLength(4);
  });

  it("repeats a write only with an Idempotency-Key, and waits no Retry-After over 10 s", async () => {
    reset(1);
    const once = await client().POST("/api/v1/ssh/collect/sessions/", { body: {} });
    expect(once.response.status).toBe(503);
    expect(seen).toHaveLength(1);
    reset(1);
    const keyed = await client().POST("/api/v1/ssh/collect/sessions/", {
      body: {},
      params: { header: { "Idempotency-Key": "k-1" } },
    });
    expect(keyed.response.status).toBe(200);
    expect(seen.map((request) => request.method)).toEqual(["POST", "POST"]);
    reset(1, 503, "60");
    const long = await client().GET("/api/v1/auth/info/");
    expect(long.response.status).toBe(503);
    expect(seen).toHaveLength(1);
  });
});
