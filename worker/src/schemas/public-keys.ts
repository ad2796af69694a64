import { z } from "zod";
import { timestamp } from "./common.ts";
import { displayText } from "./text.ts";

export const publicKeyFields = {
  id: z.string().describe("`ck_...` for a collected key, `vk_...` for a configured one"),
  public_key_ssh: z.string().describe("`<type> <base64>`, as in authorized_keys"),
  public_key_pem: z.string().nullable().describe("SubjectPublicKeyInfo PEM"),
  public_key_md5: z.string().describe("`MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it"),
  public_key_sha256: z
    .string()
    .describe("`SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it"),
  public_key_algorithm: z.string().describe("e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`"),
  public_key_bits: z.int().describe("Key size in bits (256 for Ed25519)"),
  comment: z.string().nullable().describe("The comment of the key text it was given as, if any"),
};

export const collectedKey = z
  .object({ ...publicKeyFields, created_at: timestamp.describe("When it was proven") })
  .meta({ id: "CollectedKey", description: "A key a connection proved" });

export const configuredKey = z
  .object({
    ...publicKeyFields,
    name: z.string().nullable().describe("Your name for the key"),
    external_id: z.string().nullable().describe("Your reference for the key"),
    verified_at: timestamp.nullable().describe("When a connection first proved it"),
  })
  .meta({ id: "ConfiguredKey", description: "A key a verification session expects" });

export const configuredKeyInput = z.strictObject({
  name: displayText(255).optional().describe("Your name for the key (no control characters)"),
  external_id: displayText(255)
    .optional()
    .describe("Your reference for the key (no control characters)"),
  public_key: z
    .string()
    .max(16_384)
    .describe(
      "An OpenSSH authorized_keys line, an RFC 4716 block, or a PEM public key (SPKI, or PKCS#1 for RSA). Ed25519, ECDSA P-256/384/521, RSA of 2048 bits or more",
    ),
});

export type CollectedKey = z.infer<typeof collectedKey>;
export type ConfiguredKey = z.infer<typeof configuredKey>;
export type ConfiguredKeyInput = z.infer<typeof configuredKeyInput>;
