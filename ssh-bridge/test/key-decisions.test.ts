import { describe, expect, it } from "vitest";
import type { CertificateRecord } from "../../worker/src/protocol/certificates.ts";
import type { OfferedKey } from "../../worker/src/protocol/key-outcomes.ts";
import { judgeKey, judgeProof } from "../../worker/src/protocol/proof-rules.ts";
import type { ParsedPublicKey } from "../../worker/src/protocol/public-keys.ts";
import { answerKeyRequest, enoughKeysProven, type KeyRules } from "../src/key-decisions.ts";

const key = (sha256 = "SHA256:x", more: Partial<ParsedPublicKey> = {}) =>
  ({
    publicKeySha256: sha256,
    publicKeyAlgorithm: "ssh-ed25519",
    publicKeyBits: 256,
    securityKey: null,
    certificate: null,
    ...more,
  }) as ParsedPublicKey;

const securityKey = (sha256 = "SHA256:sk") =>
  key(sha256, {
    publicKeyAlgorithm: "sk-ssh-ed25519@openssh.com",
    securityKey: {
      application: "ssh:",
      user_present: null,
      user_verified: null,
      counter: null,
      counter_regressed: null,
    },
  });

const certificate = (more: Partial<CertificateRecord> = {}): CertificateRecord => ({
  key_id: "alice",
  serial: "7",
  principals: ["alice", "deploy"],
  valid_after: "2026-11-01T00:00:00.000Z",
  valid_before: "2026-12-01T00:00:00.000Z",
  critical_options: {},
  extensions: ["permit-pty"],
  ca_public_key_ssh: "ssh-ed25519 AAAA",
  ca_public_key_sha256: "SHA256:ca",
  valid: true,
  invalid_reason: null,
  ...more,
});
const certified = (more: Partial<CertificateRecord> = {}, sha256 = "SHA256:c") =>
  key(sha256, { certificate: certificate(more) });

const base = {
  authorities: [],
  principal: null,
  requireSecurityKey: false,
  requireUserVerification: false,
  maxKeys: 32,
};
const collect: KeyRules = { ...base, kind: "collect", expected: [], multiKey: false };
const verify: KeyRules = {
  ...base,
  kind: "verify",
  expected: ["SHA256:a", "SHA256:b"],
  multiKey: true,
};
const trustingCa: KeyRules = {
  ...verify,
  expected: [],
  authorities: ["SHA256:ca"],
  principal: "deploy",
};

