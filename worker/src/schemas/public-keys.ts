import { z } from "zod";
import { CERTIFICATE_PROBLEMS, type CertificateRecord } from "../protocol/certificates.ts";
import {
  isPrivateKeyText,
  PRIVATE_KEY_MESSAGE,
  type SecurityKeyRecord,
} from "../protocol/public-keys.ts";
import { timestamp } from "./common.ts";
import { displayText } from "./text.ts";

const securityKey = z
  .object({
    application: z
      .string()
      .describe("The FIDO application the key was made for: `ssh:` unless chosen otherwise"),
    user_present: z
      .boolean()
      .nullable()
      .describe("The key was touched for the proof (always true on a recorded proof)"),
    user_verified: z
      .boolean()
      .nullable()
      .describe("The key checked a PIN or biometric for the proof"),
    counter: z
      .int()
      .nullable()
      .describe("The key's signature counter at the proof; 0 when it keeps none"),
    counter_regressed: z
      .boolean()
      .nullable()
      .describe(
        "The counter was not above the last one recorded for this key in this project: the key may have been cloned",
      ),
  })
  .meta({
    description: "How a FIDO security key held the key, as its authenticator reported",
  }) satisfies z.ZodType<SecurityKeyRecord>;

const certificate = z
  .object({
    key_id: z
      .string()
      .describe(
        "The certificate's key id (`ssh-keygen -I`). Here and in every text field of a certificate, control, invisible-format and bidirectional characters are escaped as OpenSSH's logs write them (`\\342\\200\\256`), and a backslash is doubled",
      ),
    serial: z.string().describe("The serial number as a decimal string (serials run to 2^64 - 1)"),
    principals: z.array(z.string()).describe("The principals it is valid for (`ssh-keygen -n`)"),
    valid_after: timestamp.nullable().describe("Valid from; null when always"),
    valid_before: timestamp.nullable().describe("Valid until; null when forever"),
    critical_options: z
      .record(z.string(), z.string())
      .describe("e.g. `force-command`, `source-address`, with their values"),
    extensions: z.array(z.string()).describe("e.g. `permit-pty`"),
    ca_public_key_ssh: z.string().describe("The CA's public key, `<type> <base64>`"),
    ca_public_key_sha256: z.string().describe("The CA key's `SHA256:...` fingerprint"),
    valid: z
      .boolean()
      .describe(
        "As sshd would judge it when the key was proven: the CA's signature verifies, it is a user certificate, it carries no critical option sshd does not know, it was within its validity, and the client's address is one its `source-address` allows",
      ),
    invalid_reason: z
      .enum(CERTIFICATE_PROBLEMS)
      .nullable()
      .describe(
        "Why it is not valid: `ca_signature`, `host_certificate`, `unknown_critical_option`, `not_yet_valid`, `expired` or `source_address`; null when valid",
      ),
  })
  .meta({
    description: "What an OpenSSH user certificate says, and whether it is valid",
  }) satisfies z.ZodType<CertificateRecord>;

export const publicKeyFields = {
  id: z.string().describe("`ck_...` for a collected key, `vk_...` for a configured one"),
  public_key_ssh: z.string().describe("`<type> <base64>`, as in authorized_keys"),
  public_key_pem: z
    .string()
    .nullable()
    .describe("SubjectPublicKeyInfo PEM; null for security keys, which PEM cannot express"),
  public_key_md5: z.string().describe("`MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it"),
  public_key_sha256: z
    .string()
    .describe("`SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it"),
  public_key_algorithm: z
    .string()
    .describe(
      "e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type",
    ),
  public_key_bits: z.int().describe("Key size in bits (256 for Ed25519)"),
  comment: z.string().nullable().describe("The comment of the key text it was given as, if any"),
  security_key: securityKey
    .nullable()
    .describe(
      "Set for a FIDO security key (`sk-...`), null for other keys. On a configured key not yet proven, only `application` is set",
    ),
  certificate: certificate
    .nullable()
    .describe(
      "The OpenSSH certificate the key was offered in; null for a bare key. The key fields describe the certified key",
    ),
};

export const collectedKey = z
  .object({ ...publicKeyFields, created_at: timestamp.describe("When it was proven") })
  .meta({ id: "CollectedKey", description: "A key a connection proved" });

export const configuredKey = z
  .object({
    ...publicKeyFields,
    name: z.string().nullable().describe("Your name for the key"),
    external_id: z.string().nullable().describe("Your reference for the key"),
    source: z
      .string()
      .nullable()
      .describe(
        "The forge account that lists it (`github:alice`), for a key from `keys_from`; null for a key given in `keys`",
      ),
    verified_at: timestamp.nullable().describe("When a connection first proved it"),
  })
  .meta({ id: "ConfiguredKey", description: "A key a verification session expects" });

export const publicKeyText = z
  .string()
  .max(16_384)
  .refine((text) => !isPrivateKeyText(text), { message: PRIVATE_KEY_MESSAGE, abort: true })
  .describe(
    "An OpenSSH authorized_keys line, an RFC 4716 block, or a PEM public key (SPKI, or PKCS#1 for RSA). Ed25519, ECDSA P-256/384/521, RSA of 2048 bits or more, and FIDO security keys (`sk-ssh-ed25519@openssh.com`, `sk-ecdsa-sha2-nistp256@openssh.com`; not PEM)",
  );

export const configuredKeyInput = z.strictObject({
  name: displayText(255).optional().describe("Your name for the key (no control characters)"),
  external_id: displayText(255)
    .optional()
    .describe("Your reference for the key (no control characters)"),
  public_key: publicKeyText,
});

export const certificateAuthorityInput = z.strictObject({
  name: displayText(255).optional().describe("Your name for the CA (no control characters)"),
  public_key: publicKeyText.describe(
    "The CA's public key (as in sshd's TrustedUserCAKeys), in any format `public_key` accepts",
  ),
});

export const certificateAuthority = z
  .object({
    id: z.string().describe("`ca_...`"),
    name: z.string().nullable().describe("Your name for the CA"),
    public_key_ssh: publicKeyFields.public_key_ssh,
    public_key_sha256: publicKeyFields.public_key_sha256,
    public_key_algorithm: publicKeyFields.public_key_algorithm,
  })
  .meta({ id: "CertificateAuthority", description: "A CA whose user certificates prove a key" });

export type CollectedKey = z.infer<typeof collectedKey>;
export type ConfiguredKey = z.infer<typeof configuredKey>;
export type ConfiguredKeyInput = z.infer<typeof configuredKeyInput>;
export type CertificateAuthorityInput = z.infer<typeof certificateAuthorityInput>;
export type CertificateAuthority = z.infer<typeof certificateAuthority>;
