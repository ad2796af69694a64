/**
 * One attempt of a delivery (attemptOnce): sent, its answer read, what comes next decided; and a
 * run's answers recorded in one statement (recordAnswers). The consumer (consumer.ts) decides which
 * attempts are made, in what order; the sweeper and manual retries come through it too.
 */
import { type SQL, sql } from "drizzle-orm";
import { sessions } from "../db/sessions.ts";
import { type AttemptRecord, eventOf, events, webhookInvocations } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "../lib/url-safety.ts";
import type { LoadedInvocation } from "./claims.ts";
import { envelope, sendAttempt } from "./deliver.ts";
import { nextDelaySeconds, retryAfterSeconds } from "./schedule.ts";

/** What to do with one queue message. */
export type QueueDecision =
  /** Nothing more for this message: delivered, finished, or a stale duplicate. */
  | { kind: "done" }
  /** Not yet: the same message again after the delay. */
  | { kind: "later"; delaySeconds: number }
  /** The attempt was made and failed: a new message for the next attempt, after the delay. */
  | { kind: "next"; attempt: number; delaySeconds: number };

export const done = { kind: "done" } as const;

/** The invocation being updated delivers an event of a session that has been redacted since. */
const ofRedactedSession = sql`EXISTS (SELECT 1 FROM ${events}
  JOIN ${sessions} ON ${sessions.id} = ${events.sessionId}
  WHERE ${eventOf(webhookInvocations)} AND ${sessions.redactedAt} IS NOT NULL)`;

/** An attempt's answer, as its invocation's row records it. */
export interface Answer {
  webhookId: string;
  id: string;
  attempt: number;
  status: "succeeded" | "retrying" | "failed";
  nextAttemptAt: string | null;
  failureReason: string | null;
  updatedAt: string;
  /** The attempt's entry in the log (AttemptRecord), and the same without the response's body. */
  record: string;
  redacted: string;
}

/** The answer's value at `position` of its JSON row (recordAnswers). */
const field = (position: number) => sql.raw(`json_extract(answer.value, '$[${position}]')`);

/**
 * A run's answers in one statement, however long the run (its rows as one JSON value, as
 * db/json-rows.ts writes them): a query a run rather than one an attempt. Each row is
 * updated only if it still counts the attempts its answer expects: an attempt recorded twice
 * (two sends racing past a lease) cannot be, as only one of them finds the count it expects. The
 * attempt is appended to the log by the same update; an answer that comes back after its session
 * was redacted is not kept (it may echo what was sent).
 */
export function recordAnswers(answers: Answer[]): SQL[] {
  if (answers.length === 0) return [];
  const rows = JSON.stringify(
    answers.map((answer) => [
      answer.webhookId,
      answer.id,
      answer.attempt,
      answer.status,
      answer.nextAttemptAt,
      answer.failureReason,
      answer.updatedAt,
      answer.record,
      answer.redacted,
    ]),
  );
  const column = (name: string) => sql.identifier(name);
  const t = webhookInvocations;
  return [
    sql`UPDATE ${t} SET
      ${column(t.status.name)} = ${field(3)},
      ${column(t.attempts.name)} = ${field(2)},
      ${column(t.nextAttemptAt.name)} = ${field(4)},
      ${column(t.leaseUntil.name)} = NULL,
      ${column(t.failureReason.name)} = ${field(5)},
      ${column(t.updatedAt.name)} = ${field(6)},
      ${column(t.attemptLog.name)} = json_insert(${t.attemptLog}, '$[#]', json(
        CASE WHEN ${ofRedactedSession} THEN ${field(8)} ELSE ${field(7)} END))
      FROM json_each(${rows}) AS answer
      WHERE ${t.webhookId} = ${field(0)} AND ${t.id} = ${field(1)}
        AND ${t.attempts} = ${field(2)} - 1`,
  ];
}

/** One attempt, `delivered` being its event as sent: sent now, and the rows that record it. */
export async function attemptOnce(
  env: Env,
  found: LoadedInvocation,
  delivered: LoadedInvocation["event"],
  timeout: number,
) {
  const { invocation, webhook } = found;
  const attempt = invocation.attempts + 1;
  const now = new Date();
  const at = now.toISOString();
  const unsafe = unsafeUrlReason(webhook.url, allowsPrivateNetworks(env.ENVIRONMENT));
  const body = JSON.stringify(envelope(webhook, invocation, delivered, attempt, now));
  const result = unsafe
    ? {
        requestTime: at,
        durationMs: 0,
        statusCode: null,
        responseBody: null,
        error: unsafe,
        retryAfter: null,
      }
    : await sendAttempt(webhook, invocation.id, body, now, timeout);

  const succeeded =
    result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const exhausted = attempt > webhook.retries;
  const status = succeeded ? "succeeded" : gone || exhausted || unsafe ? "failed" : "retrying";
  const failureReason =
    status !== "failed"
      ? null
      : gone
        ? "The receiver answered 410 Gone, so the webhook was disabled"
        : unsafe
          ? `The URL is not allowed: ${unsafe}`
          : `No 2xx answer in ${attempt} attempt${attempt === 1 ? "" : "s"} (retries: ${webhook.retries})`;
  const answered = new Date();
  const delay =
    status === "retrying"
      ? nextDelaySeconds(webhook, attempt, retryAfterSeconds(result.retryAfter, answered.getTime()))
      : 0;
  const nextAttemptAt =
    status === "retrying" ? new Date(answered.getTime() + delay * 1000).toISOString() : null;
  const record: AttemptRecord = {
    attempt,
    request_time: result.requestTime,
    duration_ms: result.durationMs,
    status_code: result.statusCode,
    response_body: result.responseBody,
    error: result.error,
  };
  const answer: Answer = {
    webhookId: webhook.id,
    id: invocation.id,
    attempt,
    status,
    nextAttemptAt,
    failureReason,
    updatedAt: answered.toISOString(),
    record: JSON.stringify(record),
    redacted: JSON.stringify({ ...record, response_body: null }),
  };
  const decision: QueueDecision =
    status === "retrying" ? { kind: "next", attempt: attempt + 1, delaySeconds: delay } : done;
  return { answer, decision, gone };
}
