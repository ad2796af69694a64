import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "../src/db/client.ts";
import { shardBinding, shardDb, shardNames, shardOfIdentifier } from "../src/db/databases.ts";
import { shards } from "../src/db/directory.ts";
import { sessions } from "../src/db/sessions.ts";
import { setD1Outage } from "../src/development/d1-simulation.ts";
import { emptiestShard } from "../src/domain/projects.ts";
import { RETIRE_AFTER_MS, sweepRetention } from "../src/domain/retention.ts";
import { blobOf, connectAndFinish } from "./bridge-calls.ts";
import { call, callJson, createSession, directory, expectProblem, newProject } from "./helpers.ts";
import {
  changeHeldSession,
  everyDatabase,
  indexed,
  NOTHING_STORED,
  objectOf,
  rowsNaming,
  storageOf,
} from "./session-objects.ts";

/** A directory and index shards, each project's index data in one. */

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");
const DAY_MS = 86_400_000;

afterEach(() => setD1Outage(false));

/** A project with a webhook, a proof (events, a delivery) and a closed session. */
async function busyProject(options: { shard?: string } = {}) {
  const project = await newProject(options);
  await callJson("/api/v1/webhooks/", 201, {
    method: "POST",
    key: project.apiKey,
    body: { url: `${env.RECEIVER_URL}/ok/shards` },
  });
  const session = await createSession<{ id: string; connection_identifier: string }>(
    project.apiKey,
    "collect",
  );
  const { outcome } = await connectAndFinish(session.connection_identifier, {
    keys: [blobOf(ed25519?.openssh ?? "")],
  });
  expect(outcome).toBe("collected");
  await indexed(session.id);
  return { ...project, session };
}

describe("the directory and the shards", () => {
  it("keep a project's sessions, events, webhooks and deliveries in exactly one shard", async () => {
    const { projectId, shard, session } = await busyProject();
    expect(shardOfIdentifier(env, session.connection_identifier)).toBe(shard);
    const holding: string[] = [];
    for (const [name, d1] of everyDatabase()) {
      const tables = await rowsNaming(d1, projectId);
      if (name === "DIRECTORY") {
        // Account-level data only: the project, its member, its keys, its audit log (the webhook made).
        expect(tables.sort()).toEqual([
          "api_keys",
          "api_keys",
          "audit_log",
          "project_members",
          "projects",
        ]);
        continue;
      }
      if (tables.length > 0) holding.push(name);
      if (name === shard)
        expect([...new Set(tables)].sort()).toEqual([
          "event_rows",
          "project_settings",
          "sessions",
          "webhook_invocations",
          "webhooks",
        ]);
    }
    expect(holding).toEqual([shard]);
    // The session's identifier, keys and connection are nowhere else either.
    for (const [name, d1] of everyDatabase())
      if (name !== shard)
        expect(await rowsNaming(d1, session.connection_identifier), name).toEqual([]);
  });

  it("place a new project on the emptiest shard as measured, and never list another project's data", async () => {
    // Every shard but the last is measured full: the next project goes to the last.
    const names = shardNames(env);
    const last = names.at(-1) ?? "";
    for (const name of names)
      await directory()
        .insert(shards)
        .values({ name, sizeBytes: name === last ? 0 : 9e9, measuredAt: new Date().toISOString() })
        .onConflictDoUpdate({
          target: shards.name,
          set: { sizeBytes: name === last ? 0 : 9e9 },
        });
    try {
      expect(await emptiestShard(env, directory())).toBe(last);
      const placed = await newProject();
      expect(placed.shard).toBe(last);
      // A neighbour on the same shard and one on another: each lists only its own.
      const neighbour = await busyProject({ shard: last });
      const elsewhere = await busyProject({ shard: names[0] });
      const mine = await createSession<{ id: string }>(placed.apiKey, "collect");
      for (const [project, own] of [
        [placed, [mine.id]],
        [neighbour, [neighbour.session.id]],
        [elsewhere, [elsewhere.session.id]],
      ] as const) {
        const list = await callJson<{ items: { id: string }[] }>(
          "/api/v1/ssh/collect/sessions/",
          200,
          { key: project.apiKey },
        );
        expect(list.items.map((item) => item.id)).toEqual(own);
        const events = await callJson<{ items: { session_id: string | null }[] }>(
          "/api/v1/events/",
          200,
          { key: project.apiKey },
        );
        for (const event of events.items) expect(own).toContain(event.session_id);
      }
    } finally {
      await directory().delete(shards);
    }
  });
});

