import { z } from "zod";
import { SIMULATED_KEY_TYPES } from "../domain/simulated-keys.ts";
import { publicKeyText } from "./public-keys.ts";

/** `POST /api/v1/test_helpers/ssh/{kind}/sessions/{id}/simulate/`. */
export const simulateRequest = z
  .discriminatedUnion("action", [
    z
      .strictObject({
        action: z.literal("prove"),
        key_type: z
          .enum(SIMULATED_KEY_TYPES)
          .optional()
          .describe(
            "Prove a new key of this type, made up for the occasion (its private half is never kept). Default: `ssh-ed25519` for a collection session, the configured keys for a verification session",
          ),
        public_key: publicKeyText
          .optional()
          .describe(
            "Prove this key instead: a verification session's configured key verifies, any other is a failed attempt",
          ),
      })
      .refine((body) => body.key_type === undefined || body.public_key === undefined, {
        message: "Give key_type or public_key, not both",
        path: ["public_key"],
      }),
    z.strictObject({
      action: z
        .literal("fail_attempt")
        .describe("A connection that proves no key the session counts"),
    }),
    z.strictObject({
      action: z
        .literal("decline")
        .describe("A user answering `n` at the `must_confirm` prompt (such sessions only)"),
    }),
    z.strictObject({
      action: z.literal("expire").describe("The session's expiry, now, as its alarm runs it"),
    }),
  ])
  .meta({
    id: "SimulateRequest",
    description:
      "What to make happen to a test session, through the same transitions as the real thing",
    example: { action: "prove", key_type: "ssh-ed25519" },
  });

export type SimulateRequest = z.infer<typeof simulateRequest>;
