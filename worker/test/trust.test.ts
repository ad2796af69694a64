import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { blobOf, internal, reported } from "./bridge-calls.ts";
import { call, callJson, expectProblem, locations, newProject, postRawJson } from "./helpers.ts";

const COLLECT = "/api/v1/ssh/collect/sessions/";
const VERIFY = "/api/v1/ssh/verify/sessions/";
const ED25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519")?.openssh ?? "";

const sshString = (bytes: Uint8Array) => {
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length);
  return [...length, ...bytes];
};
const keyLine = (type: string, ...parts: Uint8Array[]) =>
  `${type} ${Buffer.from([...sshString(new TextEncoder().encode(type)), ...parts.flatMap(sshString)]).toString("base64")}`;
const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));
const rsaModulus = Uint8Array.from([0, ...Array.from({ length: 256 }, () => 0xff)]);

describe("text that a terminal or a page shows", () => {
  it.each([
    ["an OSC 52 clipboard write", "ssh_banner", "Hi\u001b]52;c;ZXZpbA==\u0007"],
    ["a screen clear", "ssh_message", "\u001b[2JDone"],
    ["a C1 CSI", "ssh_message", "\u009b31mred"],
    ["a NUL", "ssh_banner", "Welcome\u0000"],
    ["a carriage return", "external_id", "user\r42"],
    ["DEL", "external_id", "user\u007f"],
  ])("refuses %s in %s with 400 naming the field", async (_, field, value) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(COLLECT, { method: "POST", key: apiKey, body: { [field]: value } }),
      400,
    );
    expect(locations(problem)).toEqual([`body.${field}`]);
    expect(problem.detail).toContain("Control characters");
  });

  it("keeps newlines and tabs", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ ssh_banner: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: { ssh_banner: "Line one\n\tLine two" },
    });
    expect(session.ssh_banner).toBe("Line one\n\tLine two");
  });

  it("refuses control characters in PATCH and in the names of configured keys", async () => {
    const { apiKey } = await newProject();
    const created = await callJson<{ id: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: {},
    });
    const patch = await expectProblem(
      await call(`${COLLECT}${created.id}/`, {
        method: "PATCH",
        key: apiKey,
        body: { ssh_message: "\u001bc" },
      }),
      400,
    );
    expect(locations(patch)).toEqual(["body.ssh_message"]);
    const keys = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: { keys: [{ name: "lap\u001b[8mtop", external_id: "\u0085", public_key: ED25519 }] },
      }),
      400,
    );
    expect(locations(keys).sort()).toEqual(["body.keys[0].external_id", "body.keys[0].name"]);
  });

  it.each([
    ["a NUL", "a\u0000b"],
    ["a non-Latin-1 character", "token \u4e2d"],
    ["a Latin-1 letter", "caf\u00e9"],
    ["a tab", "a\tb"],
  ])("refuses a webhook header value with %s", async (_, value) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call("/api/v1/webhooks/", {
        method: "POST",
        key: apiKey,
        body: { url: "https://example.com/hook", headers: { "x-token": value } },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.headers.x-token"]);
  });

  it("accepts visible ASCII header values with spaces", async () => {
    const { apiKey } = await newProject();
    const hook = await callJson<{ headers: Record<string, string> }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: "https://example.com/hook", headers: { authorization: "Bearer a.b-c~d" } },
    });
    expect(hook.headers).toEqual({ authorization: "Bearer a.b-c~d" });
  });
});

