import { z } from "zod";
import { timestamp } from "./common.ts";

export const attestation = z
  .object({
    token: z
      .string()
      .describe(
        "The JWT (JWS compact): header `alg` EdDSA, `kid` (RFC 7638 thumbprint), `typ` keyproof-attestation+jwt",
      ),
    expires_at: timestamp.describe("Its `exp`: 10 minutes after it was signed"),
  })
  .meta({ id: "Attestation", description: "A session's result, signed by keyproof" });

/** A key in an attestation's `keys` claim. */
export const attestedKey = z
  .object({
    public_key_sha256: z.string(),
    public_key_algorithm: z.string(),
    method: z.enum(["ssh", "signature"]).describe("How the key was proven"),
    proven_at: timestamp,
    security_key: z.record(z.string(), z.unknown()).nullable(),
    certificate: z.record(z.string(), z.unknown()).nullable(),
    source: z
      .string()
      .nullable()
      .describe("The forge account (`github:alice`) of the configured key it matched; else null"),
  })
  .meta({ id: "AttestedKey" });

/** The claims of an attestation (its JWT payload). */
export const attestationClaims = z
  .object({
    iss: z
      .string()
      .describe(
        "This service's public URL; for a test session's, that URL followed by `/test-mode`",
      ),
    aud: z
      .string()
      .describe("Your project id; for a test session's, the project id followed by `:test-mode`"),
    sub: z.string().describe("The session id"),
    iat: z.int(),
    exp: z.int(),
    jti: z.string(),
    livemode: z
      .boolean()
      .describe(
        "`false` for a test session's attestation, signed by the test key (its own `kid`): `verifyAttestation` refuses it unless told to accept test mode",
      ),
    kind: z.enum(["collect", "verify"]),
    status: z.enum(["pending", "completed", "verified", "failed", "expired"]),
    external_id: z.string().nullable(),
    keys: z.array(attestedKey).describe("Every key proven in the session"),
  })
  .meta({ id: "AttestationClaims", description: "What an attestation says" });
