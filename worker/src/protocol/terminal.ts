import type { KeyMismatch, KeyRefusalCode, OfferedKey, ProvenKeyView } from "./key-outcomes.ts";
import {
  CONNECTION_LEASE_MS,
  type ConnectionMethod,
  type FinishConnectionResponse,
  type RefusalReason,
} from "./messages.ts";
import { stripControlCharacters } from "./terminal-text.ts";

/** What the user reads on their terminal. Pure text builders, so they are easy to test and change. */

/** Refusals that mean "this kind of key cannot be used here", which a new key would fix. */
const UNUSABLE_KEY_TYPES = new Set<KeyRefusalCode>([
  "malformed",
  "unsupported",
  "dsa",
  "rsa_too_short",
  "degenerate",
  "invalid",
  "sha1",
  "algorithm_mismatch",
]);

const KEY_REFUSALS: Record<KeyRefusalCode, (detail: string | null) => string> = {
  malformed: () => "your client sent key data that cannot be read",
  unsupported: (type) =>
    `keys of type ${type ?? "this type"} are not supported; use Ed25519, ECDSA or RSA`,
  dsa: () => "DSA keys are not supported; use Ed25519, ECDSA or RSA of 2048 bits or more",
  rsa_too_short: (bits) => `RSA keys of ${bits} bits are too short; use 2048 bits or more`,
  degenerate: () =>
    "this key is degenerate: anyone can make its signatures without a private key, so it proves nothing",
  invalid: () => "this is not a valid public key",
  private_key: () => "this is a private key; offer its public key",
  sha1: () =>
    "SHA-1 (ssh-rsa) signatures are not accepted; use an OpenSSH 7.2+ client (rsa-sha2-256/512)",
  algorithm_mismatch: (algorithm) =>
    `your client signed it under another key type's name (${algorithm ?? "unknown"}), which sshd refuses too`,
  security_key_required: () =>
    "this session accepts only FIDO security keys; make one with: ssh-keygen -t ed25519-sk",
  not_touched: () =>
    "your security key signed without a touch; touch it when it blinks (a key made with -O no-touch-required never asks: use one made without it)",
  user_verification_required: () =>
    "this session needs your security key to check your PIN or fingerprint; make such a key with: ssh-keygen -t ed25519-sk -O verify-required",
  certificate_verify_required: () =>
    "its certificate says verify-required: only a security key that checked your PIN or fingerprint may use it (ssh-keygen -t ed25519-sk -O verify-required)",
};

const when = (time: string | null) =>
  time ? `${time.slice(0, 19).replace("T", " ")} UTC` : "a date it names";

/** Why a key is not one this session expects, when there is more to say than that. */
const MISMATCHES: Record<KeyMismatch, ((detail: string | null) => string) | null> = {
  not_expected: null,
  untrusted_ca: () => "its certificate is from a CA this session does not trust",
  certificate_invalid: () =>
    "its certificate is not a valid user certificate (the CA's signature does not verify, or it is a host certificate)",
  certificate_unknown_option: (names) =>
    `its certificate carries a critical option keyproof does not know (${names ?? "unknown"}), so, as sshd does, it is refused`,
  certificate_source_address: (allowed) =>
    `its certificate may only be used from ${allowed ?? "other addresses"} (source-address), and you connected from elsewhere`,
  certificate_not_yet_valid: (time) => `its certificate is not valid until ${when(time)}`,
  certificate_expired: (time) => `its certificate expired at ${when(time)}`,
  principal_missing: (principal) =>
    `its certificate does not list the principal "${principal ?? ""}"`,
};

export const UNAVAILABLE_MESSAGE =
  "keyproof is temporarily unavailable. Nothing was recorded; please try again in a minute.";
/**
 * The connection's report went out and no answer came back: it may have been recorded. Said as
 * it is, never "nothing was recorded" (the key may be saved, the session done).
 */
export const FINISH_UNKNOWN_MESSAGE =
  "keyproof did not answer in time, so whether this was recorded is not known: your key may have been. Check with whoever sent you here (or their page) before trying again.";
export const EXPIRED_DURING_CONNECTION = "This keyproof session has expired. Ask for a new one.";
export const RESTARTING_MESSAGE = "keyproof is restarting; please connect again.";
export const LIFETIME_EXCEEDED_MESSAGE =
  "This connection has reached keyproof's time limit and is closed; nothing more is recorded from it. Connect again to continue.";

/** Why a connection was turned away before authentication, one sentence each. */
export const REFUSALS: Record<RefusalReason, string> = {
  unknown: "There is no keyproof session with this name. Check the command you were given.",
  expired: EXPIRED_DURING_CONNECTION,
  completed: "This keyproof session is already complete and accepts no more connections.",
  verified: "This keyproof session is already verified and accepts no more connections.",
  failed: "This keyproof session has failed after too many attempts. Ask for a new one.",
  // A connection cut off (its bridge or the Worker gone mid-way) keeps its place until its lease
  // runs out: said as it is, not as a connection in progress that may not exist.
  busy: `Another connection to this keyproof session is in progress, or one was cut off and holds it for at most ${CONNECTION_LEASE_MS / 1000} seconds more. Try again after that.`,
};

