import { z } from "zod";
import { AUDIT_ACTIONS } from "../db/directory.ts";
import { timestamp } from "./common.ts";

export const auditEntry = z
  .object({
    id: z.string().describe("`aud_...`; sorts by time"),
    action: z
      .enum(AUDIT_ACTIONS)
      .describe(
        "What changed: an API key created or revoked, a webhook created, updated or deleted, a member invited or removed, the project renamed, its retention changed, its test data deleted or a second factor required of its members, a session redacted or deleted",
      ),
    actor: z
      .object({
        type: z.enum(["account", "api_key"]).describe("A member in the web app, or an API key"),
        id: z.string().describe("The account's id (`acc_...`) or the API key's (`key_...`)"),
        label: z.string().describe("The account's email, or the API key's prefix"),
      })
      .describe("Who made the change"),
    target_id: z
      .string()
      .nullable()
      .describe("What it changed: a key's, webhook's, invitation's, member's or session's id"),
    details: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .describe(
        "A few settings of the change (a retention, a key's prefix and mode); never a session's data",
      ),
    ip_address: z.string().describe("The client's address"),
    user_agent: z.string().describe("The client's user agent (up to 256 characters)"),
    created_at: timestamp,
  })
  .meta({
    id: "AuditEntry",
    description: "One change to the project, with who made it and from where",
  });
