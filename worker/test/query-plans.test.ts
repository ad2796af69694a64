import { createMessageBatch, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withD1 } from "../src/db/d1-calls.ts";
import { sessions } from "../src/db/sessions.ts";
import { recordStatements, statementsPrepared } from "../src/development/d1-simulation.ts";
import { everyMinute } from "../src/domain/housekeeping.ts";
import { deleteProject, deleteTestData } from "../src/domain/project-erasure.ts";
import { RETIRE_AFTER_MS, sweepRetention } from "../src/domain/retention.ts";
import worker from "../src/index.ts";
import { DEAD_LETTER_QUEUE, type WebhookMessage } from "../src/webhooks/queue.ts";
import { sweepDueInvocations } from "../src/webhooks/sweeper.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, createSession, directory, newProject } from "./helpers.ts";
import { changeHeldSession, indexed, objectOf } from "./session-objects.ts";
import { browserWithProject } from "./web-client.ts";

/**
 * Every statement the
 * Worker and its objects send for a request, a proof, a delivery, a sweep, a retirement or an
 * erasure walks a range its request bounds. Each is explained (EXPLAIN QUERY PLAN) against the
 * real schema: a SCAN of a table that grows with history fails, as does a SEARCH of one that
 * neither names a row (its id, its session, its identifier), nor has both ends of its range, nor
 * stops at a LIMIT in its index's order.
 *
 * Tables that grow with history: sessions, their keys, authorities, connections and connection
 * keys, event rows, webhooks (a session's own) and their invocations. The others never do: a
 * shard's project settings grow with projects, and the directory's tables with accounts, projects
 * and keys — what people make, not what they do.
 */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

const GROWING = new Set([
  "sessions",
  "session_keys",
  "session_authorities",
  "connections",
  "connection_keys",
  "event_rows",
  "webhooks",
  "webhook_invocations",
]);
/** Columns an equality on which names one row, or one session's: the request bounds the walk. */
const BOUNDING = new Set(["id", "session_id", "connection_identifier"]);
/**
 * Statements allowed to walk, each with why: nothing else may.
 */