const NO_KEY_OFFERED = [
  "No SSH key was offered, so there was nothing to prove.",
  "Create a key with:       ssh-keygen -t ed25519",
  "or pick an existing one: ssh -i ~/.ssh/id_ed25519 -o IdentitiesOnly=yes <the same command>",
];

const NOT_AN_ATTEMPT = "That did not count as an attempt.";

const NOTHING_USABLE = "None of the keys you offered can be used here, so nothing was proven.";

/** How to try again with another key: over SSH, or by signing again. */
const USE_ANOTHER_KEY: Record<ConnectionMethod, { make: string[]; offer: string }> = {
  ssh: {
    make: [
      "Create a key keyproof accepts with: ssh-keygen -t ed25519",
      "and offer it with:                  ssh -i ~/.ssh/id_ed25519 -o IdentitiesOnly=yes <the same command>",
    ],
    offer:
      "Offer the right one with: ssh -i /path/to/private_key -o IdentitiesOnly=yes <the same command>",
  },
  signature: {
    make: [
      "Create a key keyproof accepts with: ssh-keygen -t ed25519",
      "and sign with it:                   the same command, with -f ~/.ssh/id_ed25519",
    ],
    offer: "Sign with the right one: the same command, with -f /path/to/private_key",
  },
};

const UNSIGNED_HELP =
  "Your SSH client offered a key but never signed with it: unlock it (its passphrase) or check your ssh-agent, then connect again.";

/** Key types as `ssh-keygen -l` names them. */
const ALGORITHM_NAMES: Record<string, string> = {
  "ssh-ed25519": "ED25519",
  "ssh-rsa": "RSA",
  "ecdsa-sha2-nistp256": "ECDSA",
  "ecdsa-sha2-nistp384": "ECDSA",
  "ecdsa-sha2-nistp521": "ECDSA",
  "sk-ssh-ed25519@openssh.com": "ED25519-SK",
  "sk-ecdsa-sha2-nistp256@openssh.com": "ECDSA-SK",
};

/** `ED25519`, `ECDSA-SK`: a key type as ssh-keygen names it. */
export const keyTypeName = (algorithm: string) => ALGORITHM_NAMES[algorithm] ?? algorithm;

/** `SHA256:... (ED25519 256)`: a key as the user's tools name it. */
export function keyLabel(key: ProvenKeyView): string {
  const name = `${keyTypeName(key.algorithm)}${key.certified ? "-CERT" : ""}`;
  return `${key.sha256} (${name} ${key.bits})`;
}

export const keyLine = (key: ProvenKeyView) => `  ${keyLabel(key)}`;

/**
 * Lines joined for the channel: a pty needs CR LF, a plain channel LF. Every line is stripped of
 * control characters first: text from the API (banner, message) never steers the terminal.
 */
export function render(lines: string[], pty: boolean): string {
  const newline = pty ? "\r\n" : "\n";
  const split = lines.flatMap((line) => stripControlCharacters(line).split("\n"));
  return split.join(newline) + newline;
}

/** The SSH_MSG_USERAUTH_BANNER text: no control characters, lines ended with CR LF. */
export function bannerText(text: string): string {
  const clean = stripControlCharacters(text).replace(/\n$/, "");
  return `${clean.split("\n").join("\r\n")}\r\n`;
}

/** One line per refused key; a key refused bare and in its certificate alike is one line. */
export function refusedKeyLines(offered: OfferedKey[]): string[] {
  const lines = offered.flatMap((key) =>
    key.fate === "refused"
      ? [`Refused ${key.sha256}: ${KEY_REFUSALS[key.refusal](key.detail)}`]
      : [],
  );
  return [...new Set(lines)];
}

/** Above the keys awaiting a y: for one key, then for more. */
const CONFIRM_HEADINGS = {
  collect: ["This key will be recorded:", "These keys will be recorded:"],
  verify: ["This key matches this session:", "These keys match this session:"],
} as const;

export function confirmPromptLines(
  kind: "collect" | "verify",
  proven: ProvenKeyView[],
  pty: boolean,
): string[] {
  const lines =
    proven.length === 0
      ? ["No key was proven."]
      : [CONFIRM_HEADINGS[kind][proven.length === 1 ? 0 : 1], ...proven.map(keyLine)];
  return [
    ...lines,
    pty
      ? "Press y to confirm, any other key to decline: "
      : "Type y and Enter to confirm, anything else to decline: ",
  ];
}

const unprovenOf = (offered: OfferedKey[]) =>
  offered.flatMap((key) => (key.fate === "unproven" ? [key.key] : []));

/** An unexpected key's line, with why when a certificate could have made it count. */
function unexpectedLine(key: UnexpectedKey): string {
  const why = MISMATCHES[key.mismatch];
  return why ? `${keyLine(key.key)}: ${why(key.detail)}` : keyLine(key.key);
}

