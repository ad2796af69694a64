import { z } from "zod";
import { timestamp } from "./common.ts";
import { displayText } from "./text.ts";

export const publicKeyFields = {
  id: z.string(),
  public_key_ssh: z.string().describe("`<type> <base64>`"),
  public_key_pem: z.string().nullable().describe("SPKI PEM"),
  public_key_md5: z.string().describe("`MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it"),
  public_key_sha256: z.string().describe("`SHA256:...`, as `ssh-keygen -l -E sha256` prints it"),
  public_key_algorithm: z.string().describe("e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`"),
  public_key_bits: z.int(),
  comment: z.string().nullable(),
};

export const collectedKey = z
  .object({ ...publicKeyFields, created_at: timestamp })
  .meta({ id: "CollectedKey" });

export const configuredKey = z
  .object({
    ...publicKeyFields,
    name: z.string().nullable(),
    external_id: z.string().nullable(),
    verified_at: timestamp.nullable(),
  })
  .meta({ id: "ConfiguredKey" });

export const configuredKeyInput = z.strictObject({
  name: displayText(255).optional(),
  external_id: displayText(255).optional(),
  public_key: z
    .string()
    .max(16_384)
    .describe("OpenSSH authorized_keys line, RFC 4716 block, or PEM public key"),
});

export type CollectedKey = z.infer<typeof collectedKey>;
export type ConfiguredKey = z.infer<typeof configuredKey>;
export type ConfiguredKeyInput = z.infer<typeof configuredKeyInput>;
