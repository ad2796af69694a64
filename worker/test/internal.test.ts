import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, projectMembers } from "../src/db/directory.ts";
import { createAccount } from "../src/domain/accounts.ts";
import { DEVELOPMENT_ACCOUNT_EMAIL } from "../src/domain/development-account.ts";
import worker from "../src/index.ts";
import { SIGNATURE_HEADERS, signRequest } from "../src/protocol/request-signing.ts";
import { SeenNonces } from "../src/session-object/seen-nonces.ts";
import { SESSION_ENTRY, type SessionEntry } from "../src/session-object/session-record.ts";
import { WriteBuffer } from "../src/session-object/write-buffer.ts";
import {
  call,
  callJson,
  createSession,
  directory,
  expectProblem,
  newProject,
  postRawJson,
} from "./helpers.ts";
import { objectOf } from "./session-objects.ts";

const PATH = "/internal/v1/connections";

async function signedOpen(identifier: string, options: { secret?: string; now?: number } = {}) {
  const body = JSON.stringify({
    connection_identifier: identifier,
    ip_address: "127.0.0.1",
    client_version: "SSH-2.0-test",
  });
  const headers = await signRequest(
    options.secret ?? env.BRIDGE_SECRET ?? "",
    { method: "POST", path: PATH, body },
    options.now,
  );
  return { body, headers: { ...headers, "content-type": "application/json" } };
}

describe("internal endpoints", () => {
  it("accept a correctly signed request", async () => {
    const { body, headers } = await signedOpen("0000000000000000000000000a");
    const result = await callJson(PATH, 200, { method: "POST", rawBody: body, headers });
    expect(result).toMatchObject({ accepted: false, reason: "unknown" });
  });

  it("open a connection to a real session and report busy to a second one", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ connection_identifier: string }>(
      "/api/v1/ssh/collect/sessions/",
      201,
      {
        method: "POST",
        key: apiKey,
      },
    );
    const first = await signedOpen(session.connection_identifier);
    const opened = await callJson(PATH, 200, {
      method: "POST",
      rawBody: first.body,
      headers: first.headers,
    });
    expect(opened).toMatchObject({ accepted: true, kind: "collect", must_confirm: false });
    const second = await signedOpen(session.connection_identifier);
    const busy = await callJson(PATH, 200, {
      method: "POST",
      rawBody: second.body,
      headers: second.headers,
    });
    expect(busy).toMatchObject({ accepted: false, reason: "busy" });
  });

  it("accept the previous secret during a rotation", async () => {
    const { body, headers } = await signedOpen("0000000000000000000000000a", {
      secret: env.BRIDGE_SECRET_PREVIOUS,
    });
    expect((await call(PATH, { method: "POST", rawBody: body, headers })).status).toBe(200);
  });

  it("refuse a missing signature with 401", async () => {
    const { body } = await signedOpen("0000000000000000000000000a");
    await expectProblem(
      await call(PATH, {
        method: "POST",
        rawBody: body,
        headers: { "content-type": "application/json" },
      }),
      401,
    );
  });

  it("refuse a signature made with the wrong secret", async () => {
    const { body, headers } = await signedOpen("0000000000000000000000000a", {
      secret: "not-the-secret",
    });
    await expectProblem(await call(PATH, { method: "POST", rawBody: body, headers }), 401);
  });

  it("refuse a stale timestamp", async () => {
    const { body, headers } = await signedOpen("0000000000000000000000000a", {
      now: Date.now() - 301_000,
    });
    await expectProblem(await call(PATH, { method: "POST", rawBody: body, headers }), 401);
  });

  it("refuse a replayed call that would change a session: open, finish, progress", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect", { multi_connection: true });
    const open = await signedOpen(session.connection_identifier);
    const opened = await callJson<{ connection_id: string; session_id: string }>(PATH, 200, {
      method: "POST",
      rawBody: open.body,
      headers: open.headers,
    });
    // The same open again would start a second connection: refused.
    await expectProblem(
      await call(PATH, { method: "POST", rawBody: open.body, headers: open.headers }),
      401,
    );
    const signed = async (path: string, payload: unknown) => {
      const body = JSON.stringify(payload);
      const headers = await signRequest(env.BRIDGE_SECRET ?? "", { method: "POST", path, body });
      return { path, body, headers: { ...headers, "content-type": "application/json" } };
    };
    for (const request of [
      await signed(`${PATH}/${opened.connection_id}/progress`, {
        session_id: opened.session_id,
        confirming: [],
      }),
      await signed(`${PATH}/${opened.connection_id}/finish`, {
        session_id: opened.session_id,
        keys: [],
        keys_offered: 0,
        confirmed: null,
      }),
    ]) {
      const send = () =>
        call(request.path, { method: "POST", rawBody: request.body, headers: request.headers });
      expect((await send()).status).toBe(200);
      await expectProblem(await send(), 401);
    }
  });

  it("keep a call's nonce in the session's entry it wrote, through a restart of the object", async () => {
    const { apiKey } = await newProject();
    const session = await createSession(apiKey, "collect");
    const open = await signedOpen(session.connection_identifier);
    await callJson(PATH, 200, { method: "POST", rawBody: open.body, headers: open.headers });
    const nonce = (open.headers as Record<string, string>)[SIGNATURE_HEADERS.nonce];
    const stub = objectOf(session.id);
    const kept = await runInDurableObject(stub, (_instance, state) => {
      const kv = state.storage.kv;
      return {
        alone: [...kv.list({ prefix: "nonce:" })].length,
        inSession: kv.get<SessionEntry>(SESSION_ENTRY)?.nonces ?? {},
      };
    });
    // The open wrote the session's entry (pending to active): the nonce rode in it.
    expect(kept.alone).toBe(0);
    expect(Object.keys(kept.inSession)).toEqual([nonce]);
    // An object that starts over reads it back: the replay is still refused.
    const refused = await runInDurableObject(stub, (_instance, state) => {
      WriteBuffer.of(state.storage).forget();
      return new SeenNonces(state.storage).admit(
        { nonce: nonce ?? "", expiresAt: Date.now() + 60_000 },
        Date.now(),
      );
    });
    expect(refused).toBe(false);
  });

  it("answer a replayed call that changes nothing the same again", async () => {
    const { body, headers } = await signedOpen("0000000000000000000000000a");
    for (let i = 0; i < 2; i++) {
      const result = await callJson(PATH, 200, { method: "POST", rawBody: body, headers });
      expect(result).toMatchObject({ accepted: false, reason: "unknown" });
    }
  });

  it("refuse a body that differs from the signed one", async () => {
    const { headers } = await signedOpen("0000000000000000000000000a");
    const tampered = JSON.stringify({
      connection_identifier: "0000000000000000000000000b",
      ip_address: "1.2.3.4",
      client_version: "x",
    });
    await expectProblem(await call(PATH, { method: "POST", rawBody: tampered, headers }), 401);
  });

  it("never accept an API key instead of a signature", async () => {
    const { apiKey } = await newProject();
    const { body } = await signedOpen("0000000000000000000000000a");
    await expectProblem(await postRawJson(PATH, body, apiKey), 401);
    expect(SIGNATURE_HEADERS.signature).toBe("x-keyproof-signature");
  });
});