const ALLOWED: [RegExp, string][] = [
  [
    /"next_attempt_at" is null and "webhook_invocations"\."created_at" <=/,
    "development only: first attempts a restart of the local queue lost (webhooks/sweeper.ts)",
  ],
  [
    /^delete from "event_rows" where \("event_rows"\."id" < \? and "event_rows"\."session_id" is null\)/,
    "deletes every row it walks: the pings past their time (domain/housekeeping.ts)",
  ],
  [
    /^delete from "webhook_invocations" where .*"events"\."row_id" < \? and "events"\."session_id" is null/s,
    "deletes the deliveries of every ping it walks: those past their time (domain/housekeeping.ts)",
  ],
  [
    /^delete from "webhooks" where "webhooks"\."id" = \?$/,
    "its cascade deletes every invocation it walks: a deleted project's webhook, emptied step by step first",
  ],
  [
    /^INSERT INTO "webhooks" \(/,
    "the foreign key's look for the inserted webhooks' own deliveries: a new webhook has none",
  ],
];

/** Aliases the `events` view gives its tables (migration index/0004). */
const VIEW_ALIASES: Record<string, string> = { r: "event_rows" };

/** Every kind of request, proof, delivery, sweep and erasure, on real data. */
async function everyKindOfWork() {
  const project = await newProject();
  const { apiKey, testKey, db, shard } = project;
  const hook = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
    method: "POST",
    key: apiKey,
    body: { url: `${env.RECEIVER_URL}/ok/plans` },
  });
  const collect = await createSession<{ id: string; connection_identifier: string }>(
    apiKey,
    "collect",
    {
      external_id: "plans",
      multi_connection: true,
      webhooks: [{ url: `${env.RECEIVER_URL}/ok/plans-own` }],
    },
  );
  const verify = await createSession<{ id: string; connection_identifier: string }>(
    apiKey,
    "verify",
    { keys: [{ public_key: ed25519?.openssh }] },
  );
  await call("/api/v1/ssh/collect/sessions/", {
    method: "POST",
    key: apiKey,
    body: {},
    headers: { "idempotency-key": "plans" },
  });
  for (const session of [collect, verify])
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
  const base = (kind: string) => `/api/v1/ssh/${kind}/sessions/`;
  const reads = [
    `${base("collect")}${collect.id}/`,
    `${base("collect")}?status=pending`,
    `${base("collect")}?external_id=plans`,
    `${base("collect")}?offset=1&limit=1`,
    `${base("verify")}`,
    `${base("verify")}${verify.id}/attestation/`,
    `/api/v1/events/?session_id=${collect.id}`,
    "/api/v1/events/?type=key_collected",
    "/api/v1/events/?offset=1&limit=2",
    `/api/v1/webhooks/${hook.id}/deliveries/`,
    `${base("collect")}${collect.id}/webhooks/`,
    "/api/v1/webhooks/",
    "/api/v1/project",
  ];
  for (const path of reads) await call(path, { key: apiKey });
  await call(`/api/v1/webhooks/${hook.id}/test/`, { method: "POST", key: apiKey });
  await call(`${base("collect")}${collect.id}/`, {
    method: "PATCH",
    key: apiKey,
    body: { external_id: "plans-2" },
  });
  await call(`${base("collect")}${collect.id}/complete/`, { method: "POST", key: apiKey });
  await call(`${base("collect")}${collect.id}/redact/`, { method: "POST", key: apiKey });
  await call(`/p/${verify.connection_identifier}`);
  await call(`/p/${verify.connection_identifier}/status`);
  await indexed(collect.id);
  // Deliveries: sent by the queue's consumer; and what the sweep, a retry, a dead letter read.
  const [delivery] = (
    await callJson<{ items: { id: string }[] }>(`/api/v1/webhooks/${hook.id}/deliveries/`, 200, {
      key: apiKey,
    })
  ).items;
  if (delivery)
    await call(`/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry/`, {
      method: "POST",
      key: apiKey,
    });
  await sweepDueInvocations(withD1(env), shard, new Date(Date.now() + 3_600_000));
  if (delivery)
    await worker.queue(
      createMessageBatch<WebhookMessage>(DEAD_LETTER_QUEUE, [
        {
          id: "dead-plans",
          timestamp: new Date(),
          attempts: 1,
          body: { invocation_id: delivery.id, attempt: 2, shard },
        },
      ]),
      env,
    );
  // Retirement, a read back, retention and the cron's minute.
  const closedAt = new Date(Date.now() - RETIRE_AFTER_MS - 1_000).toISOString();
  await changeHeldSession(verify.id, { completedAt: closedAt });
  await db.update(sessions).set({ completedAt: closedAt }).where(eq(sessions.id, verify.id));
  await runDurableObjectAlarm(objectOf(verify.id));
  await call(`${base("verify")}${verify.id}/`, { key: apiKey });
  await call(`/p/${verify.connection_identifier}`);
  await sweepRetention(withD1(env), shard, new Date(Date.now() + 40 * 86_400_000));
  await everyMinute(withD1(env), new Date("2026-11-27T13:00:00Z"));
  // Test data, a session deleted, the web app's pages, and a project's deletion.
  await createSession(testKey, "collect");
  await call(`${base("collect")}${collect.id}/`, { method: "DELETE", key: apiKey });
  const { browser, projectId } = await browserWithProject("Plans");
  for (const page of ["", "/sessions", "/settings"])
    await browser.get(`/projects/${projectId}${page}`);
  await deleteTestData({
    env: withD1(env),
    directory: directory(),
    shard,
    projectId: project.projectId,
  });
  await deleteProject(
    {
      env: withD1(env),
      directory: directory(),
      shard,
      projectId: project.projectId,
      name: "Test project",
    },
    "Test project",
  );
}

/** Placeholders in a statement, outside its quoted strings. */
function placeholders(sql: string): number {
  let count = 0;
  let quoted = false;
  for (const char of sql) {
    if (char === "'") quoted = !quoted;
    else if (char === "?" && !quoted) count += 1;
  }
  return count;
}

