import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PublicKeyError } from "../src/protocol/key-material.ts";
import { parsePublicKey, parsePublicKeyBlob } from "../src/protocol/public-keys.ts";

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

const { securityKeys, certificates } = env.TEST_KEYS;
const certificate = (label: string) => {
  const found = certificates.find((fixture) => fixture.label === label);
  if (!found) throw new Error(`no fixture ${label}`);
  return found;
};
const blobOfLine = (line: string) =>
  new Uint8Array(Buffer.from(line.split(" ")[1] ?? "", "base64"));

describe("security keys against ssh-keygen", () => {
  it.each(securityKeys)(
    "$label: fingerprints as ssh-keygen -l, no PEM, the application",
    (fixture) => {
      const key = parsePublicKey(fixture.openssh);
      expect(key).toMatchObject({
        publicKeySha256: fixture.sha256,
        publicKeyMd5: fixture.md5,
        publicKeyAlgorithm: fixture.algorithm,
        publicKeyBits: 256,
        publicKeyPem: null,
        publicKeySsh: fixture.openssh.split(" ").slice(0, 2).join(" "),
        securityKey: {
          application: "ssh:",
          user_present: null,
          user_verified: null,
          counter: null,
          counter_regressed: null,
        },
        certificate: null,
      });
      expect(parsePublicKey(fixture.rfc4716).publicKeySha256).toBe(fixture.sha256);
    },
  );

  it("refuses a security key made for an application ssh-keygen would not make", () => {
    const [fixture] = securityKeys;
    const blob = Buffer.from(blobOfLine(fixture?.openssh ?? ""));
    // The application is the blob's last string: `ssh:` becomes `web:`.
    const bad = Buffer.concat([
      blob.subarray(0, blob.length - 8),
      Buffer.from([0, 0, 0, 4]),
      Buffer.from("web:"),
    ]);
    expect(() => parsePublicKey(`${fixture?.algorithm} ${bad.toString("base64")}`)).toThrow(
      /must begin with `ssh:`/,
    );
  });
});

describe("OpenSSH certificates", () => {
  it.each(certificates)(
    "$label: the certified key, as ssh-keygen -l fingerprints it",
    (fixture) => {
      const key = parsePublicKeyBlob(blobOfLine(fixture.openssh));
      expect(key.publicKeySha256).toBe(fixture.sha256);
      expect(key.publicKeyAlgorithm).not.toContain("cert");
      expect(key.certificate?.ca_public_key_sha256).toBe(fixture.caSha256);
      expect(key.certificate?.ca_public_key_ssh).toBe(
        fixture.caOpenssh.split(" ").slice(0, 2).join(" "),
      );
      expect(key.certificate?.valid).toBe(fixture.valid);
    },
  );

  it("reads every field ssh-keygen -s wrote, the largest serial included", () => {
    const key = parsePublicKeyBlob(blobOfLine(certificate("ed25519 by an ed25519 CA").openssh));
    expect(key.certificate).toEqual({
      key_id: "alice",
      serial: "18446744073709551615",
      principals: ["alice", "deploy"],
      valid_after: "2025-01-01T00:00:00.000Z",
      valid_before: "2099-12-31T23:59:59.000Z",
      critical_options: { "force-command": "ls -l" },
      extensions: [
        "permit-X11-forwarding",
        "permit-agent-forwarding",
        "permit-port-forwarding",
        "permit-user-rc",
      ],
      ca_public_key_ssh: expect.stringMatching(/^ssh-ed25519 /),
      ca_public_key_sha256: expect.stringMatching(/^SHA256:/),
      valid: true,
      invalid_reason: null,
    });
    const forever = parsePublicKeyBlob(
      blobOfLine(certificate("rsa by an ecdsa-521 CA, forever").openssh),
    );
    expect(forever.certificate).toMatchObject({
      valid_after: null,
      valid_before: null,
      principals: [],
    });
  });

  it("is not valid once a byte of the CA's signature changes", () => {
    const blob = blobOfLine(certificate("ecdsa-384 by an rsa CA").openssh);
    blob[blob.length - 1] = (blob[blob.length - 1] ?? 0) ^ 0x01;
    expect(parsePublicKeyBlob(blob).certificate?.valid).toBe(false);
  });

  it("is judged as of the time given", () => {
    const blob = blobOfLine(certificate("ed25519 by an ed25519 CA").openssh);
    expect(
      parsePublicKeyBlob(blob, { now: new Date("2024-12-31T23:59:59Z") }).certificate?.valid,
    ).toBe(false);
    expect(
      parsePublicKeyBlob(blob, { now: new Date("2025-01-01T00:00:00Z") }).certificate?.valid,
    ).toBe(true);
    expect(
      parsePublicKeyBlob(blob, { now: new Date("2100-01-01T00:00:00Z") }).certificate?.valid,
    ).toBe(false);
  });

  it("is refused where a key is given in advance, with what to do instead", () => {
    expect(() => parsePublicKey(certificate("ed25519 by an ed25519 CA").openssh)).toThrow(
      /OpenSSH certificate: give the key it certifies, or trust its CA with certificate_authorities/,
    );
  });

  it("refuses a certificate with bytes after its signature", () => {
    const blob = Buffer.concat([
      blobOfLine(certificate("an expired certificate").openssh),
      Buffer.of(0),
    ]);
    expect(() => parsePublicKeyBlob(blob)).toThrow(/trailing bytes/);
  });
});
