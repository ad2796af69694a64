import { describe, expect, it } from "vitest";
import { revokeApiKey } from "../src/domain/api-keys.ts";
import { OPERATIONS } from "../src/schemas/openapi.ts";
import { call, callJson, db, expectProblem, newProject, type TestProject } from "./helpers.ts";

const VERIFY_BODY = {
  keys: [
    {
      public_key:
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4",
    },
  ],
};

/** A project with one session of each kind, so every path can be filled in. */
async function projectWithSessions() {
  const project = await newProject();
  const collect = await callJson<{ id: string }>("/api/v1/ssh/collect/sessions/", 201, {
    method: "POST",
    key: project.apiKey,
    body: { multi_connection: true },
  });
  const verify = await callJson<{ id: string }>("/api/v1/ssh/verify/sessions/", 201, {
    method: "POST",
    key: project.apiKey,
    body: { ...VERIFY_BODY, multi_connection: true },
  });
  return { project, sessions: { collect: collect.id, verify: verify.id } };
}

function concretePath(path: string, sessions: { collect: string; verify: string }) {
  const sessionId = path.includes("/verify/") ? sessions.verify : sessions.collect;
  return path.replace("{session_id}", sessionId);
}

function requestFor(op: (typeof OPERATIONS)[number], path: string, key: string | null) {
  const body = op.body
    ? path.includes("/verify/") && op.method === "post"
      ? VERIFY_BODY
      : {}
    : undefined;
  return call(path, { method: op.method.toUpperCase(), key, body });
}

/** Four kinds of bad key; every route must answer each with the same 401. */
async function badKeys(): Promise<[string, string | null][]> {
  const revoked = await newProject();
  await revokeApiKey(db(), revoked.projectId, revoked.keyId, new Date());
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
      if (op.path.includes("{session_id}")) {
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
  const second = await createApiKey(db(), {
    projectId: project.projectId,
    name: "second",
    now: new Date().toISOString(),
  });
  await revokeApiKey(db(), project.projectId, second.row.id, new Date());
  await callJson("/api/v1/auth/info/", 200, { key: project.apiKey });
  await expectProblem(await call("/api/v1/auth/info/", { key: second.plaintext }), 401);
});
