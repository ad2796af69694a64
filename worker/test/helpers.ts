import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { type Database, database } from "../src/db/client.ts";
import { shardDb } from "../src/db/databases.ts";
import { apiKeys, projectMembers, projects } from "../src/db/directory.ts";
import { projectSettings } from "../src/db/project-settings.ts";
import { createAccount } from "../src/domain/accounts.ts";
import { newApiKeyRow } from "../src/domain/api-keys.ts";
import type { ProjectContext } from "../src/domain/context.ts";
import { createProject, newProjectRows } from "../src/domain/projects.ts";
import { randomBase32 } from "../src/lib/ids.ts";
import { expectDocumented } from "./openapi-contract.ts";

/** A project put on `shard` as createProject would put it on the emptiest one. */
async function placedProject(accountId: string, shard: string, now: Date) {
  const { project, owner } = newProjectRows(accountId, "Test project", shard, now.toISOString());
  await shardDb(env, shard)
    .insert(projectSettings)
    .values({ projectId: project.id, retentionDays: project.retentionDays });
  await directory().insert(projects).values(project);
  await directory().insert(projectMembers).values(owner);
  return project;
}

/** The directory: accounts, projects, members, API keys. */
export const directory = () => database(env.DIRECTORY);

/** A project's index shard, as the directory names it: its sessions, events, webhooks. */
export async function indexOf(projectId: string): Promise<Database> {
  const [project] = await directory()
    .select({ shard: projects.shard })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) throw new Error(`no project ${projectId} in the directory`);
  return shardDb(env, project.shard);
}

export interface TestProject {
  projectId: string;
  apiKey: string;
  keyId: string;
  /** The same project's `kp_test_` key. */
  testKey: string;
  /** The index shard the project was placed on, and drizzle over it. */
  shard: string;
  db: Database;
}

/** A fresh account, project and API key, so tests never share state. */
export async function newProject(
  options: {
    keyExpiredAt?: string;
    /** Place the project here rather than on the emptiest shard (two projects on one shard). */
    shard?: string;
  } = {},
): Promise<TestProject> {
  const now = new Date();
  const account = await createAccount(
    directory(),
    `test-${randomBase32(10)}@example.com`,
    "correct horse battery",
    now,
  );
  const project = options.shard
    ? await placedProject(account.id, options.shard, now)
    : await createProject(env, directory(), account.id, "Test project", now);
  const { row, plaintext } = await newApiKeyRow({
    projectId: project.id,
    name: "test key",
    expiredAt: options.keyExpiredAt ?? null,
    now: now.toISOString(),
  });
  const test = await newApiKeyRow({
    projectId: project.id,
    name: "test mode key",
    mode: "test",
    now: now.toISOString(),
  });
  // Written directly: an already-expired key is a case the API refuses to create.
  await directory().insert(apiKeys).values([row, test.row]);
  return {
    projectId: project.id,
    apiKey: plaintext,
    keyId: row.id,
    testKey: test.plaintext,
    shard: project.shard,
    db: shardDb(env, project.shard),
  };
}

/** What domain functions take for a test project: its databases, as the API middleware makes them. */
export function contextOf(project: TestProject, livemode = true): ProjectContext {
  return {
    db: project.db,
    directory: directory(),
    shard: project.shard,
    env,
    projectId: project.projectId,
    livemode,
    now: new Date(),
  };
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

/** Calls the Worker's own fetch handler inside workerd, as a client on the network would. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("x-api-key", options.key);
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const method = options.method ?? "GET";
  const response = await exports.default.fetch(
    new Request(`http://localhost${path}`, { method, headers, body, redirect: "manual" }),
  );
  // Every answer of the public API is held to the document it serves (openapi-contract.ts).
  if (path.startsWith("/api/v1/")) await expectDocumented(method, path, response.clone());
  return response;
}

/** Calls and parses JSON, asserting the status first so failures show the body. */
export async function callJson<T = Record<string, unknown>>(
  path: string,
  expectedStatus: number,
  options: CallOptions = {},
): Promise<T> {
  const response = await call(path, options);
  const text = await response.text();
  expect(response.status, text).toBe(expectedStatus);
  return JSON.parse(text) as T;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  request_id: string;
  errors?: { location: string; message: string; value?: unknown }[];
}

/** Asserts the RFC 9457 shape every error shares and returns it for specific checks. */
export async function expectProblem(response: Response, status: number): Promise<ProblemBody> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = JSON.parse(text) as ProblemBody;
  expect(problem).toMatchObject({
    status,
    instance: new URL(`http://x${problem.instance}`).pathname,
  });
  expect(problem.title).toBeTypeOf("string");
  expect(problem.detail).toBeTypeOf("string");
  expect(problem.type).toMatch(/^\/docs#problem-/);
  expect(problem.request_id).not.toBe("");
  expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
  return problem;
}

export function locations(problem: ProblemBody): string[] {
  return (problem.errors ?? []).map((error) => error.location);
}

/** Creates a session through the API, as an integrator would. */
export function createSession<T = { id: string; connection_identifier: string }>(
  apiKey: string,
  kind: "collect" | "verify",
  body: Record<string, unknown> = {},
): Promise<T> {
  return callJson<T>(`/api/v1/ssh/${kind}/sessions/`, 201, { method: "POST", key: apiKey, body });
}

/** POSTs `rawBody` as it is, labelled JSON: for bodies too big, too deep or too odd to build. */
export function postRawJson(path: string, rawBody: BodyInit, key: string | null = null) {
  return call(path, {
    method: "POST",
    key,
    rawBody,
    headers: { "content-type": "application/json" },
  });
}

/** Polls the test's webhook receiver until a delivery of `event` (`collect_session.redacted`) arrived at `path`. */
export async function deliveryAt(path: string, event: string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const all = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
      path: string;
      body: string;
    }[];
    const found = all
      .filter((request) => request.path === path)
      .map(
        (request) =>
          JSON.parse(request.body) as {
            entity: string;
            event: string;
            request_time: string;
            payload: Record<string, unknown>;
          },
      )
      .find((body) => `${body.entity}.${body.event}` === event);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no ${event} delivery at ${path}`);
}

/** The types of a session's events in its project's event log, sorted. */
export async function eventTypesOf(apiKey: string, sessionId: string): Promise<string[]> {
  const events = await callJson<{ items: { type: string }[] }>(
    `/api/v1/events/?session_id=${sessionId}`,
    200,
    { key: apiKey },
  );
  return events.items.map((event) => event.type).sort();
}
