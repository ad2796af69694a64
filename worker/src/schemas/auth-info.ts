import { z } from "zod";
import { timestamp } from "./common.ts";

export const authInfo = z
  .object({
    id: z.string().describe("The API key's id, `key_...`"),
    name: z.string().describe("The API key's name"),
    project_id: z.string().describe("The project the key belongs to, `prj_...`"),
    project_name: z.string(),
    livemode: z
      .boolean()
      .describe(
        "`true` for a `kp_live_` key; `false` for a `kp_test_` key, which sees only test data",
      ),
    created_at: timestamp,
    expired_at: timestamp.nullable().describe("When the key stops working; null if never"),
  })
  .meta({ id: "AuthInfo", description: "The calling API key and its project" });

export type AuthInfo = z.infer<typeof authInfo>;