type UnexpectedKey = Extract<OfferedKey, { fate: "unexpected" }>;

/**
 * The keys the session did not expect, each once: ssh offers a key bare and then in its
 * certificate, which is the one to speak of. A key proven one way is not listed.
 */
function unexpectedOf(offered: OfferedKey[]): UnexpectedKey[] {
  const proven = new Set(offered.flatMap((key) => (key.fate === "proven" ? [key.sha256] : [])));
  const unexpected = new Map<string, UnexpectedKey>();
  for (const key of offered) {
    if (key.fate !== "unexpected" || proven.has(key.sha256)) continue;
    if (!unexpected.get(key.sha256)?.key.certified) unexpected.set(key.sha256, key);
  }
  return [...unexpected.values()];
}

/** Offered keys a verification session did not ask for, so the user knows each was seen. */
function unexpectedLines(offered: OfferedKey[]): string[] {
  const unexpected = unexpectedOf(offered);
  if (unexpected.length === 0) return [];
  return ["Not expected by this session:", ...unexpected.map(unexpectedLine)];
}

/** Beside what was proven: keys offered that never came with a valid signature. */
function unsignedLines(offered: OfferedKey[]): string[] {
  const proven = new Set(offered.flatMap((key) => (key.fate === "proven" ? [key.sha256] : [])));
  const unsigned = unprovenOf(offered).filter((key) => !proven.has(key.sha256));
  return unsigned.length === 0 ? [] : ["Offered but never signed for:", ...unsigned.map(keyLine)];
}

/** When nothing was proven: why, for the keys that were offered, and what to do next. */
function nothingProvenLines(offered: OfferedKey[], method: ConnectionMethod): string[] {
  if (offered.length === 0) return NO_KEY_OFFERED;
  const unproven = unprovenOf(offered);
  if (unproven.length > 0) return ["Not proven:", ...unproven.map(keyLine), UNSIGNED_HELP];
  const newKeyHelps = offered.some(
    (key) => key.fate === "refused" && UNUSABLE_KEY_TYPES.has(key.refusal),
  );
  return newKeyHelps ? [NOTHING_USABLE, ...USE_ANOTHER_KEY[method].make] : [NOTHING_USABLE];
}

/** "This session expects a key that github.com/alice lists." — when keys came from forges. */
export function expectedAccountsLine(accounts: readonly string[]): string[] {
  if (accounts.length === 0) return [];
  const names =
    accounts.length === 1
      ? accounts[0]
      : `${accounts.slice(0, -1).join(", ")} or ${accounts[accounts.length - 1]}`;
  return [`This session expects a key that ${names} lists.`];
}

export function resultLines(
  kind: "collect" | "verify",
  result: FinishConnectionResponse,
  offered: OfferedKey[],
  method: ConnectionMethod = "ssh",
): string[] {
  switch (result.outcome) {
    case "collected":
      return [
        `Collected ${result.keys.length} key${result.keys.length === 1 ? "" : "s"}:`,
        ...result.keys.map((key) => `${keyLine(key)}${key.new ? "" : "  (already recorded)"}`),
        ...unsignedLines(offered),
      ];
    case "verified":
      return [
        result.session_status === "verified"
          ? "Verified: you hold the key this session expects."
          : `Key verified. ${result.remaining_keys} more key${result.remaining_keys === 1 ? "" : "s"} must still be proven; connect again with ${result.remaining_keys === 1 ? "it" : "them"}.`,
        ...result.keys.map(keyLine),
        ...unexpectedLines(offered),
        ...unsignedLines(offered),
      ];
    case "no_key":
      return [
        ...nothingProvenLines(offered, method),
        // With no key offered, nothing was tried: a verification session's attempts are intact.
        ...(kind === "verify" && offered.length === 0 ? [NOT_AN_ATTEMPT] : []),
        ...attemptLines(kind, result),
      ];
    case "no_match": {
      const unexpected = unexpectedOf(offered);
      const accounts = expectedAccountsLine(result.expected_accounts);
      if (unexpected.length === 0)
        return [...nothingProvenLines(offered, method), ...accounts, ...attemptLines(kind, result)];
      return [
        unexpected.length === 1
          ? "The key you offered is not one this session expects:"
          : `None of the ${unexpected.length} keys you offered is one this session expects:`,
        ...unexpected.map(unexpectedLine),
        ...accounts,
        USE_ANOTHER_KEY[method].offer,
        ...attemptLines(kind, result),
      ];
    }
    case "declined":
      return [
        `Nothing was ${kind === "collect" ? "recorded" : "verified"}: you did not confirm.`,
        ...attemptLines(kind, result),
      ];
    case "expired":
      return [EXPIRED_DURING_CONNECTION];
    case "interrupted":
      return [RESTARTING_MESSAGE];
    case "closed": {
      const status = result.session_status;
      return [
        status === "completed" || status === "verified" || status === "failed"
          ? REFUSALS[status]
          : "This keyproof session is closed and accepts no more connections.",
      ];
    }
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
