import { describe, expect, it } from "vitest";
import { revokeApiKey } from "../src/domain/api-keys.ts";
import {
  call,
  callJson,
  directory,
  expectProblem,
  newProject,
  type TestProject,
} from "./helpers.ts";
import { documentedOperations, type OpenApiTestDocument } from "./openapi-operations.ts";

/** Every operation the generated document describes: a route added anywhere is covered here. */
const OPERATIONS = documentedOperations(
  (await (await call("/api/v1/openapi.json")).json()) as OpenApiTestDocument,
).filter(({ operation }) => operation.security?.length !== 0);

const VERIFY_BODY = {
  keys: [
    {
      public_key:
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4",
    },
  ],
};

const DISABLED_HOOK = { url: "http://127.0.0.1:9/never", enabled: false };

interface Fixture {
  collect: string;
  verify: string;
  collectHook: string;
  verifyHook: string;
  projectHook: string;
  invocation: string;
}

/** A project with a session of each kind, webhooks of every scope and a delivery. */
async function projectWithSessions() {
  const project = await newProject();
  const create = <T>(path: string, body: unknown) =>
    callJson<T>(path, 201, { method: "POST", key: project.apiKey, body });
  type WithHooks = { id: string; webhooks: { id: string }[] };
  const collect = await create<WithHooks>("/api/v1/ssh/collect/sessions/", {
    multi_connection: true,
    webhooks: [DISABLED_HOOK],
  });
  const verify = await create<WithHooks>("/api/v1/ssh/verify/sessions/", {
    ...VERIFY_BODY,
    multi_connection: true,
    webhooks: [DISABLED_HOOK],
  });
  const hook = await create<{ id: string }>("/api/v1/webhooks/", DISABLED_HOOK);
  const ping = await callJson<{ id: string }>(`/api/v1/webhooks/${hook.id}/test/`, 202, {
    method: "POST",
    key: project.apiKey,
  });
  const fixture: Fixture = {
    collect: collect.id,
    verify: verify.id,
    collectHook: collect.webhooks[0]?.id ?? "",
    verifyHook: verify.webhooks[0]?.id ?? "",
    projectHook: hook.id,
    invocation: ping.id,
  };
  return { project, sessions: fixture };
}

function concretePath(path: string, fixture: Fixture) {
  const verify = path.includes("/verify/");
  const sessionScoped = path.includes("/sessions/{session_id}/webhooks/");
  return path
    .replace("{session_id}", verify ? fixture.verify : fixture.collect)
    .replace(
      "{webhook_id}",
      sessionScoped ? (verify ? fixture.verifyHook : fixture.collectHook) : fixture.projectHook,
    )
    .replace("{invocation_id}", fixture.invocation);
}

function requestFor(op: (typeof OPERATIONS)[number], path: string, key: string | null) {
  const creatingVerify = path.endsWith("/verify/sessions/") && op.method === "post";
  const isWebhookBody =
    path.includes("/webhooks/") && (op.method === "post" || op.method === "put");
  const body = op.operation.requestBody
    ? creatingVerify
      ? VERIFY_BODY
      : isWebhookBody
        ? DISABLED_HOOK
        : {}
    : undefined;
  return call(path, { method: op.method.toUpperCase(), key, body });
}

/** Four kinds of bad key; every route must answer each with the same 401. */
async function badKeys(): Promise<[string, string | null][]> {
  const revoked = await newProject();
  await revokeApiKey(directory(), revoked.projectId, revoked.keyId, new Date());
  const expired = await newProject({ keyExpiredAt: new Date(Date.now() - 1000).toISOString() });
  return [
    ["no key", null],
    ["an unknown key", "kp_live_abcdefghijklmnopqrstuvwxyz234567"],
    ["a revoked key", revoked.apiKey],
    ["an expired key", expired.apiKey],
  ];
}

describe.each(OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
  "security of %s",
  (_, op) => {
    it("answers every bad key with the same 401", async () => {
      const { sessions } = await projectWithSessions();
      const path = concretePath(op.path, sessions);
      const details = new Set<string>();
      for (const [, key] of await badKeys()) {
        const problem = await expectProblem(await requestFor(op, path, key), 401);
        details.add(JSON.stringify({ ...problem, request_id: undefined }));
      }
      expect(details.size).toBe(1);
    });

    it("hides another project's sessions behind 404", async () => {
      const owner = await projectWithSessions();
      const other: TestProject = await newProject();
      const path = concretePath(op.path, owner.sessions);
      const response = await requestFor(op, path, other.apiKey);
      if (op.path.includes("{")) {
        await expectProblem(response, 404);
        const stillThere = await call(
          concretePath("/api/v1/ssh/collect/sessions/{session_id}/", owner.sessions),
          {
            key: owner.project.apiKey,
          },
        );
        expect(stillThere.status).toBe(200);
      } else if (op.method === "get" && op.path.endsWith("/sessions/")) {
        const list = (await response.json()) as { items: { id: string }[]; total: number };
        expect(list.total).toBe(0);
      } else {
        expect(response.status).toBeLessThan(300);
      }
    });
  },
);

it("keeps a working key working after another key of the project is revoked", async () => {
  const project = await newProject();
  const { createApiKey } = await import("../src/domain/api-keys.ts");
  const second = await createApiKey(
    { directory: directory(), projectId: project.projectId, now: new Date() },
    { name: "second" },
  );
  await revokeApiKey(directory(), project.projectId, second.row.id, new Date());
  await callJson("/api/v1/auth/info/", 200, { key: project.apiKey });
  await expectProblem(await call("/api/v1/auth/info/", { key: second.plaintext }), 401);
});
