import type { ConnectionKeyRow, ConnectionRow, SessionRow } from "../db/sessions.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";
import { expectedAccountsLine, keyLabel } from "../protocol/terminal.ts";

/**
 * What the hosted proof page says, composed once for the first render and for every
 * live update. Public: it names no `external_id`, key names or anything of other sessions.
 */
export interface ProofStatus {
  /** For styling and tests: where the user is. */
  state: "waiting" | "connected" | "confirming" | "again" | "done" | "failed";
  headline: string;
  detail: string | null;
  /** The keys this session has recorded, as `SHA256:... (ED25519 256)`. */
  keys: string[];
  /** The session accepts no more connections: nothing will change any more. */
  final: boolean;
  /**
   * The page takes the user back to the integrator (`/p/<identifier>/continue`): the session has
   * a `return_url` and the user is done. Where to, and the result, only the continue step says.
   */
  continues: boolean;
}

export interface ProofStatusInput {
  session: Pick<
    SessionRow,
    "kind" | "status" | "multiConnection" | "maxAttempts" | "failedAttempts" | "completedAt"
  >;
  /** Newest first. */
  connections: Pick<ConnectionRow, "outcome">[];
  keys: Pick<
    ConnectionKeyRow,
    "publicKeySha256" | "publicKeyAlgorithm" | "publicKeyBits" | "certificate"
  >[];
  /** Connections the session's Durable Object holds open; `confirming` once keys await a `y`. */
  inProgress: { confirming: ProvenKeyView[] | null }[];
  /** The forge accounts whose keys a verification session expects (`github.com/alice`). */
  expectedAccounts?: readonly string[];
  /** The session has a `return_url`. */
  returns?: boolean;
}

const labels = (keys: ProofStatusInput["keys"]) => [
  ...new Set(
    keys.map((key) =>
      keyLabel({
        sha256: key.publicKeySha256,
        algorithm: key.publicKeyAlgorithm,
        bits: key.publicKeyBits,
        certified: key.certificate !== null,
      }),
    ),
  ),
];

/** After a connection that did not finish the session: what happened, and what to do. */
const AGAIN: Partial<Record<ConnectionRow["outcome"], string>> = {
  collected: "Key collected. You can prove another key the same way, or close this page.",
  verified: "Key verified. Prove the next key the same way.",
  no_match: "That key is not one this session expects. Try again with the right key.",
  no_key: "No key was proven. Try again: the command below tells you why in your terminal.",
  declined: "You did not confirm, so nothing was kept. Try again.",
  disconnected: "The connection ended before a result. Try again.",
  interrupted: "keyproof restarted before you answered, so nothing was kept. Connect again.",
};

export const CLOSE = "You can close this page.";

/** Whether the user has nothing more to do: the session is over, or a key of theirs counted. */
export function userDone(
  session: Pick<ProofStatusInput["session"], "completedAt" | "multiConnection">,
  keysRecorded: number,
): boolean {
  return session.completedAt !== null || (session.multiConnection && keysRecorded > 0);
}

export function proofStatus(input: ProofStatusInput): ProofStatus {
  const final = input.session.completedAt !== null;
  const continues = input.returns === true && userDone(input.session, input.keys.length);
  const described = describe(input);
  // The continue step says what comes next; "close this page" would be wrong.
  return { ...described, detail: continues ? null : described.detail, final, continues };
}

function describe(input: ProofStatusInput): Omit<ProofStatus, "final" | "continues"> {
  const { session } = input;
  const keys = labels(input.keys);
  switch (session.status) {
    case "completed":
      return keys.length > 0
        ? { state: "done", headline: "Done: your key was received.", detail: CLOSE, keys }
        : { state: "done", headline: "This session is closed.", detail: null, keys };
    case "verified":
      return {
        state: "done",
        headline: "Verified: you hold the key this session expects.",
        detail: CLOSE,
        keys,
      };
    case "failed":
      return {
        state: "failed",
        headline: "This session has failed after too many attempts.",
        detail: "Ask for a new one.",
        keys: [],
      };
    case "expired":
      return {
        state: "failed",
        headline: "This session has expired.",
        detail: "Ask for a new one.",
        keys: [],
      };
  }
  const confirming = input.inProgress.find((connection) => connection.confirming !== null);
  if (confirming?.confirming) {
    // Nothing of the keys awaiting a `y` is shown before the user agreed to share them.
    return {
      state: "confirming",
      headline: "Key proven. Confirm in your terminal: press y.",
      detail: "Nothing is kept until you do.",
      keys,
    };
  }
  if (input.inProgress.length > 0) {
    return {
      state: "connected",
      headline: "Connected. Proving your key…",
      detail: "Your SSH client is signing; follow what your terminal says.",
      keys,
    };
  }
  const [last] = input.connections;
  const again = last ? AGAIN[last.outcome] : undefined;
  if (again) {
    const left = session.maxAttempts - session.failedAttempts;
    const attempts =
      session.kind === "verify" && last?.outcome !== "verified"
        ? `${left} attempt${left === 1 ? "" : "s"} left.`
        : null;
    const accounts =
      last?.outcome === "no_match" ? expectedAccountsLine(input.expectedAccounts ?? []) : [];
    const detail = [...accounts, ...(attempts ? [attempts] : [])].join(" ") || null;
    return { state: "again", headline: again, detail, keys };
  }
  return {
    state: "waiting",
    headline: "Waiting for you to connect.",
    detail: "Run the command below in a terminal; this page follows along.",
    keys,
  };
}
