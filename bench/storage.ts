/**
 * `node bench/storage.ts [sessions]`: what a closed session keeps, in the D1 index and in its
 * object, before and after its retention erases it, and so how many sessions a day one
 * index database holds. Runs `wrangler dev` with a retention day of one second.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machine, scriptArgs, table, writeSection } from "./lib.ts";
import { proofRig } from "./rig.ts";

/** D1's documented maximum database size (developers.cloudflare.com/d1/platform/limits/). */
const D1_MAX_BYTES = 10 * 1000 ** 3;
/** Days a session is kept in the comparison: the default and a longer choice. */
const RETENTIONS = [30, 90];
/** The project's retention while measuring, in (one-second) days: erased 20 s after closing. */
const MEASURED_RETENTION_DAYS = 20;

export async function runStorageBench(sessions = 20, write = true) {
  const rig = await proofRig({ RETENTION_DAY_SECONDS: "1" });
  const { api, ssh, worker } = rig;
  const objectBytes = async (id: string) =>
    (
      (await (await fetch(`${worker.url}/__dev/sessions/${id}/storage`)).json()) as {
        bytes: number;
      }
    ).bytes;
  /** N sessions, each proved over ssh (one collected key) and closed. */
  const closeSessions = async (count: number, tag: string) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const one = await api("POST", "/ssh/collect/sessions/", { external_id: `${tag}-${i}` });
      ssh(one.connection_identifier);
      ids.push(one.id);
    }
    return ids;
  };
  try {
    await api("PATCH", "/project", { retention_days: MEASURED_RETENTION_DAYS });
    const empty = await rig.shardBytes();
    const ids = await closeSessions(sessions, "kept");
    const full = await rig.shardBytes();
    const heldBytes = await Promise.all(ids.map(objectBytes));
    // Retention runs out: each object's alarm erases its session, D1's rows with it.
    const deadline = Date.now() + (MEASURED_RETENTION_DAYS + 60) * 1000;
    let left = ids.length;
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const codes = await Promise.all(
        ids.map(async (id) => {
          const response = await fetch(`${worker.url}/api/v1/ssh/collect/sessions/${id}/`, {
            headers: { "x-api-key": rig.apiKey },
          });
          await response.body?.cancel();
          return response.status;
        }),
      );
      left = codes.filter((code) => code !== 404).length;
    }
    const erasedBytes = await Promise.all(ids.map(objectBytes));
    const events = (await api("GET", "/events/")) as { total: number };
    const afterErasure = await rig.shardBytes();
    // SQLite keeps a file's freed pages for reuse: the next sessions fill them.
    await closeSessions(sessions, "reused");
    const reused = await rig.shardBytes();

    const mean = (values: number[]) =>
      Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    const perSession = Math.max(1, Math.round((full - empty) / sessions));
    const result = {
      d1BytesPerSession: perSession,
      objectBytesHeld: mean(heldBytes),
      objectBytesErased: mean(erasedBytes),
      notErased: left,
      eventsLeft: events.total,
      d1GrowthAfterErasure: afterErasure - full,
      d1GrowthRefilled: reused - afterErasure,
      sessionsPerDay: RETENTIONS.map((days) => Math.floor(D1_MAX_BYTES / (perSession * days))),
    };
    const markdown = `## 9. Storage: what a closed session keeps, and for how long

\`node bench/storage.ts ${sessions}\` — ${sessions} sessions against \`wrangler dev\` with \`RETENTION_DAY_SECONDS=1\`, each proved over \`ssh\` (one collected key, its events and webhook-free deliveries) and closed; retention ${MEASURED_RETENTION_DAYS} (one-second) days, then erased by each object's alarm (they have not retired yet: the cron's batched sweep erases those that have, §16). D1 bytes are the growth of D1's file (\`meta.size_after\`, page-granular, so a mean over many); object bytes are \`ctx.storage.sql.databaseSize\`.

${table(
  ["Figure", "Value"],
  [
    ["D1 bytes per closed session", result.d1BytesPerSession],
    ["object bytes per closed session, held (before it retires)", result.objectBytesHeld],
    ["object bytes per session after erasure", result.objectBytesErased],
    ["sessions not erased after retention", result.notErased],
    ["events left in the project's event log", result.eventsLeft],
    ["D1 file growth while erasing", result.d1GrowthAfterErasure],
    [
      `D1 file growth for ${sessions} new sessions after erasure (freed pages reused)`,
      result.d1GrowthRefilled,
    ],
    ...RETENTIONS.map((days, i): [string, number] => [
      `sessions a day one 10 GB shard holds at retention ${days}`,
      result.sessionsPerDay[i] ?? 0,
    ]),
  ],
)}

Machine: ${machine()}.`;
    if (write) writeSection("storage", markdown);
    return { result, markdown };
  } finally {
    await rig.stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [sessions] = args;
  const { markdown } = await runStorageBench(sessions ?? 20);
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-storage.md"), markdown);
}
