import { describe, expect, it } from "vitest";
import { call, callJson, expectProblem, locations, newProject, postRawJson } from "./helpers.ts";

const COLLECT = "/api/v1/ssh/collect/sessions/";

describe("problem+json for bad input", () => {
  it("refuses timeout with expired_at with the documented detail at body.expired_at", async () => {
    const { apiKey } = await newProject();
    const expiredAt = new Date(Date.now() + 600_000).toISOString();
    const problem = await expectProblem(
      await call(COLLECT, {
        method: "POST",
        key: apiKey,
        body: { timeout: 600, expired_at: expiredAt },
      }),
      400,
    );
    expect(problem.detail).toBe("Cannot use both timeout and expired_at");
    expect(problem.errors).toEqual([
      {
        location: "body.expired_at",
        message: "Cannot use both timeout and expired_at",
        value: expiredAt,
      },
    ]);
  });

  it("names unknown fields", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, {
        method: "POST",
        key: apiKey,
        body: { multi_key: true, colour: "blue" },
      }),
      400,
    );
    expect(problem.errors).toEqual([
      { location: "body.colour", message: 'Unknown field "colour"', value: "blue" },
    ]);
  });

  it("names each wrongly typed field", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, {
        method: "POST",
        key: apiKey,
        body: { multi_key: "yes", timeout: 10, ssh_banner: "x".repeat(2049) },
      }),
      400,
    );
    expect(locations(problem).sort()).toEqual([
      "body.multi_key",
      "body.ssh_banner",
      "body.timeout",
    ]);
    // Each message is a sentence a person reads, naming the field.
    const messages = Object.fromEntries(
      (problem.errors ?? []).map((error) => [error.location, error.message]),
    );
    expect(messages).toEqual({
      "body.multi_key": "multi_key must be true or false",
      "body.ssh_banner": "ssh_banner must be at most 2048 characters long",
      "body.timeout": "timeout must be at least 60",
    });
  });

  it.each([
    ["in the past", new Date(Date.now() - 1000).toISOString(), /future/],
    ["beyond 30 days", new Date(Date.now() + 31 * 86400_000).toISOString(), /30 days/],
    ["not a date", "tomorrow", /.+/],
  ])("refuses expired_at %s", async (_, expiredAt, message) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, { method: "POST", key: apiKey, body: { expired_at: expiredAt } }),
      400,
    );
    expect(locations(problem)).toEqual(["body.expired_at"]);
    expect(problem.errors?.[0]?.message).toMatch(message);
  });

  it("refuses a body that is not an object", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, { method: "POST", key: apiKey, body: [1, 2] }),
      400,
    );
    expect(locations(problem)).toEqual(["body"]);
  });

  it("refuses text holding half a surrogate pair, which no UTF-8 database can keep", async () => {
    const { apiKey } = await newProject();
    for (const [field, text] of [
      ["external_id", "user-\\ud800"],
      ["ssh_message", "\\udc00 hello"],
    ]) {
      const problem = await expectProblem(
        await postRawJson(COLLECT, `{"${field}": "${text}"}`, apiKey),
        400,
      );
      expect(locations(problem)).toEqual([`body.${field}`]);
      expect(problem.errors?.[0]?.message).toContain("surrogate");
    }
    // A whole pair is one character, and kept as it was sent.
    const kept = await callJson<{ external_id: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: { external_id: "user-😀" },
    });
    expect(kept.external_id).toBe("user-😀");
  });

  it("refuses malformed JSON", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, {
        method: "POST",
        key: apiKey,
        rawBody: '{"multi_key": tru',
        headers: { "content-type": "application/json" },
      }),
      400,
    );
    expect(problem.detail).toMatch(/Malformed JSON/);
    expect(locations(problem)).toEqual(["body"]);
  });

  it("refuses a body over 64 KiB with 413", async () => {
    const { apiKey } = await newProject();
    const body = JSON.stringify({ external_id: "x".repeat(70 * 1024) });
    await expectProblem(await postRawJson(COLLECT, body, apiKey), 413);
  });

  it("refuses a body over 64 KiB sent without a length (chunked) with 413", async () => {
    const { apiKey } = await newProject();
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    await expectProblem(await postRawJson(COLLECT, stream, apiKey), 413);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, {
        method: "POST",
        key: apiKey,
        rawBody: "multi_key=true",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
    );
    expect(locations(problem)).toEqual(["header.content-type"]);
  });

  it("refuses negative offset and limit=0 at query.*", async () => {
    const { apiKey } = await newProject();
    const offset = await expectProblem(await call(`${COLLECT}?offset=-1`, { key: apiKey }), 400);
    expect(locations(offset)).toEqual(["query.offset"]);
    const limit = await expectProblem(await call(`${COLLECT}?limit=0`, { key: apiKey }), 400);
    expect(locations(limit)).toEqual(["query.limit"]);
    const words = await expectProblem(
      await call(`${COLLECT}?limit=ten&status=done`, { key: apiKey }),
      400,
    );
    expect(locations(words).sort()).toEqual(["query.limit", "query.status"]);
  });

  it("answers unknown paths and unknown sessions with 404", async () => {
    const { apiKey } = await newProject();
    await expectProblem(await call("/api/v1/nothing/here/", { key: apiKey }), 404);
    const problem = await expectProblem(
      await call(`${COLLECT}cs_doesnotexist/`, { key: apiKey }),
      404,
    );
    expect(problem.errors).toEqual([
      { location: "path.session_id", message: "Session not found", value: "cs_doesnotexist" },
    ]);
    await expectProblem(
      await call(`${COLLECT}cs_doesnotexist/complete/`, { method: "POST", key: apiKey }),
      404,
    );
    await expectProblem(
      await call(`${COLLECT}cs_doesnotexist/`, { method: "PATCH", key: apiKey, body: {} }),
      404,
    );
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const { apiKey } = await newProject();
    const response = await call("/api/v1/auth/info/", { method: "DELETE", key: apiKey });
    await expectProblem(response, 405);
    expect(response.headers.get("allow")).toContain("GET");
    const sessions = await call(COLLECT, { method: "PUT", key: apiKey });
    await expectProblem(sessions, 405);
    expect(sessions.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
  });

  it("keeps the session intact after refused changes", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ id: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: { external_id: "keep" },
    });
    await call(`${COLLECT}${session.id}/`, {
      method: "PATCH",
      key: apiKey,
      body: { external_id: 5 },
    });
    await call(`${COLLECT}${session.id}/`, {
      method: "PATCH",
      key: apiKey,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    const after = await callJson<{ external_id: string }>(`${COLLECT}${session.id}/`, 200, {
      key: apiKey,
    });
    expect(after.external_id).toBe("keep");
  });
});
