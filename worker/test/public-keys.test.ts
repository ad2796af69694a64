import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PublicKeyError } from "../src/protocol/key-material.ts";
import { parsePublicKey } from "../src/protocol/public-keys.ts";

const { accepted, refused } = env.TEST_KEYS;

describe("parsePublicKey against ssh-keygen", () => {
  it.each(accepted)(
    "$label: fingerprints, bits and algorithm match ssh-keygen -l",
    async (fixture) => {
      const key = parsePublicKey(fixture.openssh);
      expect(key.publicKeySha256).toBe(fixture.sha256);
      expect(key.publicKeyMd5).toBe(fixture.md5);
      expect(key.publicKeyBits).toBe(fixture.bits);
      expect(key.publicKeyAlgorithm).toBe(fixture.algorithm);
      expect(key.comment).toBe(fixture.comment);
      expect(key.publicKeySsh).toBe(fixture.openssh.split(" ").slice(0, 2).join(" "));
      expect(key.publicKeyPem).toMatch(
        /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/,
      );
    },
  );

  it.each(accepted)("$label: RFC 4716 and PEM forms give the same key", async (fixture) => {
    const fromLine = parsePublicKey(fixture.openssh);
    const fromRfc4716 = parsePublicKey(fixture.rfc4716);
    expect(fromRfc4716.publicKeySsh).toBe(fromLine.publicKeySsh);
    expect(fromRfc4716.publicKeySha256).toBe(fixture.sha256);
    expect(fromRfc4716.comment).toMatch(/converted by|@keyproof-test/);
    for (const pem of fixture.pem) {
      const fromPem = parsePublicKey(pem);
      expect(fromPem.publicKeySsh).toBe(fromLine.publicKeySsh);
      expect(fromPem.publicKeySha256).toBe(fixture.sha256);
      expect(fromPem.publicKeyPem).toBe(fromLine.publicKeyPem);
    }
  });

  it("refuses DSA and short RSA keys with a reason", () => {
    expect(() => parsePublicKey(refused.dsa ?? "")).toThrow(/DSA keys are not supported/);
    expect(() => parsePublicKey(refused["rsa-1024"] ?? "")).toThrow(/1024 bits are too short/);
  });

  it.each([
    ["empty", ""],
    ["one word", "ssh-ed25519"],
    ["bad base64", "ssh-ed25519 AAAA$$$$"],
    ["type mismatch", (accepted[0]?.openssh ?? "").replace("ssh-ed25519", "ssh-rsa")],
    ["truncated blob", (accepted[0]?.openssh ?? "").slice(0, 40)],
    ["unknown type", "ssh-foo AAAAB3NzaC1mb28="],
    ["garbage PEM", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"],
    ["unterminated RFC 4716", "---- BEGIN SSH2 PUBLIC KEY ----\nAAAA"],
  ])("refuses %s input with a PublicKeyError", (_, input) => {
    expect(() => parsePublicKey(input)).toThrow(PublicKeyError);
  });

  it("refuses an ECDSA point that is not on its curve", () => {
    const ecdsa = accepted.find((fixture) => fixture.label === "ecdsa-256");
    const blob = Buffer.from(ecdsa?.openssh.split(" ")[1] ?? "", "base64");
    blob[blob.length - 1] = (blob[blob.length - 1] ?? 0) ^ 0xff;
    expect(() => parsePublicKey(`ecdsa-sha2-nistp256 ${blob.toString("base64")}`)).toThrow(
      /not a valid public key/,
    );
  });
});