describe("one shard away", () => {
  it("answers 503 for its projects only, while another shard's project proves a key", async () => {
    const names = shardNames(env);
    const downShard = names[0] ?? "";
    const upShard = names[1] ?? "";
    const down = await newProject({ shard: downShard });
    const up = await newProject({ shard: upShard });
    // Keys verified a moment ago (docs/decisions.md); the directory stays up anyway.
    for (const project of [down, up])
      await callJson("/api/v1/ssh/collect/sessions/", 200, { key: project.apiKey });
    setD1Outage(true, [downShard]);
    const refused = await call("/api/v1/ssh/collect/sessions/", { key: down.apiKey });
    expect(refused.headers.get("retry-after")).toBe("5");
    await expectProblem(refused, 503);
    await expectProblem(await call("/api/v1/events/", { key: down.apiKey }), 503);
    // The other shard's project: created, proved (the bridge's calls), listed, its events read.
    const session = await createSession<{ id: string; connection_identifier: string }>(
      up.apiKey,
      "collect",
    );
    const { outcome } = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    expect(outcome).toBe("collected");
    const listed = await callJson<{ items: { id: string; status: string }[] }>(
      "/api/v1/ssh/collect/sessions/",
      200,
      { key: up.apiKey },
    );
    expect(listed.items).toEqual([
      expect.objectContaining({ id: session.id, status: "completed" }),
    ]);
    const events = await callJson<{ items: { type: string }[] }>("/api/v1/events/", 200, {
      key: up.apiKey,
    });
    expect(events.items.map((event) => event.type)).toContain("key_collected");
  });
});

describe("retention's erasure, batched per shard", () => {
  it("removes every row of the sessions past retention, on every shard, asking no object", {
    timeout: 20_000,
  }, async () => {
    const made = await Promise.all(
      shardNames(env).map(async (shard) => {
        const project = await busyProject({ shard });
        const more = await Promise.all(
          Array.from({ length: 4 }, async () => {
            const session = await createSession<{ id: string; connection_identifier: string }>(
              project.apiKey,
              "collect",
            );
            await connectAndFinish(session.connection_identifier, {
              keys: [blobOf(ed25519?.openssh ?? "")],
            });
            await indexed(session.id);
            return session;
          }),
        );
        return { ...project, sessions: [project.session, ...more] };
      }),
    );
    for (const project of made) {
      // Their objects retired (closed past the grace), their rows in the shard only.
      const closedAt = new Date(Date.now() - RETIRE_AFTER_MS - 1_000).toISOString();
      for (const session of project.sessions) {
        await changeHeldSession(session.id, { completedAt: closedAt });
        await project.db
          .update(sessions)
          .set({ completedAt: closedAt })
          .where(eq(sessions.id, session.id));
        expect(await runDurableObjectAlarm(objectOf(session.id))).toBe(true);
        expect(await storageOf(objectOf(session.id))).toEqual(NOTHING_STORED);
      }
      await callJson("/api/v1/project", 200, {
        method: "PATCH",
        key: project.apiKey,
        body: { retention_days: 1 },
      });
    }
    // Two days on, each shard's sweep erases them in a batch.
    const later = new Date(Date.now() + 2 * DAY_MS);
    const erased = await Promise.all(
      shardNames(env).map((shard) => sweepRetention(env, shard, later)),
    );
    expect(erased.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(made.length * 5);
    for (const project of made) {
      for (const session of project.sessions) {
        for (const [name, d1] of everyDatabase())
          expect(await rowsNaming(d1, session.id), `${session.id} in ${name}`).toEqual([]);
        expect(
          (await call(`/api/v1/ssh/collect/sessions/${session.id}/`, { key: project.apiKey }))
            .status,
        ).toBe(404);
      }
      // The project's settings stay: only its sessions went.
      expect(await rowsNaming(shardBinding(env, project.shard), project.projectId)).toEqual([
        "project_settings",
        "webhooks",
      ]);
    }
  });

  it("measures each shard for where the next project goes", async () => {
    const { everyMinute } = await import("../src/domain/housekeeping.ts");
    await everyMinute(env);
    const measured = await database(env.DIRECTORY).select().from(shards);
    expect(measured.map((row) => row.name).sort()).toEqual(shardNames(env).sort());
    for (const row of measured) expect(row.sizeBytes).toBeGreaterThan(0);
    await directory().delete(shards);
    expect(shardDb(env, shardNames(env)[0] ?? "")).toBeDefined();
  });
});
