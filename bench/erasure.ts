/**
 * `node bench/erasure.ts [sessions per shard]`: how fast retention erases:
 * every shard wrangler.toml binds is given that many closed sessions past their project's
 * retention — each with a connection, a collected key, three events and a webhook delivery of
 * each, as a proof leaves them — written straight into the shard, their objects long retired.
 * Then the cron runs, as Cloudflare runs it every minute, until every shard is empty: sessions
 * erased a minute, per shard, by the batched sweep (no object asked, domain/retention.ts).
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localShards, SCHEDULED_PATH } from "../scripts/local-dev.ts";
import { sqlString } from "../scripts/seed-sql.ts";
import { localD1File, queryD1File, writeD1File } from "../test-support/local-d1.ts";
import { removeState, seedProject, startLocalWorker } from "../test-support/local-worker.ts";
import { RETIRE_AFTER_MS, RETIREMENT_MAY_WAIT } from "../worker/src/domain/retirement.ts";
import { BASE32, newConnectionIdentifier, newId, newIdSeries } from "../worker/src/lib/ids.ts";
import { CONNECTION_LIFETIME_MS } from "../worker/src/protocol/messages.ts";
import { machine, scriptArgs, table, writeSection } from "./lib.ts";

/** Rows a statement inserts: D1 refuses statements over 100 KB. */
const ROWS_PER_STATEMENT = 50;
/**
 * The sessions closed this long ago: past a one-day retention of one-second days, and past the
 * time an object may still hold a closed session (its retirement's grace, the alarms it may wait
 * for, a connection's lifetime: `mayBeHeldForMs`), so the sweep erases them from D1 in batches,
 * no object asked, as it does production's sessions 30 days on. (Ten minutes ago, they were erased
 * one object call each, and a loaded machine left some after the bench's 20 runs.)
 */
const CLOSED_AGO_MS =
  RETIRE_AFTER_MS * (1 + RETIREMENT_MAY_WAIT) + CONNECTION_LIFETIME_MS + 10 * 60_000;
/** What a minute of the cron must erase, per shard, at least. */
const TARGET_PER_MINUTE = 1_000;

const values = (...items: (string | number | null)[]) =>
  `(${items.map((item) => (typeof item === "number" ? String(item) : sqlString(item))).join(", ")})`;

/** SQL for `count` closed sessions of `projectId`, as a proof and its webhook leave them. */
function closedSessions(projectId: string, webhookId: string, count: number): string[] {
  const statements: string[] = [];
  const at = (offset: number) => new Date(Date.now() - CLOSED_AGO_MS - offset).toISOString();
  for (let start = 0; start < count; start += ROWS_PER_STATEMENT) {
    const rows = { sessions: [], connections: [], events: [], deliveries: [] } as Record<
      string,
      string[]
    >;
    for (let i = start; i < Math.min(count, start + ROWS_PER_STATEMENT); i++) {
      const made = Date.now() - CLOSED_AGO_MS - 60_000 - i;
      const sessionId = newId("cs", made);
      const connectionId = newId("con", made);
      const when = at(i);
      // The proof's three events, one series: one row (db/webhooks.ts), listed in the session's.
      const series = newIdSeries("evt", made);
      const types = ["new_connection", "key_collected", "status_changed"] as const;
      const eventIds = types.map((_, n) => series + BASE32[n]);
      rows.sessions?.push(
        values(
          sessionId,
          projectId,
          "collect",
          newConnectionIdentifier(),
          "completed",
          `user-${i}`,
          0,
          0,
          0,
          0,
          1,
          0,
          when,
          when,
          when,
          when,
          JSON.stringify(eventIds),
        ),
      );
      // The connection's row holds its key (db/sessions.ts IndexedConnectionKey).
      const key = {
        id: newId("ck", made),
        publicKeySsh:
          "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        publicKeyPem: null,
        publicKeyMd5: "MD5:00",
        publicKeySha256: `SHA256:${sessionId}`,
        publicKeyAlgorithm: "ssh-ed25519",
        publicKeyBits: 256,
        comment: null,
        securityKey: null,
        certificate: null,
        createdAt: when,
      };
      rows.connections?.push(
        values(
          connectionId,
          sessionId,
          "203.0.113.7",
          "SSH-2.0-OpenSSH_9.6",
          when,
          when,
          "collected",
          JSON.stringify([key]),
        ),
      );
      rows.events?.push(
        values(
          eventIds[0] ?? series,
          projectId,
          sessionId,
          "collect_session",
          JSON.stringify(types.map((t, n) => ({ s: BASE32[n], t, p: {}, at: when }))),
        ),
      );
      for (const eventId of eventIds) {
        rows.deliveries?.push(
          values(
            `whi_${eventId.slice(4)}${webhookId.slice(3)}`,
            webhookId,
            projectId,
            eventId,
            "succeeded",
            1,
            when,
            when,
          ),
        );
      }
    }
    statements.push(
      `INSERT INTO sessions (id, project_id, kind, connection_identifier, status, external_id, multi_key, multi_connection, must_confirm, match_all_keys, max_attempts, failed_attempts, expired_at, created_at, updated_at, completed_at, event_ids) VALUES ${rows.sessions?.join(", ")};`,
      `INSERT INTO connections (id, session_id, ip_address, client_version, created_at, closed_at, outcome, keys) VALUES ${rows.connections?.join(", ")};`,
      `INSERT INTO event_rows (id, project_id, session_id, entity, events) VALUES ${rows.events?.join(", ")};`,
      `INSERT INTO webhook_invocations (id, webhook_id, project_id, event_id, status, attempts, created_at, updated_at) VALUES ${rows.deliveries?.join(", ")};`,
    );
  }
  return statements;
}

