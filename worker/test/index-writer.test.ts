import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { sessions } from "../src/db/sessions.ts";
import { events, webhookInvocations } from "../src/db/webhooks.ts";
import { setD1Outage } from "../src/development/d1-simulation.ts";
import { call, callJson, createSession, newProject } from "./helpers.ts";
import { indexed } from "./session-objects.ts";

/** One writer for D1's index, group-committing the pushes of many sessions. */

afterEach(() => setD1Outage(false));

/** A shard's writer: one per shard. */
const writer = (shard: string) => env.INDEX_WRITER.get(env.INDEX_WRITER.idFromName(shard));

/** Creates `count` collection sessions at once; each answer with its bookmark. */
async function burst(apiKey: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const response = await call("/api/v1/ssh/collect/sessions/", {
        method: "POST",
        key: apiKey,
        body: { external_id: `burst-${i}` },
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return { id, bookmark: response.headers.get("keyproof-bookmark") };
    }),
  );
}

const listed = (apiKey: string, bookmark?: string | null) =>
  call("/api/v1/ssh/collect/sessions/?limit=100", {
    key: apiKey,
    headers: bookmark ? { "keyproof-bookmark": bookmark } : {},
  }).then((response) => response.json() as Promise<{ total: number; items: { id: string }[] }>);

describe("the index writer", () => {
  it("writes a burst of sessions in fewer transactions than sessions, and loses none", async () => {
    const { apiKey, shard } = await newProject();
    const before = await writer(shard).stats();
    const created = await burst(apiKey, 30);
    // Each answered at its object: their pushes follow, together.
    await Promise.all(created.map((c) => indexed(c.id)));
    const after = await writer(shard).stats();
    const pushes = after.pushes - before.pushes;
    const transactions = after.transactions - before.transactions;
    expect(pushes).toBeGreaterThanOrEqual(30);
    expect(transactions).toBeLessThan(pushes);
    // Read-your-writes: the last answer's bookmark makes a list see every one of them.
    const list = await listed(apiKey, created.at(-1)?.bookmark);
    expect(list.total).toBe(30);
    expect(list.items.map((item) => item.id).sort()).toEqual(created.map((c) => c.id).sort());
  });

  it("loses nothing when D1 fails under a burst: each object pushes again once D1 is back", async () => {
    const { apiKey } = await newProject();
    // A key verified a moment ago keeps working through an outage (docs/decisions.md).
    await listed(apiKey);
    setD1Outage(true);
    const created = await burst(apiKey, 12);
    // The objects hold them; D1 has none yet.
    setD1Outage(false);
    expect((await listed(apiKey)).total).toBeLessThan(12);
    await Promise.all(created.map((c) => indexed(c.id)));
    expect((await listed(apiKey)).total).toBe(12);
  });

  it("writes the rest of a group when one push in it is refused on its merits", async () => {
    const kept = await newProject({ shard: "INDEX_0" });
    const doomed = await newProject({ shard: "INDEX_0" });
    const mine = await Promise.all(
      Array.from({ length: 10 }, () =>
        createSession(kept.apiKey, "collect", { multi_connection: true }),
      ),
    );
    const theirs = await createSession(doomed.apiKey, "collect", { multi_connection: true });
    await Promise.all([...mine, theirs].map((session) => indexed(session.id)));
    // The shard holds another session under the doomed one's identifier, and not it: its next
    // push (an insert) breaks the identifier's uniqueness, as no other push does.
    const [row] = await kept.db.select().from(sessions).where(eq(sessions.id, theirs.id));
    await kept.db.delete(sessions).where(eq(sessions.id, theirs.id));
    await kept.db
      .insert(sessions)
      .values({ ...(row as NonNullable<typeof row>), id: "cs_00000000000000000000000001" });
    const patch = (id: string, key: string) =>
      call(`/api/v1/ssh/collect/sessions/${id}/`, {
        method: "PATCH",
        key,
        body: { external_id: "changed" },
      });
    await Promise.allSettled([
      ...mine.map((session) => patch(session.id, kept.apiKey)),
      patch(theirs.id, doomed.apiKey),
    ]);
    await Promise.all([...mine, theirs].map((session) => indexed(session.id)));
    // Whether the doomed push shared a group or not (timing decides), every other change lands.
    const rows = await kept.db
      .select()
      .from(sessions)
      .where(eq(sessions.projectId, kept.projectId));
    expect(rows.map((row) => row.externalId)).toEqual(Array(10).fill("changed"));
  });

  it("fans a group's events out to each event's own project, mode and session webhooks only", async () => {
    // On one shard: its writer groups both projects' pushes.
    const first = await newProject({ shard: "INDEX_1" });
    const second = await newProject({ shard: "INDEX_1" });
    const hook = (key: string, path = "/api/v1/webhooks/") =>
      callJson<{ id: string }>(path, 201, {
        method: "POST",
        key,
        body: {
          url: `${env.RECEIVER_URL}/ok/fan-out-${crypto.randomUUID()}`,
          events: ["status_changed"],
        },
      }).then((webhook) => webhook.id);
    const hooks = {
      firstLive: await hook(first.apiKey),
      firstTest: await hook(first.testKey),
      secondLive: await hook(second.apiKey),
    };
    const sessionsOf = (key: string) =>
      Promise.all(
        Array.from({ length: 5 }, () =>
          createSession(key, "collect", { multi_connection: true }).then((session) => session.id),
        ),
      );
    const made = {
      firstLive: await sessionsOf(first.apiKey),
      firstTest: await sessionsOf(first.testKey),
      secondLive: await sessionsOf(second.apiKey),
    };
    // One session has a webhook of its own: only its events reach it.
    const own = await hook(
      first.apiKey,
      `/api/v1/ssh/collect/sessions/${made.firstLive[0]}/webhooks/`,
    );
    const keyOf = { firstLive: first.apiKey, firstTest: first.testKey, secondLive: second.apiKey };
    const before = await writer("INDEX_1").stats();
    await Promise.all(
      Object.entries(made).flatMap(([mode, ids]) =>
        ids.map((id) =>
          call(`/api/v1/ssh/collect/sessions/${id}/complete/`, {
            method: "POST",
            key: keyOf[mode as keyof typeof keyOf],
          }).then((response) => expect(response.status).toBe(200)),
        ),
      ),
    );
    await Promise.all(Object.values(made).flatMap((ids) => ids.map((id) => indexed(id))));
    const after = await writer("INDEX_1").stats();
    // The completions shared transactions, so their fan-outs shared statements.
    expect(after.transactions - before.transactions).toBeLessThan(after.pushes - before.pushes);
    const reached = async (webhookId: string) =>
      (
        await first.db
          .select({ sessionId: events.sessionId })
          .from(webhookInvocations)
          .innerJoin(events, eq(events.id, webhookInvocations.eventId))
          .where(inArray(webhookInvocations.webhookId, [webhookId]))
      )
        .map((row) => row.sessionId)
        .sort();
    for (const [name, webhookId] of Object.entries(hooks))
      expect(await reached(webhookId)).toEqual([...made[name as keyof typeof made]].sort());
    expect(await reached(own)).toEqual([made.firstLive[0]]);
  });
});
