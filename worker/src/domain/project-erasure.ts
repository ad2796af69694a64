import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { shardDb } from "../db/databases.ts";
import { apiKeys, projects } from "../db/directory.ts";
import { projectSettings } from "../db/project-settings.ts";
import { sessions } from "../db/sessions.ts";
import { eventRows, events, isDeliveryOf, webhookInvocations, webhooks } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { badRequest } from "../lib/errors.ts";
import { objectStub } from "../lib/meter.ts";
import { forgetApiKeys } from "./api-keys.ts";
import { retireAfterMs } from "./retention.ts";
import { sessionObject } from "./session-address.ts";

/** A project, where its data lives: the directory's row and its shard. */
interface PlacedProject {
  env: Env;
  directory: Database;
  shard: string;
  projectId: string;
}

/**
 * Every session of the project (or of its test data) whose object may still hold it — open, or
 * closed within the retirement grace — erased through its object, so its identifier is refused
 * over `ssh` from then on; the others' objects hold nothing.
 */
async function eraseHeldSessions(project: PlacedProject, testOnly: boolean, now: Date) {
  const db = shardDb(project.env, project.shard);
  const retiredBefore = new Date(now.getTime() - retireAfterMs(project.env)).toISOString();
  let after = "";
  for (;;) {
    const batch = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        and(
          eq(sessions.projectId, project.projectId),
          testOnly ? eq(sessions.livemode, false) : undefined,
          or(isNull(sessions.completedAt), gt(sessions.completedAt, retiredBefore)),
          gt(sessions.id, after),
        ),
      )
      .orderBy(sessions.id)
      .limit(100);
    for (const { id } of batch)
      await sessionObject(project.env, { sessionId: id }).erase(
        project.projectId,
        id,
        project.shard,
      );
    const last = batch.at(-1);
    if (!last) return;
    after = last.id;
  }
}

/**
 * Deleting a project (SPEC §19): its owner types its name to confirm. Its API keys stop at once;
 * its sessions' objects let them go; then its shard's rows — sessions (their keys and connections
 * with them), events with their deliveries, webhooks with theirs, its settings — and the
 * directory's project, whose members, invitations and keys go with it; its idempotency answers
 * are forgotten. The shard goes first: a project the directory no longer names has no way back
 * to rows left behind.
 */
export async function deleteProject(
  project: PlacedProject & { name: string },
  typedName: string,
  now = new Date(),
) {
  if (typedName.trim() !== project.name)
    throw badRequest("body.confirm", "Type the project's name exactly to delete it", typedName);
  const { env, directory, projectId } = project;
  const keys = await directory
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, projectId));
  // Stops them here at once; the directory loses them below, and other isolates ask within 10 s.
  forgetApiKeys(keys.map((key) => key.id));
  await directory.delete(apiKeys).where(eq(apiKeys.projectId, projectId));
  await eraseHeldSessions(project, false, now);
  const db = shardDb(env, project.shard);
  const ofProject = eq(events.projectId, projectId);
  await db.batch([
    db.delete(webhookInvocations).where(isDeliveryOf(ofProject)),
    db.delete(eventRows).where(eq(eventRows.projectId, projectId)),
    db.delete(sessions).where(eq(sessions.projectId, projectId)),
    db.delete(webhooks).where(eq(webhooks.projectId, projectId)),
    db.delete(projectSettings).where(eq(projectSettings.projectId, projectId)),
  ]);
  await directory.delete(projects).where(eq(projects.id, projectId));
  await objectStub(env, env.IDEMPOTENCY, projectId).forgetAll();
}

/**
 * "Delete all test data" (SPEC §20, owners): every test session of the project is erased through
 * its object (its identifier unknown from then on, over `ssh` too), then the shard's test rows: the
 * sessions (their keys and connections go with them), their events (deliveries with them) and
 * the test webhooks (with their pings). Live data is not touched; test keys keep working.
 */
export async function deleteTestData(project: PlacedProject) {
  const { env, projectId } = project;
  await eraseHeldSessions(project, true, new Date());
  const db = shardDb(env, project.shard);
  const testEvents = and(eq(events.projectId, projectId), eq(events.livemode, false));
  await db.batch([
    db.delete(webhookInvocations).where(isDeliveryOf(testEvents)),
    db.delete(sessions).where(and(eq(sessions.projectId, projectId), eq(sessions.livemode, false))),
    db
      .delete(eventRows)
      .where(and(eq(eventRows.projectId, projectId), eq(eventRows.livemode, false))),
    db.delete(webhooks).where(and(eq(webhooks.projectId, projectId), eq(webhooks.livemode, false))),
  ]);
  // A repeat of a test request that made any of it is told so (410), never shown it again.
  await objectStub(env, env.IDEMPOTENCY, projectId).forgetMode(
    "test",
    "The test data this request made was deleted since (Delete all test data), so its answer is no longer kept",
  );
}
