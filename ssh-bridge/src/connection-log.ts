import type { KeyWalk } from "./key-walk.ts";

/** A connection's one log line, written when it closes: what it offered, proved and became. */
export type ConnectionLog = {
  event: "connection";
  /** The connection's trace id: its calls to the Worker are `<request_id>-1`, `-2`, ... */
  request_id: string;
  identifier: string | null;
  remote_address: string;
  client_version: string;
  session_id: string | null;
  connection_id: string | null;
  keys_offered: number;
  keys_proven: number;
  keys_refused: number;
  signatures_checked: number;
  outcome: string;
  /** What went wrong, in the Worker's words when it was the Worker: null when nothing did. */
  error: string | null;
  duration_ms: number;
};

/** The line, from what the connection knows and what became of its keys. */
export function connectionLogLine(
  known: Omit<
    ConnectionLog,
    "event" | "keys_offered" | "keys_proven" | "keys_refused" | "signatures_checked"
  >,
  keys: KeyWalk,
): ConnectionLog {
  return {
    event: "connection",
    ...known,
    keys_offered: keys.offered.length,
    keys_proven: keys.proven.length,
    keys_refused: keys.offered.filter((key) => key.fate === "refused").length,
    signatures_checked: keys.signaturesChecked,
  };
}
