import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, createSession, newProject } from "./helpers.ts";
import { changeHeldSession } from "./session-objects.ts";
import { SIGNATURE_CHALLENGE } from "./setup/ssh-key-fixtures.ts";

const { signatures } = env.TEST_KEYS;
const signature = (label: string) => {
  const found = signatures.find((fixture) => fixture.label === label);
  if (!found) throw new Error(`no signature fixture ${label}`);
  return found;
};

interface Session {
  id: string;
  status: string;
  connection_identifier: string;
  signature_challenge: string;
  signature_url: string;
  sign_command: string;
  proof_url: string;
  failed_attempts?: number;
  connections: {
    method: string;
    outcome: string;
    confirmed: boolean | null;
    client_version: string;
    keys: { public_key_sha256: string; security_key: Record<string, unknown> | null }[];
  }[];
}

/** A session whose challenge is the one the fixtures signed (a new session's is random). */
async function sessionSigned(
  kind: "collect" | "verify",
  body: Record<string, unknown> = {},
): Promise<{ apiKey: string; session: Session }> {
  const { apiKey } = await newProject();
  const session = await createSession<Session>(apiKey, kind, body);
  await changeHeldSession(session.id, { signatureChallenge: SIGNATURE_CHALLENGE });
  return { apiKey, session };
}

const send = (
  identifier: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" },
) =>
  call(`/api/v1/signatures/${identifier}/`, {
    method: "POST",
    rawBody: body,
    headers: { "user-agent": "curl/8.5.0", ...headers },
  });

const detail = (apiKey: string, kind: "collect" | "verify", id: string) =>
  callJson<Session>(`/api/v1/ssh/${kind}/sessions/${id}/`, 200, { key: apiKey });

