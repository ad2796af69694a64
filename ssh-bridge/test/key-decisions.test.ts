import { describe, expect, it } from "vitest";
import type { ParsedPublicKey } from "../../worker/src/protocol/public-keys.ts";
import {
  answerKeyRequest,
  enoughKeysProven,
  judgeKey,
  type KeyRules,
} from "../src/key-decisions.ts";
import type { OfferedKey } from "../src/terminal.ts";

const key = (algorithm = "ssh-ed25519", bits = 256) =>
  ({ publicKeyAlgorithm: algorithm, publicKeyBits: bits }) as ParsedPublicKey;
const collect: KeyRules = { kind: "collect", expected: [], multiKey: false, maxKeys: 32 };
const verify: KeyRules = {
  kind: "verify",
  expected: ["SHA256:a", "SHA256:b"],
  multiKey: true,
  maxKeys: 32,
};

describe("judgeKey: what a newly offered key is", () => {
  it.each<[string, KeyRules, string, Parameters<typeof judgeKey>[2], OfferedKey["fate"]]>([
    ["any parsed key in a collection", collect, "SHA256:x", { key: key() }, "unproven"],
    ["an expected key in a verification", verify, "SHA256:a", { key: key() }, "unproven"],
    ["another key in a verification", verify, "SHA256:x", { key: key() }, "unexpected"],
    ["a key the parser refused", collect, "SHA256:x", { refusal: "dsa", detail: null }, "refused"],
    ["an SHA-1 signature", verify, "SHA256:a", { refusal: "sha1", detail: null }, "refused"],
  ])("%s", (_, rules, sha256, parsed, fate) => {
    expect(judgeKey(rules, sha256, parsed).fate).toBe(fate);
  });

  it("keeps what the terminal needs: the refusal and its detail, or the key's type and size", () => {
    expect(judgeKey(collect, "SHA256:x", { refusal: "rsa_too_short", detail: "1024" })).toEqual({
      sha256: "SHA256:x",
      fate: "refused",
      refusal: "rsa_too_short",
      detail: "1024",
    });
    expect(judgeKey(collect, "SHA256:x", { key: key("ssh-rsa", 3072) })).toEqual({
      sha256: "SHA256:x",
      fate: "unproven",
      key: { sha256: "SHA256:x", algorithm: "ssh-rsa", bits: 3072 },
    });
  });
});

describe("answerKeyRequest: what a publickey request gets", () => {
  const awaiting = judgeKey(collect, "SHA256:x", { key: key() });
  const fates: Record<string, OfferedKey> = {
    awaiting,
    proven: { ...awaiting, fate: "proven" } as OfferedKey,
    unexpected: { ...awaiting, fate: "unexpected" } as OfferedKey,
    refused: { sha256: "SHA256:x", fate: "refused", refusal: "invalid", detail: null },
  };
  it.each([
    ["awaiting", false, false, 0, "key_ok"],
    ["awaiting", true, false, 0, "check_signature"],
    ["awaiting", true, false, 31, "check_signature"],
    ["awaiting", true, false, 32, "cut_off"],
    ["awaiting", false, true, 0, "reject"],
    ["awaiting", true, true, 0, "reject"],
    ["proven", true, false, 0, "reject"],
    ["unexpected", false, false, 0, "reject"],
    ["unexpected", true, false, 0, "reject"],
    ["refused", true, false, 0, "reject"],
  ] as const)(
    "%s key, signed %s, SHA-1 %s, %i signatures checked: %s",
    (fate, signed, sha1, checked, answer) => {
      const offered = fates[fate] as OfferedKey;
      expect(answerKeyRequest(offered, { signed, sha1 }, { checked, max: 32 })).toBe(answer);
    },
  );
});

describe("enoughKeysProven: let the client in, or ask for more keys", () => {
  it.each([
    ["one key without multi_key", collect, ["SHA256:x"], true],
    ["multi_key collection: keep collecting", { ...collect, multiKey: true }, ["SHA256:x"], false],
    [
      "multi_key collection at the cap",
      { ...collect, multiKey: true, maxKeys: 2 },
      ["SHA256:x", "SHA256:y"],
      true,
    ],
    ["multi_key verification, one of two expected", verify, ["SHA256:a"], false],
    ["multi_key verification, both expected", verify, ["SHA256:a", "SHA256:b"], true],
    [
      "verification without multi_key: the first match",
      { ...verify, multiKey: false },
      ["SHA256:a"],
      true,
    ],
  ] as const)("%s", (_, rules, proven, enough) => {
    expect(enoughKeysProven(rules, new Set(proven))).toBe(enough);
  });
});
