import { describe, expect, it } from "vitest";
import type { OfferedKey } from "../../worker/src/protocol/key-outcomes.ts";
import type { FinishConnectionResponse } from "../../worker/src/protocol/messages.ts";
import { refusedKeyLines, resultLines } from "../../worker/src/protocol/terminal.ts";

const view = (sha256: string, certified = false) => ({
  sha256,
  algorithm: "ssh-ed25519",
  bits: 256,
  certified,
});
const result = (outcome: FinishConnectionResponse["outcome"], keys: string[] = []) => ({
  outcome,
  session_status: outcome === "verified" ? ("verified" as const) : ("pending" as const),
  keys: keys.map((sha256) => ({ ...view(sha256), new: true })),
  failed_attempts: outcome === "no_match" ? 1 : 0,
  max_attempts: 3,
  remaining_keys: 0,
  expected_accounts: [] as string[],
});

describe("the terminal tells what became of every offered key", () => {
  it("lists a key offered but never signed for beside the ones collected", () => {
    const offered: OfferedKey[] = [
      { sha256: "SHA256:a", fate: "unproven", key: view("SHA256:a") },
      { sha256: "SHA256:b", fate: "proven", key: view("SHA256:b") },
    ];
    expect(resultLines("collect", result("collected", ["SHA256:b"]), offered)).toEqual([
      "Collected 1 key:",
      "  SHA256:b (ED25519 256)",
      "Offered but never signed for:",
      "  SHA256:a (ED25519 256)",
    ]);
  });

  it("speaks of a key offered bare and in its certificate once, by its certificate", () => {
    const offered: OfferedKey[] = [
      {
        sha256: "SHA256:c",
        fate: "unexpected",
        key: view("SHA256:c"),
        mismatch: "not_expected",
        detail: null,
      },
      {
        sha256: "SHA256:c",
        fate: "unexpected",
        key: view("SHA256:c", true),
        mismatch: "principal_missing",
        detail: "deploy",
      },
    ];
    expect(resultLines("verify", result("no_match"), offered)).toEqual([
      "The key you offered is not one this session expects:",
      '  SHA256:c (ED25519-CERT 256): its certificate does not list the principal "deploy"',
      "Offer the right one with: ssh -i /path/to/private_key -o IdentitiesOnly=yes <the same command>",
      "2 attempts left.",
    ]);
  });

  it("does not list as unexpected a key proven through its certificate", () => {
    const offered: OfferedKey[] = [
      {
        sha256: "SHA256:c",
        fate: "unexpected",
        key: view("SHA256:c"),
        mismatch: "not_expected",
        detail: null,
      },
      { sha256: "SHA256:c", fate: "proven", key: view("SHA256:c", true) },
    ];
    const lines = resultLines("verify", result("verified", ["SHA256:c"]), offered);
    expect(lines.join("\n")).not.toContain("Not expected");
  });

  it("refuses a key refused bare and in its certificate in one line", () => {
    const refused: OfferedKey = {
      sha256: "SHA256:d",
      fate: "refused",
      refusal: "security_key_required",
      detail: null,
    };
    expect(refusedKeyLines([refused, { ...refused }])).toHaveLength(1);
  });

  it("gives the expired date of a certificate in UTC", () => {
    const offered: OfferedKey[] = [
      {
        sha256: "SHA256:e",
        fate: "unexpected",
        key: view("SHA256:e", true),
        mismatch: "certificate_expired",
        detail: "2026-11-20T08:30:00.000Z",
      },
    ];
    expect(resultLines("verify", result("no_match"), offered)[1]).toBe(
      "  SHA256:e (ED25519-CERT 256): its certificate expired at 2026-11-20 08:30:00 UTC",
    );
  });
});
