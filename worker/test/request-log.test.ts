import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configurationProblems } from "../src/config.ts";
import worker from "../src/index.ts";
import { signRequest } from "../src/protocol/request-signing.ts";
import { PROOF_PAGE_REQUESTS_PER_ADDRESS } from "../src/web/routes/proof.tsx";
import { call, createSession, newProject } from "./helpers.ts";
import { Browser, browserWithProject, signedUpBrowser } from "./web-client.ts";

/** The Worker's side: one JSON line per API and bridge request, joined by request id. */

/** The JSON lines the Worker writes while `run` runs. */
async function linesDuring(run: () => Promise<unknown>) {
  const written: Record<string, unknown>[] = [];
  const capture = (line: unknown) => {
    try {
      written.push(JSON.parse(String(line)) as Record<string, unknown>);
    } catch {
      // not one of ours
    }
  };
  const spies = [
    vi.spyOn(console, "log").mockImplementation(capture),
    vi.spyOn(console, "warn").mockImplementation(capture),
    vi.spyOn(console, "error").mockImplementation(capture),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written;
}

afterEach(() => vi.restoreAllMocks());

async function bridgeCall(path: string, requestId: string, headerId = requestId) {
  const headers = await signRequest(env.BRIDGE_SECRET ?? "", {
    method: "GET",
    path,
    body: "",
    requestId,
  });
  return call(path, { headers: { ...headers, "x-request-id": headerId } });
}

describe("the Worker's log lines", () => {
  it("logs a failed bridge call under the bridge's own request id, which the signature covers", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    const path = `/internal/v1/sessions/${session.id}/status`;
    // A call that succeeds is the bridge's own line to log (it has the same id): none here.
    let response: Response | undefined;
    const quiet = await linesDuring(async () => {
      response = await bridgeCall(path, "0123456789abcdef-2");
    });
    expect(response?.status).toBe(200);
    expect(response?.headers.get("x-request-id")).toBe("0123456789abcdef-2");
    expect(quiet.filter((line) => line.request_id === "0123456789abcdef-2")).toEqual([]);
    // One that fails is logged, under the id the bridge logs it with.
    const unknown = `/internal/v1/sessions/cs_${"0".repeat(26)}/status`;
    const lines = await linesDuring(async () => {
      response = await bridgeCall(unknown, "0123456789abcdef-3");
    });
    expect(response?.status).toBeGreaterThanOrEqual(400);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "info",
        msg: "request",
        request_id: "0123456789abcdef-3",
        method: "GET",
        route: "/internal/v1/sessions/:session_id/status",
        status: response?.status,
        duration_ms: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    );
    // Another id in the header than the one signed: the call is refused.
    const swapped = await bridgeCall(path, "0123456789abcdef-3", "someone-else");
    expect(swapped.status).toBe(401);
  });

  it("keeps the bridges' readiness probe out of the info lines", async () => {
    const lines = await linesDuring(() => bridgeCall("/internal/v1/health", "0123456789abcdef-4"));
    expect(lines.filter((line) => line.request_id === "0123456789abcdef-4")).toEqual([]);
  });

  it("logs an API request by its route pattern and project, never the identifiers in its path", async () => {
    const { apiKey, projectId } = await newProject();
    const session = await createSession(apiKey, "collect");
    const lines = await linesDuring(() =>
      call(`/api/v1/ssh/collect/sessions/${session.id}/`, { key: apiKey }),
    );
    const line = lines.find((entry) => entry.msg === "request");
    expect(line).toMatchObject({
      method: "GET",
      route: "/api/v1/ssh/collect/sessions/:session_id",
      status: 200,
      project: projectId,
    });
    expect(JSON.stringify(line)).not.toContain(session.id);
    const missing = await linesDuring(() => call("/api/v1/nothing-here", { key: apiKey }));
    expect(missing.find((entry) => entry.msg === "request")).toMatchObject({ status: 404 });
  });

  it("logs one API success in REQUEST_LOG_SUCCESS_ONE_IN at info, and every failure", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    // As wrangler.toml ships it, but one in three: a fixed share, counted by the isolate.
    const sampled = { ...env, REQUEST_LOG_SUCCESS_ONE_IN: "3" };
    const get = (path: string) =>
      worker.fetch(
        new Request(`http://localhost${path}`, { headers: { "x-api-key": apiKey } }),
        sampled,
        createExecutionContext(),
      );
    const lines = await linesDuring(async () => {
      for (let i = 0; i < 6; i++) await get(`/api/v1/ssh/collect/sessions/${session.id}/`);
      for (let i = 0; i < 2; i++) await get("/api/v1/nothing-here");
    });
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => line.status)).toEqual([200, 200, 404, 404]);
    expect(configurationProblems({ ...env, REQUEST_LOG_SUCCESS_ONE_IN: "0" })).toContainEqual(
      'REQUEST_LOG_SUCCESS_ONE_IN must be a whole number from 1, not "0"',
    );
  });

  it("writes no request line for pages and assets", async () => {
    const lines = await linesDuring(() => call("/login"));
    expect(lines.filter((entry) => entry.msg === "request")).toEqual([]);
  });

  it("logs the web app's refusals of who may act, each naming the client's address", async () => {
    const { browser, email } = await signedUpBrowser();
    await browser.post("/signout");
    const stranger = new Browser();
    const lines = await linesDuring(async () => {
      // A wrong password, a form without its CSRF token, a proof page asked for too often.
      expect((await stranger.post("/signin", { email, password: "wrong horse" })).status).toBe(401);
      expect((await stranger.post("/signin", { email, password: "x" }, "")).status).toBe(403);
      let status = 0;
      for (let i = 0; i <= PROOF_PAGE_REQUESTS_PER_ADDRESS && status !== 429; i++)
        status = (await stranger.get(`/p/${"0".repeat(26)}`)).status;
      expect(status).toBe(429);
    });
    const refusals = lines.filter((line) => line.msg === "request" && line.level === "warn");
    expect(refusals.map((line) => [line.route, line.status])).toEqual([
      ["/signin", 401],
      ["/signin", 403],
      ["/p/*", 429],
    ]);
    for (const line of refusals) expect(line.client_address).toBe(stranger.address);
  });

  it("logs every deletion, redaction and retention change, whatever the share of successes", async () => {
    const { apiKey } = await newProject();
    const sampled = { ...env, REQUEST_LOG_SUCCESS_ONE_IN: "10" };
    const send = (method: string, path: string, body?: unknown) =>
      worker.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        sampled,
        createExecutionContext(),
      );
    const made = await Promise.all(
      Array.from({ length: 4 }, () => createSession(apiKey, "collect")),
    );
    const lines = await linesDuring(async () => {
      for (const session of made)
        expect((await send("DELETE", `/api/v1/ssh/collect/sessions/${session.id}/`)).status).toBe(
          204,
        );
      expect((await send("PATCH", "/api/v1/project", { retention_days: 9 })).status).toBe(200);
    });
    const logged = lines.filter((line) => line.msg === "request" && line.level === "info");
    expect(logged.map((line) => line.method)).toEqual([
      "DELETE",
      "DELETE",
      "DELETE",
      "DELETE",
      "PATCH",
    ]);
    for (const line of logged) expect(line.client_address).toEqual(expect.any(String));
  });

  it("logs each form the web app is sent, with its account", async () => {
    const { browser, projectId } = await browserWithProject("Logged project");
    const lines = await linesDuring(() =>
      browser.post(`/projects/${projectId}/api-keys`, { name: "ci", mode: "live" }),
    );
    expect(lines.find((line) => line.msg === "request")).toMatchObject({
      level: "info",
      method: "POST",
      route: "/projects/:project_id/api-keys",
      account: expect.stringMatching(/^acc_/),
      client_address: browser.address,
    });
  });

  it("refuses to start with a LOG_LEVEL it does not know", () => {
    expect(configurationProblems({ ...env, LOG_LEVEL: "loud" })).toContainEqual(
      'LOG_LEVEL must be one of debug, info, warn, error, not "loud"',
    );
    expect(configurationProblems({ ...env, LOG_LEVEL: "warn" })).toEqual([]);
  });
});