export async function runErasureBench(sessionsPerShard = 3_000, write = true) {
  // A retention day of one second: the sessions closed ten minutes ago are long past one "day".
  const worker = await startLocalWorker({ vars: { RETENTION_DAY_SECONDS: "1" } });
  const shards = localShards();
  try {
    const placed = [];
    // Each project goes to the emptiest shard: as many projects as shards, one on each.
    for (let i = 0; i < shards.length; i++) {
      const project = await seedProject(worker);
      // Its id is as old as newId allows: no older than the ids the seed just made.
      const webhook = newId("wh", Date.now() - CLOSED_AGO_MS - 120_000);
      const now = new Date().toISOString();
      writeD1File(await localD1File(worker.persistTo, project.shard), [
        `UPDATE project_settings SET retention_days = 1 WHERE project_id = ${sqlString(project.projectId)};`,
        `INSERT INTO webhooks (id, project_id, url, method, headers, events, retries, initial_backoff, backoff_multiplier, enabled, secret, created_at, updated_at) VALUES ${values(webhook, project.projectId, "https://example.com/hook", "post", "{}", "[]", 5, 10, 2, 1, "whsec_x", now, now)};`,
        ...closedSessions(project.projectId, webhook, sessionsPerShard),
      ]);
      placed.push(project);
    }
    expect(placed.map((project) => project.shard).sort(), [...shards].sort());
    const files = new Map(
      await Promise.all(
        shards.map(async (shard) => [shard, await localD1File(worker.persistTo, shard)] as const),
      ),
    );
    const left = (shard: string) =>
      queryD1File<{ n: number }>(files.get(shard) ?? "", "SELECT count(*) AS n FROM sessions")[0]
        ?.n ?? 0;
    for (const shard of shards) expect([left(shard)], [sessionsPerShard]);
    // The sessions' ids carry the time they were written, not `made`: newId never goes back in
    // time, and the seed before them made ids now. The sweep finds a session by its id's time
    // too, so it waits out the one-second retention day from that.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // The cron, as Cloudflare runs it every minute; each run erases what it can in 20 s a shard.
    const started = performance.now();
    const runs: number[] = [];
    while (shards.some((shard) => left(shard) > 0) && runs.length < 20) {
      const run = performance.now();
      await (await fetch(`${worker.url}${SCHEDULED_PATH}`)).text();
      runs.push((performance.now() - run) / 1000);
    }
    const seconds = (performance.now() - started) / 1000;
    for (const shard of shards) expect([shard, left(shard)], [shard, 0]);
    const cronSeconds = runs.reduce((sum, run) => sum + run, 0);
    // Wall time from the first run to every shard seen empty, the checks' own time included
    // (each reads the shard's file): the rate is a floor.
    const perMinute = (sessionsPerShard / seconds) * 60;
    const rows = shards.map((shard) => [
      shard,
      sessionsPerShard.toLocaleString("en-US"),
      left(shard),
      Math.round(perMinute).toLocaleString("en-US"),
    ]);
    const markdown = `## 16. Erasure: retention's sweep, batched per shard

\`node bench/erasure.ts ${sessionsPerShard}\` — against \`wrangler dev\` with the ${shards.length} shards wrangler.toml binds, each given ${sessionsPerShard.toLocaleString("en-US")} closed sessions past their project's retention (each with a connection, a collected key, three events and three deliveries, as a proof and one webhook leave them; their objects long retired), then the cron run until every shard is empty: ${runs.length} run(s) answered in ${cronSeconds.toFixed(1)} s; every shard was seen empty ${seconds.toFixed(1)} s after the first began, and the rate below is over that whole time. The shards are swept at once, each in transactions of ${500} sessions, asking no session's object (\`worker/src/domain/retention.ts\`).

${table(["Shard", "sessions past retention", "left after", "erased a minute"], rows)}

At least ${Math.round(perMinute).toLocaleString("en-US")} sessions a minute a shard (target: ≥ ${TARGET_PER_MINUTE.toLocaleString("en-US")}), all shards at once — ${Math.round(perMinute * 1440).toLocaleString("en-US")} a day a shard, far above the ~100,000 sessions a day one shard can store at 30 days' retention (§15): the sweep keeps pace with what a shard holds.

Machine: ${machine()}.`;
    if (write) writeSection("erasure", markdown);
    return { perMinute, runs, markdown };
  } finally {
    await worker.stop();
    removeState(worker);
  }
}

/** A check that stops the bench with what it found, rather than a figure of nothing. */
function expect(found: unknown, wanted: unknown) {
  if (JSON.stringify(found) !== JSON.stringify(wanted))
    throw new Error(`expected ${JSON.stringify(wanted)}, found ${JSON.stringify(found)}`);
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [sessions] = args;
  const { markdown } = await runErasureBench(sessions ?? 3_000);
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-erasure.md"), markdown);
}
