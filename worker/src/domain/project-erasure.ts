import { and, eq, gt, isNull, or } from "drizzle-orm";
import { apiKeys, projects } from "../db/accounts.ts";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import { events, webhooks } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { badRequest } from "../lib/errors.ts";
import { objectStub } from "../lib/meter.ts";
import { forgetApiKeys } from "./api-keys.ts";
import { retireAfterMs } from "./retention.ts";
import { sessionObject } from "./session-address.ts";

/**
 * Deleting a project (SPEC §19): its owner types its name to confirm. Its API keys stop at once;
 * every session whose object may still hold it (open, or closed within the retirement grace) is
 * erased through its object, so its identifier is refused over `ssh` from then on; then the
 * project's row goes, and D1 takes everything else with it (sessions, keys, connections, events,
 * webhooks, deliveries, members, invitations: all cascade from it), and the project's
 * idempotency answers are forgotten.
 */
export async function deleteProject(
  env: Env,
  db: Database,
  project: { id: string; name: string },
  typedName: string,
  now = new Date(),
) {
  if (typedName.trim() !== project.name)
    throw badRequest("body.confirm", "Type the project's name exactly to delete it", typedName);
  const keys = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, project.id));
  // Stops them here at once; D1 loses them below, and other isolates ask it within 10 s.
  forgetApiKeys(keys.map((key) => key.id));
  await db.delete(apiKeys).where(eq(apiKeys.projectId, project.id));
  const held = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.projectId, project.id),
        or(
          isNull(sessions.completedAt),
          gt(sessions.completedAt, new Date(now.getTime() - retireAfterMs(env)).toISOString()),
        ),
      ),
    );
  for (const { id } of held) await sessionObject(env, { sessionId: id }).erase(project.id, id);
  await db.delete(projects).where(eq(projects.id, project.id));
  await objectStub(env, env.IDEMPOTENCY, project.id).forgetAll();
}

/**
 * "Delete all test data" (SPEC §20, owners): every test session of the project is erased through
 * its object (its identifier unknown from then on, over `ssh` too), then D1's test rows: the
 * sessions (their keys and connections go with them), their events (deliveries with them) and
 * the test webhooks (with their pings). Live data is not touched; test keys keep working.
 */
export async function deleteTestData(env: Env, db: Database, projectId: string) {
  const test = and(eq(sessions.projectId, projectId), eq(sessions.livemode, false));
  let after = "";
  for (;;) {
    const batch = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(test, gt(sessions.id, after)))
      .orderBy(sessions.id)
      .limit(100);
    for (const { id } of batch) await sessionObject(env, { sessionId: id }).erase(projectId, id);
    const last = batch.at(-1);
    if (!last) break;
    after = last.id;
  }
  await db.batch([
    db.delete(sessions).where(test),
    db.delete(events).where(and(eq(events.projectId, projectId), eq(events.livemode, false))),
    db.delete(webhooks).where(and(eq(webhooks.projectId, projectId), eq(webhooks.livemode, false))),
  ]);
  // A repeat of a test request that made any of it is told so (410), never shown it again.
  await objectStub(env, env.IDEMPOTENCY, projectId).forgetMode(
    "test",
    "The test data this request made was deleted since (Delete all test data), so its answer is no longer kept",
  );
}