describe("judgeKey: what a newly offered key is", () => {
  it.each<[string, KeyRules, Parameters<typeof judgeKey>[2], OfferedKey["fate"], string?]>([
    ["any parsed key in a collection", collect, { key: key() }, "unproven"],
    ["an expected key in a verification", verify, { key: key("SHA256:a") }, "unproven"],
    ["another key in a verification", verify, { key: key() }, "unexpected", "not_expected"],
    ["a key the parser refused", collect, { refusal: "dsa", detail: null }, "refused", "dsa"],
    ["an SHA-1 signature", verify, { refusal: "sha1", detail: null }, "refused", "sha1"],
    [
      "a plain key where only security keys count",
      { ...collect, requireSecurityKey: true },
      { key: key() },
      "refused",
      "security_key_required",
    ],
    [
      "a security key where only security keys count",
      { ...collect, requireSecurityKey: true },
      { key: securityKey() },
      "unproven",
    ],
    [
      "a certificate in a collection, valid or not",
      collect,
      { key: certified({ valid: false, invalid_reason: "ca_signature" }) },
      "unproven",
    ],
    ["a valid certificate from a trusted CA", trustingCa, { key: certified() }, "unproven"],
    [
      "a certificate of an expected key, whatever its CA",
      verify,
      { key: certified({ ca_public_key_sha256: "SHA256:other" }, "SHA256:a") },
      "unproven",
    ],
    [
      "a certificate from another CA",
      trustingCa,
      { key: certified({ ca_public_key_sha256: "SHA256:other" }) },
      "unexpected",
      "untrusted_ca",
    ],
    [
      "an expired certificate",
      trustingCa,
      {
        key: certified({
          valid_before: "2026-11-20T00:00:00.000Z",
          valid: false,
          invalid_reason: "expired",
        }),
      },
      "unexpected",
      "certificate_expired",
    ],
    [
      "a certificate not valid yet",
      trustingCa,
      {
        key: certified({
          valid_after: "2026-11-22T00:00:00.000Z",
          valid: false,
          invalid_reason: "not_yet_valid",
        }),
      },
      "unexpected",
      "certificate_not_yet_valid",
    ],
    [
      "a certificate whose CA signature fails, or a host certificate",
      trustingCa,
      { key: certified({ valid: false, invalid_reason: "host_certificate" }) },
      "unexpected",
      "certificate_invalid",
    ],
    [
      "a certificate with a critical option sshd does not know",
      trustingCa,
      {
        key: certified({
          valid: false,
          invalid_reason: "unknown_critical_option",
          critical_options: { "permit-all@example.com": "" },
        }),
      },
      "unexpected",
      "certificate_unknown_option",
    ],
    [
      "a certificate used from outside its source-address",
      trustingCa,
      {
        key: certified({
          valid: false,
          invalid_reason: "source_address",
          critical_options: { "source-address": "10.0.0.0/8" },
        }),
      },
      "unexpected",
      "certificate_source_address",
    ],
    [
      "a certificate without the principal",
      trustingCa,
      { key: certified({ principals: ["alice"] }) },
      "unexpected",
      "principal_missing",
    ],
    [
      "a certificate listing no principals, where one is required",
      trustingCa,
      { key: certified({ principals: [] }) },
      "unexpected",
      "principal_missing",
    ],
    [
      "a certificate listing no principals, where none is asked for",
      { ...trustingCa, principal: null },
      { key: certified({ principals: [] }) },
      "unproven",
    ],
  ])("%s", (_, rules, parsed, fate, why) => {
    const offered = judgeKey(rules, "SHA256:blob", parsed);
    expect(offered.fate).toBe(fate);
    if (offered.fate === "refused") expect(offered.refusal).toBe(why);
    if (offered.fate === "unexpected") expect(offered.mismatch).toBe(why);
  });

  it("keeps what the terminal needs: the refusal and its detail, the key's type, or the date", () => {
    expect(judgeKey(collect, "SHA256:x", { refusal: "rsa_too_short", detail: "1024" })).toEqual({
      sha256: "SHA256:x",
      fate: "refused",
      refusal: "rsa_too_short",
      detail: "1024",
    });
    const rsa = key("SHA256:r", { publicKeyAlgorithm: "ssh-rsa", publicKeyBits: 3072 });
    expect(judgeKey(collect, "SHA256:blob", { key: rsa })).toEqual({
      sha256: "SHA256:r",
      fate: "unproven",
      key: { sha256: "SHA256:r", algorithm: "ssh-rsa", bits: 3072, certified: false },
    });
    const expired = certified({
      valid_before: "2026-11-20T00:00:00.000Z",
      valid: false,
      invalid_reason: "expired",
    });
    expect(judgeKey(trustingCa, "SHA256:blob", { key: expired })).toMatchObject({
      sha256: "SHA256:c",
      key: { certified: true },
      mismatch: "certificate_expired",
      detail: "2026-11-20T00:00:00.000Z",
    });
  });
});

