/**
 * Cloudflare's published prices (Workers Paid, beyond what the plan includes), each with its page,
 * and what a proof's whole life costs at them (bench/cost.ts). Read on 2026-11-26.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../scripts/local-dev.ts";

export const PRICE_PAGES = {
  workers: "https://developers.cloudflare.com/workers/platform/pricing/",
  durableObjects: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  d1: "https://developers.cloudflare.com/d1/platform/pricing/",
  queues: "https://developers.cloudflare.com/queues/platform/pricing/",
  workersLogs: "https://developers.cloudflare.com/workers/observability/logs/workers-logs/",
} as const;

/** Dollars. */
export const PRICES = {
  /** Workers: $0.30 a million requests; CPU $0.02 a million CPU milliseconds. */
  workerRequest: 0.3e-6,
  cpuMs: 0.02e-6,
  /** Durable Objects: $0.15 a million requests (alarm invocations included). */
  objectRequest: 0.15e-6,
  /** Durable Objects: $12.50 a million GB-s, each object billed as 128 MB while active. */
  objectGbSecond: 12.5e-6,
  objectGb: 0.128,
  /** Durable Objects' SQLite: $1.00 a million rows written (each setAlarm one; deletes count). */
  objectRowWritten: 1e-6,
  objectRowRead: 0.001e-6,
  /** Durable Objects' SQLite: $0.20 a GB-month stored. */
  objectGbMonth: 0.2,
  /** D1: $1.00 a million rows written, $0.001 a million read, $0.75 a GB-month stored. */
  d1RowWritten: 1e-6,
  d1RowRead: 0.001e-6,
  d1GbMonth: 0.75,
  /** Queues: $0.40 a million operations; a message is written, read and deleted: 3. */
  queueMessage: 3 * 0.4e-6,
  /** Workers Logs: $0.60 a million log events (an invocation's own log, each line logged). */
  logEvent: 0.6e-6,
} as const;

/** The billed units of a proof's whole life, as bench/cost.ts counts them. */
export interface LifeUnits {
  workerInvocations: number;
  durableObjectRequests: number;
  durableObjectRowsRead: number;
  durableObjectRowsWritten: number;
  alarmsSet: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  queueMessages: number;
  /** Lines the Worker and its objects logged. */
  logLines: number;
  durableObjectActiveMs: number;
  /** workerd's CPU time (local: the runtime's own D1 and objects included, so an upper bound). */
  cpuMs: number;
  /** D1 bytes a closed session keeps, for `retentionDays`. */
  d1Bytes: number;
  retentionDays: number;
  /** Object bytes a proof keeps until it retires, at most `objectKeptMinutes` after its create. */
  objectBytes: number;
  objectKeptMinutes: number;
}

/** What wrangler.toml asks of Workers Logs: the share of invocations logged, and whether each invocation's own log is. */
export function logSettings(config = join(ROOT, "wrangler.toml")) {
  const text = readFileSync(config, "utf8");
  const section = (name: string) =>
    new RegExp(`^\\[${name.replace(".", "\\.")}\\]\\n([\\s\\S]*?)(?=^\\[|$(?![\\s\\S]))`, "m").exec(
      text,
    )?.[1] ?? "";
  const setting = (body: string, key: string) =>
    new RegExp(`^${key}\\s*=\\s*([^#\\n]+)`, "m").exec(body)?.[1]?.trim();
  const logs = section("observability.logs");
  const top = section("observability");
  const rate = Number(
    setting(logs, "head_sampling_rate") ?? setting(top, "head_sampling_rate") ?? 1,
  );
  const invocationLogs = (setting(logs, "invocation_logs") ?? "true") !== "false";
  return { headSamplingRate: rate, invocationLogs };
}

const MONTH_DAYS = 30;

/** Each line of a proof's bill over its whole life, in dollars a million proofs. */
export function lifecycleBill(units: LifeUnits, logs = logSettings()) {
  const million = 1_000_000;
  const logEvents =
    ((logs.invocationLogs ? units.workerInvocations + units.durableObjectRequests : 0) +
      units.logLines) *
    logs.headSamplingRate;
  const lines: [string, number, string][] = [
    ["Worker requests", units.workerInvocations * PRICES.workerRequest, "workers"],
    ["Worker CPU (upper bound)", units.cpuMs * PRICES.cpuMs, "workers"],
    [
      "Durable Object requests (alarms included)",
      units.durableObjectRequests * PRICES.objectRequest,
      "durableObjects",
    ],
    [
      "Durable Object duration (estimated)",
      (units.durableObjectActiveMs / 1000) * PRICES.objectGb * PRICES.objectGbSecond,
      "durableObjects",
    ],
    [
      "Durable Object rows written (deleteAll included)",
      units.durableObjectRowsWritten * PRICES.objectRowWritten,
      "durableObjects",
    ],
    [
      "alarms set (a row written each)",
      units.alarmsSet * PRICES.objectRowWritten,
      "durableObjects",
    ],
    [
      "rows read (objects and D1)",
      (units.durableObjectRowsRead + units.d1RowsRead) * PRICES.d1RowRead,
      "d1",
    ],
    ["D1 rows written (erasure included)", units.d1RowsWritten * PRICES.d1RowWritten, "d1"],
    [
      `D1 storage (${units.retentionDays} days)`,
      (units.d1Bytes / 1e9) * (units.retentionDays / MONTH_DAYS) * PRICES.d1GbMonth,
      "d1",
    ],
    [
      `Durable Object storage (${units.objectKeptMinutes} minutes)`,
      (units.objectBytes / 1e9) *
        (units.objectKeptMinutes / (MONTH_DAYS * 1440)) *
        PRICES.objectGbMonth,
      "durableObjects",
    ],
    ["Queue messages (3 operations each)", units.queueMessages * PRICES.queueMessage, "queues"],
    [
      `Workers Logs (${logEvents.toFixed(1)} events at ${logs.headSamplingRate * 100} %)`,
      logEvents * PRICES.logEvent,
      "workersLogs",
    ],
  ];
  const bill = lines.map(([name, dollars, page]) => ({
    name,
    perMillion: dollars * million,
    page: PRICE_PAGES[page as keyof typeof PRICE_PAGES],
  }));
  return { bill, total: bill.reduce((sum, line) => sum + line.perMillion, 0), logEvents };
}
