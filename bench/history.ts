/**
 * A shard that holds 30 days of a busy project (issue 53): two projects of `sessions` closed
 * sessions each on one shard — their connections, keys, event rows, and every delivery of the
 * first project's webhook — loaded straight into the shard's SQLite file, then proofs with a
 * webhook on that project and on a project alone on an empty shard, in the same run: one by one
 * (what a proof costs and how long its API calls and delivery take), then a burst of them at once
 * (the queries a proof costs the shard's primary when its writer groups them).
 *   node bench/history.ts [sessions a project] [proofs] [burst]
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { applyLocalMigrations, executeLocalSql } from "../scripts/local-dev.ts";
import { accountSql, projectWithKeySql } from "../scripts/seed-sql.ts";
import { removeState, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import { invocationIdOf } from "../worker/src/db/webhooks.ts";
import { BASE32, encodeTime } from "../worker/src/lib/ids.ts";
import type { Meters } from "../worker/src/lib/meter.ts";
import { signRequest } from "../worker/src/protocol/request-signing.ts";
import { priceOf } from "./cost.ts";
import { loop, machine, percentile, scriptArgs, table, writeSection } from "./lib.ts";

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 30;
/** The loaded shard and the empty one (wrangler.toml binds INDEX_0 … INDEX_3). */
const LOADED = "INDEX_0";
const EMPTY = "INDEX_1";
/**
 * A query's time on a shard's primary: D1's limits page takes an average query of 1 ms (about
 * 1,000 queries a second, one at a time).
 */
const QUERY_MS = 1;
/**
 * A query's time on the primary during the burst: this machine makes some 15 proofs a second, so
 * a primary 20 times slower than D1's average is loaded by them as D1's would be by 300 a second.
 * The burst then counts the queries a proof costs where the primary binds, its writer grouping.
 */
const BURST_QUERY_MS = 20;

const random = (length: number) =>
  [...randomBytes(length)].map((byte) => BASE32[byte & 31]).join("");

/** The local SQLite file of the shard that holds `projectId`'s settings row. */
function shardFile(persistTo: string, projectId: string): string {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".sqlite"))) {
    if (name === "metadata.sqlite") continue;
    const db = new DatabaseSync(join(dir, name), { readOnly: true });
    try {
      const found = db
        .prepare("SELECT 1 FROM project_settings WHERE project_id = ?")
        .get(projectId);
      if (found) return join(dir, name);
    } catch {
      // the directory, or another kind of file
    } finally {
      db.close();
    }
  }
  throw new Error(`no shard file holds project ${projectId}`);
}

type Row = Record<string, unknown>;

/** One real proof's rows in the shard: what every loaded session is a copy of. */
function templateOf(file: string, sessionId: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const one = (sql: string) => db.prepare(sql).get(sessionId) as Row | undefined;
    const all = (sql: string) => db.prepare(sql).all(sessionId) as Row[];
    const session = one("SELECT * FROM sessions WHERE id = ?");
    const connection = one("SELECT * FROM connections WHERE session_id = ?");
    const rows = all("SELECT * FROM event_rows WHERE session_id = ? ORDER BY id");
    if (!session || !connection || rows.length === 0)
      throw new Error(`the template session ${sessionId} is not in its shard`);
    return { session, connection, rows };
  } finally {
    db.close();
  }
}

/**
 * `count` closed sessions of `projectId` spread over the last 30 days, each a copy of the
 * template's rows under new ids and times, and a delivery of each of its events to each webhook
 * in `webhookIds`: written straight into the shard's file, in one transaction.
 */