describe("judgeProof: a verified signature, and how the security key made it", () => {
  const awaiting = {
    sha256: "SHA256:sk",
    key: { sha256: "SHA256:sk", algorithm: "sk", bits: 256, certified: false },
  };
  it.each([
    ["a plain key", collect, key(), null, "proven"],
    ["a touch", collect, securityKey(), { flags: 0x01, counter: 5 }, "proven"],
    ["no touch", collect, securityKey(), { flags: 0x00, counter: 5 }, "not_touched"],
    ["a PIN without a touch", collect, securityKey(), { flags: 0x04, counter: 5 }, "not_touched"],
    [
      "a touch where a PIN is required",
      { ...collect, requireUserVerification: true },
      securityKey(),
      { flags: 0x01, counter: 5 },
      "user_verification_required",
    ],
    [
      "a touch and a PIN where a PIN is required",
      { ...collect, requireUserVerification: true },
      securityKey(),
      { flags: 0x05, counter: 5 },
      "proven",
    ],
    [
      "a plain key where a PIN is required (only security keys have one)",
      { ...collect, requireUserVerification: true },
      key(),
      null,
      "proven",
    ],
    [
      "a plain key's certificate that says verify-required",
      collect,
      certified({ critical_options: { "verify-required": "" } }),
      null,
      "certificate_verify_required",
    ],
    [
      "a security key's certificate that says verify-required, signed with a touch alone",
      collect,
      {
        ...securityKey(),
        certificate: certificate({ critical_options: { "verify-required": "" } }),
      },
      { flags: 0x01, counter: 5 },
      "certificate_verify_required",
    ],
    [
      "a security key's certificate that says verify-required, signed with a PIN",
      collect,
      {
        ...securityKey(),
        certificate: certificate({ critical_options: { "verify-required": "" } }),
      },
      { flags: 0x05, counter: 5 },
      "proven",
    ],
  ] as const)("%s", (_, rules, parsed, authenticator, outcome) => {
    const judged = judgeProof(rules, awaiting, parsed, authenticator);
    expect(judged.fate === "refused" ? judged.refusal : judged.fate).toBe(outcome);
  });
});

describe("answerKeyRequest: what a publickey request gets", () => {
  const awaiting = judgeKey(collect, "SHA256:x", { key: key() });
  const fates: Record<string, OfferedKey> = {
    awaiting,
    proven: { ...awaiting, fate: "proven" } as OfferedKey,
    unexpected: {
      ...awaiting,
      fate: "unexpected",
      mismatch: "not_expected",
      detail: null,
    } as OfferedKey,
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
    "%s key, signed %s, algorithm refused %s, %i signatures checked: %s",
    (fate, signed, algorithmRefused, checked, answer) => {
      const offered = fates[fate] as OfferedKey;
      expect(answerKeyRequest(offered, { signed, algorithmRefused }, { checked, max: 32 })).toBe(
        answer,
      );
    },
  );
});

describe("enoughKeysProven: let the client in, or ask for more keys", () => {
  it.each([
    ["one key without multi_key", collect, [key()], true],
    ["multi_key collection: keep collecting", { ...collect, multiKey: true }, [key()], false],
    [
      "multi_key collection at the cap",
      { ...collect, multiKey: true, maxKeys: 2 },
      [key("SHA256:x"), key("SHA256:y")],
      true,
    ],
    ["multi_key verification, one of two expected", verify, [key("SHA256:a")], false],
    ["multi_key verification, both expected", verify, [key("SHA256:a"), key("SHA256:b")], true],
    [
      "verification without multi_key: the first match",
      { ...verify, multiKey: false },
      [key("SHA256:a")],
      true,
    ],
    [
      "multi_key verification with a CA: the keys, but no certificate yet",
      { ...verify, authorities: ["SHA256:ca"] },
      [key("SHA256:a"), key("SHA256:b")],
      false,
    ],
    [
      "multi_key verification with a CA: the keys and a trusted certificate",
      { ...verify, authorities: ["SHA256:ca"] },
      [key("SHA256:a"), key("SHA256:b"), certified()],
      true,
    ],
  ] as const)("%s", (_, rules, proven, enough) => {
    expect(enoughKeysProven(rules, proven)).toBe(enough);
  });
});