/** The tables a statement names, by the aliases it gives them. */
function aliases(sql: string): Map<string, string> {
  const named = new Map(Object.entries(VIEW_ALIASES));
  for (const match of sql.matchAll(
    /\b(?:from|join|into|update)\s+"?(\w+)"?(?:\s+(?:as\s+)?"?(\w+)"?)?/gi,
  )) {
    const [, table = "", alias] = match;
    named.set(table, table);
    if (
      alias &&
      !/^(where|on|set|values|inner|left|cross|join|select|limit|order|group)$/i.test(alias)
    )
      named.set(alias, table);
  }
  return named;
}

/** A step of EXPLAIN QUERY PLAN: its node, the node it belongs to, and what it does. */
interface PlanStep {
  id: number;
  parent: number;
  detail: string;
}

/** Why each step of a statement's plan may walk a table's past; none when all are bounded. */
function unbounded(sql: string, plan: PlanStep[]): string[] {
  if (ALLOWED.some(([allowed]) => allowed.test(sql))) return [];
  const limited = /\blimit\b/i.test(sql);
  // A sort at a step's own level reads all it matches before a LIMIT stops it (a sort of a
  // page the step's subquery already cut is another level's).
  const sortedAt = new Set(
    plan
      .filter((step) => step.detail.includes("USE TEMP B-TREE FOR ORDER BY"))
      .map((step) => step.parent),
  );
  const tables = aliases(sql);
  const problems: string[] = [];
  for (const { detail, parent } of plan) {
    const sorted = sortedAt.has(parent);
    if (detail.includes("VIRTUAL TABLE")) continue;
    const scan = /^SCAN (\w+)/.exec(detail);
    const table = (name: string) => tables.get(name) ?? name;
    if (scan && GROWING.has(table(scan[1] ?? ""))) problems.push(`${detail}`);
    const search = /^SEARCH (\w+) USING .*?\((.*)\)$/.exec(detail);
    if (!search || !GROWING.has(table(search[1] ?? ""))) continue;
    const terms = (search[2] ?? "").split(" AND ");
    const named = terms.some(
      (term) => BOUNDING.has(term.replace(/[=<>].*$/, "")) && term.includes("="),
    );
    const columns = terms.map((term) => term.replace(/[=<>].*$/, ""));
    const bothEnds = columns.some(
      (column) =>
        terms.some((term) => term.startsWith(`${column}>`)) &&
        terms.some((term) => term.startsWith(`${column}<`)),
    );
    if (!named && !bothEnds && !(limited && !sorted)) problems.push(detail);
  }
  return problems.map((problem) => `${problem}\n    in: ${sql}`);
}

describe("every statement on a hot path", () => {
  it("walks a range its request bounds, never a table's past", async () => {
    recordStatements(true);
    try {
      await everyKindOfWork();
    } finally {
      recordStatements(false);
    }
    const databases = withD1(env) as unknown as Record<string, D1Database>;
    const problems: string[] = [];
    for (const [sql, binding] of statementsPrepared) {
      const d1 = databases[binding];
      if (!d1) continue;
      const nulls = Array.from({ length: placeholders(sql) }, () => null);
      const { results } = await d1
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...nulls)
        .all<PlanStep>();
      problems.push(...unbounded(sql, results));
    }
    expect(problems).toEqual([]);
    // It saw the work: a proof's push, a delivery's claim, lists, erasure, the directory.
    const seen = [...statementsPrepared.keys()];
    for (const part of [
      '"id" IN (SELECT value FROM json_each(', // a webhook run's claim (webhooks/claims.ts)
      'insert into "event_rows"', // a push (session-object/index-push.ts)
      'from "project_days"', // the project's home page
      'delete from "sessions"', // erasure
    ])
      expect(
        seen.some((sql) => sql.includes(part)),
        part,
      ).toBe(true);
    expect(statementsPrepared.size).toBeGreaterThan(80);
    expect(new Set(statementsPrepared.values()).size).toBeGreaterThan(1);
  }, 120_000);
});
