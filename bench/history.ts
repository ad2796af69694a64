/**
 * A shard that holds 30 days of a busy project: two projects of `sessions` closed
 * sessions each on one shard — their connections, keys, event rows, and every delivery of the
 * first project's webhook — loaded straight into the shard's SQLite file, then proofs with a
 * webhook on that project and on a project alone on an empty shard, in the same run: one by one
 * (what a proof costs and how long its API calls and delivery take), then a burst of them at once
 * (the queries a proof costs the shard's primary when its writer groups them).
 *   node bench/history.ts [sessions a project] [proofs] [burst]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountSql, projectWithKeySql } from "../scripts/seed-sql.ts";
import { copyMigratedState, localD1File, writeD1File } from "../test-support/local-d1.ts";
import { removeState, startLocalWorker } from "../test-support/local-worker.ts";
import { startWebhookReceiver } from "../test-support/webhook-receiver.ts";
import type { Meters } from "../worker/src/lib/meter.ts";
import { signRequest } from "../worker/src/protocol/request-signing.ts";
import { priceOf } from "./cost.ts";
import {
  BURST_QUERY_MS,
  EMPTY,
  LOADED,
  loadHistory,
  QUERY_MS,
  templateOf,
} from "./history-loader.ts";
import { type HistoryResult, historyMarkdown, type Measured } from "./history-report.ts";
import { loop, scriptArgs, writeSection } from "./lib.ts";

export async function runHistoryBench(
  sessionsEach = 300_000,
  proofs = 30,
  burst = 200,
): Promise<HistoryResult> {
  const persistTo = mkdtempSync(join(tmpdir(), "keyproof-history-"));
  const started = Date.now();
  await copyMigratedState(persistTo);
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
    writeD1File(await localD1File(persistTo, i < 2 ? LOADED : EMPTY), project.shardStatements);
  writeD1File(await localD1File(persistTo, "DIRECTORY"), [
    insert,
    ...made.flatMap((project) => project.statements),
  ]);
  const [busy, neighbour, alone] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];

  const receiver = await startWebhookReceiver();
  const worker = await startLocalWorker({
    persistTo,
    // Each shard's primary takes its queries one at a time, QUERY_MS each, as D1 does: a burst
    // queues there as it would in production (development/d1-simulation.ts).
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
    const file = await localD1File(persistTo, LOADED);
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
