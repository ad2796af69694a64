import type { Env } from "../env.ts";
import { meter } from "./meter.ts";

/**
 * The Worker's logs: one JSON object per line with `level`, `time` and `msg`, as the bridge
 * writes them; Workers Logs indexes every field. LOG_LEVEL (wrangler.toml) drops lower levels.
 */

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const WRITERS: Record<LogLevel, (line: string) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** LOG_LEVEL as a level, or null when it is not one (config.ts refuses to start then). */
export function logLevelOf(setting: string | undefined): LogLevel | null {
  const level = (setting ?? "info").trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : null;
}

export function log(
  env: Pick<Env, "LOG_LEVEL">,
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown> = {},
) {
  const minimum = logLevelOf(env.LOG_LEVEL) ?? "info";
  if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(minimum)) return;
  // Each line is a Workers Logs event (billed), as the invocation's own log is.
  meter("logLines");
  WRITERS[level](JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields }));
}