describe("the development seed", () => {
  const seed = async (
    secret: string,
    environment: string,
    request: { email?: string; password?: string; resetPassword?: boolean } = {},
  ) => {
    const body = JSON.stringify({
      email: DEVELOPMENT_ACCOUNT_EMAIL,
      password: "a development password",
      resetPassword: false,
      projectName: "Seeded",
      ...request,
    });
    const headers = await signRequest(secret, {
      method: "POST",
      path: "/internal/v1/dev/seed",
      body,
    });
    return worker.fetch(
      new Request("http://localhost/internal/v1/dev/seed", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
      }),
      { ...env, ENVIRONMENT: environment },
      createExecutionContext(),
    );
  };

  it("makes a project with a live and a test key, signed, in development only", async () => {
    const made = await seed(env.BRIDGE_SECRET ?? "", "development");
    expect(made.status).toBe(201);
    const seeded = (await made.json()) as {
      project_id: string;
      api_key: string;
      test_api_key: string;
    };
    for (const key of [seeded.api_key, seeded.test_api_key])
      expect(await callJson("/api/v1/auth/info/", 200, { key })).toMatchObject({
        project_id: seeded.project_id,
      });
    expect((await seed(env.BRIDGE_SECRET ?? "", "production")).status).toBe(404);
    expect((await seed("not the secret", "development")).status).toBe(401);
  });

  it("never resets, nor adds a project to, another account than the development one", async () => {
    const email = `someone-${crypto.randomUUID()}@example.com`;
    const account = await createAccount(directory(), email, "their own password", new Date());
    const before = await directory()
      .select({ hash: accounts.passwordHash })
      .from(accounts)
      .where(eq(accounts.id, account.id));
    const refused = await seed(env.BRIDGE_SECRET ?? "", "development", {
      email,
      password: "the seed's password",
      resetPassword: true,
    });
    const problem = await expectProblem(refused, 400);
    expect(JSON.stringify(problem)).toContain("email");
    const after = await directory()
      .select({ hash: accounts.passwordHash })
      .from(accounts)
      .where(eq(accounts.id, account.id));
    expect(after).toEqual(before);
    const projects = await directory()
      .select()
      .from(projectMembers)
      .where(eq(projectMembers.accountId, account.id));
    expect(projects).toEqual([]);
  });
});