describe("keys for which a signature proves nothing", () => {
  it.each([
    [
      "the Ed25519 neutral point",
      keyLine("ssh-ed25519", hex(`01${"00".repeat(31)}`)),
      /small-order/,
    ],
    [
      "an Ed25519 point of order 8",
      keyLine(
        "ssh-ed25519",
        hex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
      ),
      /small-order/,
    ],
    [
      "an Ed25519 encoding that is not a point",
      keyLine("ssh-ed25519", hex(`ee${"ff".repeat(30)}7f`)),
      /not a valid point/,
    ],
    ["RSA with e = 1", keyLine("ssh-rsa", Uint8Array.of(1), rsaModulus), /exponent/],
    [
      "RSA with an even exponent",
      keyLine("ssh-rsa", Uint8Array.of(1, 0, 0), rsaModulus),
      /exponent/,
    ],
    [
      "RSA with e = 2^33 + 1",
      keyLine("ssh-rsa", Uint8Array.of(2, 0, 0, 0, 1), rsaModulus),
      /exponent/,
    ],
    [
      "RSA with a 3071-bit exponent",
      keyLine(
        "ssh-rsa",
        Uint8Array.from([0x7f, ...Array.from({ length: 383 }, () => 0xff)]),
        rsaModulus,
      ),
      /exponent/,
    ],
    [
      "RSA with an even modulus",
      keyLine(
        "ssh-rsa",
        Uint8Array.of(1, 0, 1),
        Uint8Array.from([0, ...Array.from({ length: 255 }, () => 0xff), 0xfe]),
      ),
      /modulus is even/,
    ],
  ])("refuses %s with 400 at the key", async (_, publicKey, reason) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: { keys: [{ public_key: publicKey }] },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.keys[0].public_key"]);
    expect(problem.detail).toMatch(reason);
  });

  it("never counts a degenerate key the bridge reports as proven", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ id: string; connection_identifier: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: {},
    });
    const opened = await internal<{ connection_id: string }>("/internal/v1/connections", {
      connection_identifier: session.connection_identifier,
      ip_address: "192.0.2.1",
      client_version: "SSH-2.0-test",
    });
    const identity = blobOf(keyLine("ssh-ed25519", hex(`01${"00".repeat(31)}`)));
    const finished = await internal<{ outcome: string }>(
      `/internal/v1/connections/${opened.json.connection_id}/finish`,
      { session_id: session.id, keys: reported([identity]), keys_offered: 1, confirmed: null },
    );
    expect(finished.json.outcome).toBe("no_key");
  });
});

describe("rules a connection opened under", () => {
  async function openWithMustConfirm(mustConfirm: boolean) {
    const { apiKey } = await newProject();
    const session = await callJson<{ id: string; connection_identifier: string }>(COLLECT, 201, {
      method: "POST",
      key: apiKey,
      body: { must_confirm: mustConfirm },
    });
    const opened = await internal<{ connection_id: string; must_confirm: boolean }>(
      "/internal/v1/connections",
      {
        connection_identifier: session.connection_identifier,
        ip_address: "192.0.2.1",
        client_version: "SSH-2.0-test",
      },
    );
    // The integrator flips must_confirm while the user is at the prompt.
    await callJson(`${COLLECT}${session.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      body: { must_confirm: !mustConfirm },
    });
    return { apiKey, session, connectionId: opened.json.connection_id };
  }

  it("keeps nothing when the user declined, though must_confirm was turned off meanwhile", async () => {
    const { apiKey, session, connectionId } = await openWithMustConfirm(true);
    const finished = await internal<{ outcome: string }>(
      `/internal/v1/connections/${connectionId}/finish`,
      {
        session_id: session.id,
        keys: reported([blobOf(ED25519)]),
        keys_offered: 1,
        confirmed: false,
      },
    );
    expect(finished.json.outcome).toBe("declined");
    const after = await callJson<{ status: string; connections: { keys: unknown[] }[] }>(
      `${COLLECT}${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(after.status).toBe("pending");
    expect(after.connections[0]?.keys).toEqual([]);
  });

  it("keeps the keys of a connection that was never asked to confirm", async () => {
    const { apiKey, session, connectionId } = await openWithMustConfirm(false);
    const finished = await internal<{ outcome: string }>(
      `/internal/v1/connections/${connectionId}/finish`,
      {
        session_id: session.id,
        keys: reported([blobOf(ED25519)]),
        keys_offered: 1,
        confirmed: null,
      },
    );
    expect(finished.json.outcome).toBe("collected");
    const after = await callJson<{ connections: { confirmed: boolean | null }[] }>(
      `${COLLECT}${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(after.connections[0]?.confirmed).toBeNull();
  });
});

describe("crafted input never reaches a 500", () => {
  it("answers a 20,000-deep array in a field with a 400 that does not echo it", async () => {
    const { apiKey } = await newProject();
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const response = await postRawJson(COLLECT, `{"external_id":${deep}}`, apiKey);
    const problem = await expectProblem(response, 400);
    expect(problem.errors).toEqual([{ location: "body.external_id", message: expect.any(String) }]);
  });

  it("cuts a long echoed value short", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call(VERIFY, {
        method: "POST",
        key: apiKey,
        body: { keys: [{ public_key: `ssh-ed25519 ${"A".repeat(10_000)}` }] },
      }),
      400,
    );
    const value = String(problem.errors?.[0]?.value);
    expect(value.length).toBeLessThanOrEqual(201);
    expect(value.endsWith("…")).toBe(true);
  });

  it.each([
    "/api/v1/ssh/collect/sessions/%0d%0aSet-Cookie:%20x=y/",
    "/api/v1/webhooks/%00/",
    "/api/v1/webhooks/%ff%fe/deliveries/",
  ])("answers %s with a problem, not a 500", async (path) => {
    const { apiKey } = await newProject();
    const response = await call(path, { key: apiKey });
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
