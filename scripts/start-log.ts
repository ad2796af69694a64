/**
 * The lines `npm start` shows: the JSON log lines of the Worker and the bridge made readable for
 * a person at a terminal, and wrangler's and HAProxy's own said in one line or not at all.
 */

/**
 * What wrangler says that README's log does not show: its own line for every request (the Worker
 * logs the API's and the bridge's itself, pages and the cron's are not news), its banner and the
 * table of bindings it prints at each start, and its startup chatter.
 */
const WRANGLER_CHATTER = [
  /^\[wrangler:info\] (Ready on|[A-Z]+ \/)/,
  /^\s*⛅️ wrangler/,
  /^─+$/,
  /^Using secrets defined in/,
  /^Your Worker has access to the following bindings:/,
  /^Binding\s+Resource\s+Mode$/,
  /^env\.[A-Z0-9_]+ .*\s(local|remote)$/,
  /^⎔ /,
  /^\s*$/,
  // workerd's own report of a fetch it could not make (a forge offline): the Worker says it in
  // its own one line, the request's 503 (README: an error is one line).
  /rust\/worker\/ffi\.rs:\d+: failed:/,
  /^\s+stack: .*workerd@/,
];
/** What wrangler puts around a Worker's error and warning lines: a coloured box. */
const WRANGLER_BOX = /^(?:✘ \[ERROR\]|▲ \[WARNING\]) (.*)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what it strips
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * `12:03:04 bridge  connection closed outcome=collected ...`, one line each, errors included.
 * Other lines (wrangler's own) pass as they are; the bridge's line saying it listens is left out,
 * as the banner says so.
 */
export function readableLogLine(source: string) {
  return (raw: string): string | null => {
    const plain = raw.replace(ANSI, "");
    if (WRANGLER_CHATTER.some((chatter) => chatter.test(plain))) return null;
    const line = WRANGLER_BOX.exec(plain)?.[1] ?? plain;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return raw;
    }
    if (typeof entry !== "object" || entry === null || !("msg" in entry)) return raw;
    const { level, time, msg, event: _event, stack: _stack, bridge: _bridge, ...fields } = entry;
    if (msg === "listening") return null;
    const clock = typeof time === "string" ? time.slice(11, 19) : "";
    const details = Object.entries(fields)
      .filter(([, value]) => value !== null && value !== "" && value !== 0)
      .map(
        ([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`,
      )
      .join(" ");
    return `${clock} ${source} ${level === "info" ? "" : `${String(level).toUpperCase()} `}${msg}  ${details}`;
  };
}

/** HAProxy's notice as one line of ours: `[WARNING]  (123) : Server ...` is `Server ...`. */
export function haproxyLine(line: string): string {
  const notice = /^\[(WARNING|NOTICE|ALERT)\]\s+\(\d+\) : (.*)$/.exec(line);
  if (!notice) return line;
  return notice[1] === "ALERT" ? `ERROR ${notice[2]}` : (notice[2] ?? "");
}