describe("proof by ssh-keygen -Y sign", () => {
  it("gives every session its challenge, the public URL, the command and the proof page", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "collect");
    expect(session.signature_challenge).toMatch(/^keyproof:[0-9a-z]{26}$/);
    expect(session.signature_url).toBe(
      `${env.PUBLIC_URL}/api/v1/signatures/${session.connection_identifier}/`,
    );
    expect(session.sign_command).toBe(
      `printf '%s' '${session.signature_challenge}' | ssh-keygen -Y sign -n keyproof -f ~/.ssh/id_ed25519 | curl -sS --data-binary @- ${session.signature_url}`,
    );
    expect(session.proof_url).toBe(`${env.PUBLIC_URL}/p/${session.connection_identifier}`);
  });

  it.each([
    "ed25519",
    "ecdsa-256",
    "ecdsa-384",
    "ecdsa-521",
    "rsa-2048",
    "ed25519, sha256",
    "ed25519, echo",
  ])("%s: collected like an SSH connection, as text for the terminal", async (label) => {
    const { apiKey, session } = await sessionSigned("collect", { ssh_message: "Thanks!" });
    const fixture = signature(label);
    const response = await send(session.connection_identifier, fixture.armored);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(text).toContain("Collected 1 key:");
    expect(text).toContain(fixture.sha256);
    expect(text.trimEnd().endsWith("Thanks!")).toBe(true);
    const after = await detail(apiKey, "collect", session.id);
    expect(after.status).toBe("completed");
    expect(after.connections).toEqual([
      expect.objectContaining({
        method: "signature",
        outcome: "collected",
        client_version: "curl/8.5.0",
        keys: [expect.objectContaining({ public_key_sha256: fixture.sha256 })],
      }),
    ]);
    // The challenge is used up.
    expect(after.signature_challenge).not.toBe(SIGNATURE_CHALLENGE);
  });

  it("answers JSON when asked, and records a security key's flags and counter", async () => {
    const { apiKey, session } = await sessionSigned("collect");
    const fixture = signature("sk-ecdsa");
    const answer = await callJson<{ outcome: string; message: string; keys: { sha256: string }[] }>(
      `/api/v1/signatures/${session.connection_identifier}/`,
      200,
      {
        method: "POST",
        rawBody: fixture.armored,
        headers: { "content-type": "text/plain", accept: "application/json" },
      },
    );
    expect(answer).toMatchObject({ outcome: "collected", keys: [{ sha256: fixture.sha256 }] });
    expect(answer.message).toContain("(ECDSA-SK 256)");
    const after = await detail(apiKey, "collect", session.id);
    expect(after.connections[0]?.keys[0]?.security_key).toMatchObject({
      user_present: true,
      counter: 7,
    });
  });

  it("counts in a verification session: a match verifies, another key is a failed attempt", async () => {
    const { apiKey, session } = await sessionSigned("verify", {
      keys: [{ public_key: env.TEST_KEYS.accepted[0]?.openssh }],
      max_attempts: 3,
    });
    const other = await send(session.connection_identifier, signature("ed25519").armored);
    const text = await other.text();
    // Recorded, but nothing counted: a 4xx, so `curl --fail` and scripts can tell.
    expect(other.status).toBe(422);
    expect(text).toContain("The key you offered is not one this session expects:");
    expect(text).toContain(
      "Sign with the right one: the same command, with -f /path/to/private_key",
    );
    expect(text).toContain("2 attempts left.");
    const after = await detail(apiKey, "verify", session.id);
    expect(after.failed_attempts).toBe(1);
    expect(after.connections[0]).toMatchObject({ method: "signature", outcome: "no_match" });
    // A failed attempt does not use the challenge up.
    expect(after.signature_challenge).toBe(SIGNATURE_CHALLENGE);
    // As JSON: a problem of its own kind, with what was recorded.
    const asJson = await send(session.connection_identifier, signature("ed25519").armored, {
      "content-type": "text/plain",
      accept: "application/json",
    });
    expect(asJson.status).toBe(422);
    expect(asJson.headers.get("content-type")).toBe("application/problem+json");
    expect(await asJson.json()).toMatchObject({
      type: "/docs#problem-key-not-counted",
      status: 422,
      detail: expect.stringContaining("not one this session expects"),
      result: { outcome: "no_match", failed_attempts: 2, max_attempts: 3 },
    });
  });

  it("is met by signing where must_confirm is set", async () => {
    const { apiKey, session } = await sessionSigned("collect", { must_confirm: true });
    expect((await send(session.connection_identifier, signature("ecdsa-256").armored)).status).toBe(
      200,
    );
    const after = await detail(apiKey, "collect", session.id);
    expect(after.connections[0]).toMatchObject({ outcome: "collected", confirmed: true });
  });

  it("refuses a key that cannot be used with the bridge's sentence, keeping nothing", async () => {
    const { apiKey, session } = await sessionSigned("collect");
    const response = await send(session.connection_identifier, signature("rsa-1024").armored);
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(text).toContain("RSA keys of 1024 bits are too short");
    expect(text).toContain("and sign with it:");
    const after = await detail(apiKey, "collect", session.id);
    expect(after.connections[0]).toMatchObject({ outcome: "no_key", keys: [] });
  });

  it.each([
    [
      "another namespace",
      signature("other namespace").armored,
      /namespace "git"; keyproof's is made with -n keyproof/,
    ],
    ["other data", signature("other data").armored, /not over this session's challenge/],
    ["not a signature", "hello", /That is not an SSH signature/],
    [
      "damaged base64",
      "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH$$$\n-----END SSH SIGNATURE-----",
      /damaged/,
    ],
    [
      "a truncated signature",
      "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----",
      /damaged/,
    ],
  ])("turns away %s with a sentence, and no attempt", async (_, body, sentence) => {
    const { apiKey, session } = await sessionSigned("verify", {
      keys: [{ public_key: env.TEST_KEYS.accepted[0]?.openssh }],
    });
    const response = await send(session.connection_identifier, body);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(sentence);
    const after = await detail(apiKey, "verify", session.id);
    expect(after).toMatchObject({ status: "pending", failed_attempts: 0, connections: [] });
  });

  it("cannot be replayed once it counted, and refuses closed and unknown sessions", async () => {
    const { session } = await sessionSigned("collect", { multi_connection: true });
    const armored = signature("ed25519").armored;
    expect((await send(session.connection_identifier, armored)).status).toBe(200);
    const replay = await send(session.connection_identifier, armored);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("a challenge is used up once a proof counts");

    const { session: closed } = await sessionSigned("collect");
    expect((await send(closed.connection_identifier, armored)).status).toBe(200);
    const again = await send(closed.connection_identifier, armored);
    // The session completed with the first proof: that is what the user needs to hear.
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already complete");
    const unknown = await send("0".repeat(26), armored);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("There is no keyproof session with this name.");
  });

  it("refuses a closed session with the sentence the bridge uses, whatever the signature", async () => {
    const { apiKey, session } = await sessionSigned("collect", { multi_connection: true });
    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/complete/`, 200, {
      method: "POST",
      key: apiKey,
    });
    for (const body of [signature("ed25519").armored, "hello"]) {
      const response = await send(session.connection_identifier, body);
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("already complete and accepts no more connections");
    }
  });

  it("answers problems as JSON when asked, limits size and media type, and rate", async () => {
    const { session } = await sessionSigned("collect");
    const asJson = await send(session.connection_identifier, "hello", {
      "content-type": "text/plain",
      accept: "application/json",
    });
    expect(asJson.status).toBe(400);
    expect(asJson.headers.get("content-type")).toBe("application/problem+json");
    const huge = await send(session.connection_identifier, "x".repeat(17 * 1024));
    expect(huge.status).toBe(413);
    const json = await send(session.connection_identifier, "{}", {
      "content-type": "application/json",
    });
    expect(json.status).toBe(415);
    // The first request above counted too: ten in all, the eleventh is turned away.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await send(session.connection_identifier, "x")).status);
    const limited = await send(session.connection_identifier, "x");
    expect(statuses.every((status) => status === 400)).toBe(true);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