function loadHistory(
  file: string,
  template: ReturnType<typeof templateOf>,
  projectId: string,
  webhookIds: string[],
  count: number,
) {
  const db = new DatabaseSync(file);
  const insert = (table: string, row: Row) => {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(",")}`;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`,
      );
      statements.set(key, statement);
    }
    statement.run(...(Object.values(row) as (string | number | null)[]));
  };
  const statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  const { session, connection, rows } = template;
  const oldSession = String(session.id);
  const oldIdentifier = String(session.connection_identifier);
  const oldConnection = String(connection.id);
  const oldRows = rows.map((row) => String(row.id));
  const start = Date.now() - HISTORY_DAYS * DAY_MS;
  db.exec("BEGIN");
  for (let i = 0; i < count; i++) {
    const at = start + Math.floor((i * HISTORY_DAYS * DAY_MS) / count);
    const time = encodeTime(at);
    const iso = new Date(at).toISOString();
    const id = `cs_${time}${random(16)}`;
    const identifier = `${oldIdentifier[0]}${random(25)}`;
    const connectionId = `con_${time}${random(16)}`;
    const series = rows.map(() => `evt_${time}${random(15)}`);
    const swap = (text: string) => {
      let out = text
        .replaceAll(oldSession, id)
        .replaceAll(oldIdentifier, identifier)
        .replaceAll(oldConnection, connectionId);
      oldRows.forEach((old, n) => {
        out = out.replaceAll(old.slice(0, 29), series[n] ?? "");
      });
      return out;
    };
    insert("sessions", {
      ...session,
      id,
      connection_identifier: identifier,
      project_id: projectId,
      created_at: iso,
      updated_at: iso,
      completed_at: iso,
      expired_at: new Date(at + 3_600_000).toISOString(),
      event_ids: swap(String(session.event_ids)),
    });
    insert("connections", {
      ...connection,
      id: connectionId,
      session_id: id,
      created_at: iso,
      closed_at: iso,
      keys: swap(String(connection.keys)),
    });
    rows.forEach((row, n) => {
      const events = JSON.parse(swap(String(row.events))) as { s: string }[];
      insert("event_rows", {
        ...row,
        id: `${series[n]}${events[0]?.s ?? "0"}`,
        project_id: projectId,
        session_id: id,
        events: JSON.stringify(events),
        common: row.common === null ? null : swap(String(row.common)),
      });
      for (const event of events)
        for (const webhookId of webhookIds) {
          const eventId = `${series[n]}${event.s}`;
          insert("webhook_invocations", {
            id: invocationIdOf(eventId, webhookId),
            webhook_id: webhookId,
            project_id: projectId,
            event_id: eventId,
            status: "succeeded",
            attempts: 1,
            next_attempt_at: null,
            lease_until: null,
            failure_reason: null,
            attempt_log: JSON.stringify([
              {
                attempt: 1,
                request_time: iso,
                duration_ms: 12,
                status_code: 200,
                response_body: "ok",
                error: null,
              },
            ]),
            created_at: iso,
            updated_at: iso,
          });
        }
    });
  }
  db.exec("COMMIT");
  db.close();
}

/** What one set of proofs cost and took, per proof. */
interface Measured {
  rowsRead: number;
  rowsWritten: number;
  primaryQueries: number;
  replicaQueries: number;
  /** The directory's queries a proof: on its primary, and on a replica. */
  directoryPrimary: number;
  directoryReplica: number;
  writerRequests: number;
  dollarsPerMillion: number;
  create: number[];
  get: number[];
  list: number[];
  delivery: number[];
}

