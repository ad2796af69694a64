import type { FinishConnectionResponse } from "../../worker/src/schemas/internal.ts";

/** What the user reads on their terminal. Pure text builders, so they are easy to test and change. */

export interface ProvenKeyView {
  sha256: string;
  algorithm: string;
  bits: number;
}

export interface RefusedKeyView {
  sha256: string;
  reason: string;
}

export const UNAVAILABLE_MESSAGE =
  "keyproof is temporarily unavailable. Nothing was recorded; please try again in a minute.";
export const EXPIRED_DURING_CONNECTION = "This keyproof session has expired. Ask for a new one.";

const NO_KEY_HELP = [
  "No SSH key was offered, so there was nothing to prove.",
  "Create a key with:       ssh-keygen -t ed25519",
  "or pick an existing one: ssh -i ~/.ssh/id_ed25519 <the same command>",
];

const ALGORITHM_NAMES: Record<string, string> = {
  "ssh-ed25519": "ED25519",
  "ssh-rsa": "RSA",
  "ecdsa-sha2-nistp256": "ECDSA",
  "ecdsa-sha2-nistp384": "ECDSA",
  "ecdsa-sha2-nistp521": "ECDSA",
};

export function keyLine(key: ProvenKeyView): string {
  return `  ${key.sha256} (${ALGORITHM_NAMES[key.algorithm] ?? key.algorithm} ${key.bits})`;
}

/** Lines joined for the channel: a pty needs CR LF, a plain channel LF. */
export function render(lines: string[], pty: boolean): string {
  const newline = pty ? "\r\n" : "\n";
  return lines.join(newline) + newline;
}

export function refusedKeyLines(refused: RefusedKeyView[]): string[] {
  return refused.map((key) => `Refused ${key.sha256}: ${key.reason}`);
}

export function confirmPromptLines(
  kind: "collect" | "verify",
  proven: ProvenKeyView[],
  pty: boolean,
): string[] {
  const lines =
    proven.length === 0
      ? ["No key was proven."]
      : [
          kind === "collect" ? "These keys will be recorded:" : "These keys match this session:",
          ...proven.map(keyLine),
        ];
  return [
    ...lines,
    pty
      ? "Press y to confirm, any other key to decline: "
      : "Type y and Enter to confirm, anything else to decline: ",
  ];
}

export function resultLines(
  kind: "collect" | "verify",
  result: FinishConnectionResponse,
  offeredCount: number,
): string[] {
  if (result.message) return [result.message];
  switch (result.outcome) {
    case "collected":
      return [
        `Collected ${result.keys.length} key${result.keys.length === 1 ? "" : "s"}:`,
        ...result.keys.map((key) => `${keyLine(key)}${key.new ? "" : "  (already recorded)"}`),
      ];
    case "verified":
      return [
        result.session_status === "verified"
          ? "Verified: you hold the key this session expects."
          : `Key verified. ${result.remaining_keys} more key${result.remaining_keys === 1 ? "" : "s"} must still be proven; connect again with ${result.remaining_keys === 1 ? "it" : "them"}.`,
        ...result.keys.map(keyLine),
      ];
    case "no_key":
      return [...NO_KEY_HELP, ...attemptLines(kind, result)];
    case "no_match":
      return [
        offeredCount === 1
          ? "The key you offered is not one this session expects."
          : `None of the ${offeredCount} keys you offered is one this session expects.`,
        "Offer the right one with: ssh -i /path/to/private_key <the same command>",
        ...attemptLines(kind, result),
      ];
    case "declined":
      return [
        `Nothing was ${kind === "collect" ? "recorded" : "verified"}: you did not confirm.`,
        ...attemptLines(kind, result),
      ];
    case "expired":
      return [EXPIRED_DURING_CONNECTION];
    case "closed":
      return ["This keyproof session is closed and accepts no more connections."];
  }
}

function attemptLines(kind: "collect" | "verify", result: FinishConnectionResponse): string[] {
  if (kind === "collect") return [];
  if (result.session_status === "failed")
    return ["That was the last attempt: the session has failed."];
  const left = result.max_attempts - result.failed_attempts;
  return left > 0 && result.session_status === "pending"
    ? [`${left} attempt${left === 1 ? "" : "s"} left.`]
    : [];
}
