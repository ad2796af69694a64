/**
 * The bridge's logs: one JSON object per line on stdout, each with `level`, `time` and `msg`,
 * as the Worker writes them, so one search follows a login across both (docs/operations.md).
 */

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type Logger = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => void;

/**
 * A logger writing lines at `minimum` and above to `write` (stdout by default), each with
 * `always` (the bridge's id: which bridge of a fleet wrote it).
 */
export function jsonLogger(
  minimum: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
  always: Record<string, unknown> = {},
): Logger {
  const threshold = LOG_LEVELS.indexOf(minimum);
  return (level, msg, fields = {}) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const line = { level, time: new Date().toISOString(), msg, ...always, ...fields };
    write(`${JSON.stringify(line)}\n`);
  };
}