export async function runHistoryBench(sessionsEach = 300_000, proofs = 30, burst = 200) {
  const persistTo = mkdtempSync(join(tmpdir(), "keyproof-history-"));
  const started = Date.now();
  await applyLocalMigrations(persistTo);
  const now = new Date().toISOString();
  const { account, insert } = await accountSql("history@example.com", "history", now);
  const made = await Promise.all(
    [
      ["Busy", LOADED],
      ["Neighbour", LOADED],
      ["Alone", EMPTY],
    ].map(([name, shard]) => projectWithKeySql(account.id, name ?? "", shard ?? "", now)),
  );
  for (const [i, project] of made.entries())
    executeLocalSql(project.shardStatements, persistTo, i < 2 ? LOADED : EMPTY);
  executeLocalSql([insert, ...made.flatMap((project) => project.statements)], persistTo);
  const [busy, neighbour, alone] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];

  const receiver = await startWebhookReceiver();
  const worker = await startLocalWorker({
    persistTo,
    // Each shard's primary takes its queries one at a time, QUERY_MS each, as D1 does: a burst
    // queues there as it would in production (db/simulated-primary.ts).
    vars: { METERING: "on", SIMULATED_D1_QUERY_MS: String(QUERY_MS) },
  });
  const keyPath = join(persistTo, "user_key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", keyPath]);
  const blob = readFileSync(`${keyPath}.pub`, "utf8").split(" ")[1] ?? "";
  const bookmarks = new Map<string, string>();
  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: {
        "x-api-key": key,
        "content-type": "application/json",
        ...(bookmarks.has(key) ? { "keyproof-bookmark": bookmarks.get(key) ?? "" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    bookmarks.set(key, response.headers.get("keyproof-bookmark") ?? "");
    return { ms: performance.now() - started, json: text ? JSON.parse(text) : null };
  };
  const bridge = async (path: string, body: unknown) => {
    const text = JSON.stringify(body);
    const headers = await signRequest(worker.secret, { method: "POST", path, body: text });
    const response = await fetch(`${worker.url}${path}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: text,
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ connection_id: string; session_id: string }>;
  };
  /** A proof as the bridge reports it: the connection opens, then finishes with the key proven. */
  const prove = async (identifier: string) => {
    const opened = await bridge("/internal/v1/connections", {
      connection_identifier: identifier,
      ip_address: "198.51.100.7",
      client_version: "SSH-2.0-OpenSSH_9.6",
    });
    await bridge(`/internal/v1/connections/${opened.connection_id}/finish`, {
      session_id: opened.session_id,
      connection_identifier: identifier,
      keys: [{ key: blob, security_key: null }],
      keys_offered: 1,
      confirmed: null,
    });
    return Date.now();
  };
  const meters = async (reset = false): Promise<Meters> =>
    (await fetch(`${worker.url}/__dev/meters`, { method: reset ? "DELETE" : "GET" })).json();
  const settled = async () => {
    let last = JSON.stringify(await meters());
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const now = JSON.stringify(await meters());
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
    return JSON.parse(last) as Meters;
  };
  /** When the receiver heard `sessionId`'s ending (its status_changed), in ms since the epoch. */
  const deliveredAt = async (path: string, sessionId: string) => {
    for (let i = 0; i < 300; i++) {
      const found = receiver
        .requestsTo(path)
        .find(
          (request) =>
            request.body.includes(sessionId) && request.body.includes('"status_changed"'),
        );
      if (found) return found.at;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no delivery for ${sessionId} at ${path}`);
  };
  const webhookOf = async (key: string, path: string) =>
    (await api(key, "POST", "/webhooks/", { url: `${receiver.url}${path}` })).json.id as string;

  try {
    const hooks = {
      busy: await webhookOf(busy.apiKey, "/ok/busy"),
      neighbour: await webhookOf(neighbour.apiKey, "/ok/neighbour"),
      alone: await webhookOf(alone.apiKey, "/ok/alone"),
    };
    // One real proof of each busy project: the rows every loaded session is a copy of.
    const templates = [];
    for (const project of [busy, neighbour]) {
      const session = (await api(project.apiKey, "POST", "/ssh/collect/sessions/", {})).json;
      await prove(session.connection_identifier);
      await api(project.apiKey, "GET", `/ssh/collect/sessions/?limit=1`);
      templates.push(session.id as string);
    }
    await settled();
    await worker.stop();
    const file = shardFile(persistTo, busy.projectId);
    const loadStarted = Date.now();
    loadHistory(
      file,
      templateOf(file, templates[0] ?? ""),
      busy.projectId,
      [hooks.busy],
      sessionsEach,
    );
    loadHistory(
      file,
      templateOf(file, templates[1] ?? ""),
      neighbour.projectId,
      [hooks.neighbour],
      sessionsEach,
    );
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    await worker.start();

    /** `proofs` proofs one after another on `project`, then `burst` at once; each counted. */
    const measure = async (project: typeof busy, path: string, shard: string) => {
      await api(project.apiKey, "GET", "/auth/info/");
      await settled();
      await meters(true);
      const times = {
        create: [] as number[],
        get: [] as number[],
        list: [] as number[],
        delivery: [] as number[],
      };
      for (let i = 0; i < proofs; i++) {
        const created = await api(project.apiKey, "POST", "/ssh/collect/sessions/", {
          external_id: `history-${i}`,
        });
        times.create.push(created.ms);
        const finished = await prove(created.json.connection_identifier);
        times.get.push(
          (await api(project.apiKey, "GET", `/ssh/collect/sessions/${created.json.id}/`)).ms,
        );
        times.list.push(
          (await api(project.apiKey, "GET", `/ssh/collect/sessions/?external_id=history-${i}`)).ms,
        );
        times.delivery.push((await deliveredAt(path, created.json.id)) - finished);
      }
      const one = await settled();
      // The burst: sessions made and proven many at once, each delivered; the writer groups
      // the pushes. Counted from the first create to the last delivery.
      await fetch(`${worker.url}/__dev/primary?query_ms=${BURST_QUERY_MS}`, { method: "PUT" });
      await meters(true);
      const burstStarted = performance.now();
      await loop(burst, 50, async () => {
        const created = await api(project.apiKey, "POST", "/ssh/collect/sessions/", {});
        await prove(created.json.connection_identifier);
        await deliveredAt(path, created.json.id);
      });
      const burstSeconds = (performance.now() - burstStarted) / 1000;
      const many = await settled();
      await fetch(`${worker.url}/__dev/primary?query_ms=${QUERY_MS}`, { method: "PUT" });
      const per = (value: number, n: number) => value / n;
      const single: Measured = {
        rowsRead: per(one.d1RowsRead, proofs),
        rowsWritten: per(one.d1RowsWritten, proofs),
        primaryQueries: per(one.d1PrimaryQueriesBy[shard] ?? 0, proofs),
        replicaQueries: per(one.d1ReplicaQueriesBy[shard] ?? 0, proofs),
        directoryPrimary: per(one.d1PrimaryQueriesBy.DIRECTORY ?? 0, proofs),
        directoryReplica: per(one.d1ReplicaQueriesBy.DIRECTORY ?? 0, proofs),
        writerRequests: per(one.writerRequestsBy[shard] ?? 0, proofs),
        dollarsPerMillion: per(priceOf(one), proofs),
        ...times,
      };
      const statements = Object.entries(many.primaryQueriesBy)
        .filter(([statement]) => statement.startsWith(`${shard}: `))
        .map(([statement, count]) => [statement.slice(shard.length + 2), count / burst] as const)
        .sort((a, b) => b[1] - a[1]);
      // Rows read a proof by statement, one by one; the proofs' shard named alike on both.
      const readBy = Object.fromEntries(
        Object.entries(one.d1ReadBy).map(([statement, rows]) => [
          statement.replace(`${shard}: `, "shard: "),
          rows / proofs,
        ]),
      );
      return {
        single,
        readBy,
        burstPrimaryQueries: per(many.d1PrimaryQueriesBy[shard] ?? 0, burst),
        burstProofsPerSecond: burst / burstSeconds,
        burstPrimaryBusy:
          ((many.d1PrimaryQueriesBy[shard] ?? 0) * BURST_QUERY_MS) / 1000 / burstSeconds,
        burstTransactions: per(many.d1WriteTransactionsBy[shard] ?? 0, burst),
        burstStatements: statements,
      };
    };
    const loaded = await measure(busy, "/ok/busy", LOADED);
    const empty = await measure(alone, "/ok/alone", EMPTY);
    const sizes = (await meters()).d1SizeBytes;
    return {
      loaded,
      empty,
      loadSeconds,
      shardBytes: sizes[LOADED] ?? 0,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
    await worker.stop();
    removeState(worker);
  }
}

export function historyMarkdown(
  sessionsEach: number,
  proofs: number,
  burst: number,
  result: Awaited<ReturnType<typeof runHistoryBench>>,
) {
  const { loaded, empty } = result;
  const fmt = (value: number, digits = 1) => value.toFixed(digits);
  const p = (values: number[], q: number) => fmt(percentile(values, q));
  const row = (name: string, a: number, b: number, digits = 1) => [
    name,
    fmt(a, digits),
    fmt(b, digits),
    b === 0 ? (a === 0 ? "1.00" : "—") : (a / b).toFixed(2),
  ];
  const latency = (name: string, key: "create" | "get" | "list" | "delivery") => [
    `${name} p50 / p99 (ms)`,
    `${p(loaded.single[key], 50)} / ${p(loaded.single[key], 99)}`,
    `${p(empty.single[key], 50)} / ${p(empty.single[key], 99)}`,
    (percentile(loaded.single[key], 50) / percentile(empty.single[key], 50)).toFixed(2),
  ];
  const rows = [
    row("D1 rows read", loaded.single.rowsRead, empty.single.rowsRead),
    row("D1 rows written", loaded.single.rowsWritten, empty.single.rowsWritten),
    row(
      "queries on the shard's primary (reads included)",
      loaded.single.primaryQueries,
      empty.single.primaryQueries,
      2,
    ),
    row("queries on a replica", loaded.single.replicaQueries, empty.single.replicaQueries, 2),
    row(
      "the directory's queries, primary (its caches warm)",
      loaded.single.directoryPrimary,
      empty.single.directoryPrimary,
      2,
    ),
    row(
      "the directory's queries, replica",
      loaded.single.directoryReplica,
      empty.single.directoryReplica,
      2,
    ),
    row("writer requests", loaded.single.writerRequests, empty.single.writerRequests, 2),
    row(
      `queries on the primary, burst of ${burst}`,
      loaded.burstPrimaryQueries,
      empty.burstPrimaryQueries,
      2,
    ),
    row(
      `write transactions on the primary, burst of ${burst}`,
      loaded.burstTransactions,
      empty.burstTransactions,
      2,
    ),
    row(
      "proofs a second, burst (create → delivered)",
      loaded.burstProofsPerSecond,
      empty.burstProofsPerSecond,
    ),
    row(
      "the primary's time busy, burst (share)",
      loaded.burstPrimaryBusy,
      empty.burstPrimaryBusy,
      2,
    ),
    latency("create", "create"),
    latency("GET one session", "get"),
    latency("list, with the bookmark", "list"),
    latency("delivery (proof → receiver)", "delivery"),
    row(
      "$ a million (metered units)",
      loaded.single.dollarsPerMillion,
      empty.single.dollarsPerMillion,
      2,
    ),
  ];
  return `## 17. History: a shard holding 30 days of a busy project

\`node bench/history.ts ${sessionsEach} ${proofs} ${burst}\` — one shard (${LOADED}) loaded straight into its SQLite file with two projects of ${sessionsEach.toLocaleString("en")} closed sessions each over 30 days (each with its connection and key, its events' row and, for the first, a delivery of each event to its webhook: ${(3 * sessionsEach).toLocaleString("en")} deliveries; ${fmt(result.shardBytes / 2 ** 20, 0)} MiB; loaded in ${fmt(result.loadSeconds, 0)} s), and a project alone on an empty shard (${EMPTY}), each with a webhook, in one run. Per proof: a create, the bridge's two calls, a GET and a list with the caller's bookmark, one after another (${proofs} proofs); then ${burst} proofs, 50 at a time, each from its create to its delivery, with each query taking ${BURST_QUERY_MS} ms on the primary (this machine's ~15 proofs a second then load it as 300 a second would load D1's: the queries a proof costs where the primary binds). Each shard's primary takes its queries one at a time, ${QUERY_MS} ms each, as D1's limits page describes a database (\`SIMULATED_D1_QUERY_MS=${QUERY_MS}\`), so a burst queues there as it would in production. Counts by the Worker's meters (\`METERING=on\`), latencies as the client saw them.

${table(["Per proof", "loaded shard", "empty shard", "loaded ÷ empty"], rows)}

Where a proof's rows read differ most, one by one (rows a proof, by statement):

${table(
  ["Statement (database: first words)", "loaded", "empty"],
  [...new Set([...Object.keys(loaded.readBy), ...Object.keys(empty.readBy)])]
    .map(
      (statement) =>
        [statement, loaded.readBy[statement] ?? 0, empty.readBy[statement] ?? 0] as const,
    )
    .sort((a, b) => Math.abs(b[1] - b[2]) - Math.abs(a[1] - a[2]))
    .slice(0, 8)
    .map(([statement, a, b]) => [`\`${statement}\``, fmt(a), fmt(b)]),
)}

Where the loaded shard's primary spends its queries in the burst (a proof: its create, the bridge's two calls and its deliveries), by statement:

${table(
  ["Statement (first words)", "a proof"],
  loaded.burstStatements.map(([statement, count]) => [`\`${statement}\``, count.toFixed(2)]),
)}

Machine: ${machine()}. The whole run took ${fmt(result.seconds, 0)} s.`;
}

/** The bench run and its section of docs/benchmarks.md written (`npm run bench`). */
export async function writeHistoryBench(sessionsEach = 300_000, proofs = 30, burst = 200) {
  const result = await runHistoryBench(sessionsEach, proofs, burst);
  const markdown = historyMarkdown(sessionsEach, proofs, burst, result);
  writeSection("history", markdown);
  return { result, markdown };
}

if (import.meta.main) {
  const [sessionsEach = 300_000, proofs = 30, burst = 200] = scriptArgs(import.meta.url) ?? [];
  console.log((await writeHistoryBench(sessionsEach, proofs, burst)).markdown);
}
