import { z } from "zod";
import { timestamp } from "./common.ts";

export const authInfo = z
  .object({
    id: z.string().describe("The API key's id"),
    name: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    created_at: timestamp,
    expired_at: timestamp.nullable(),
  })
  .meta({ id: "AuthInfo" });

export type AuthInfo = z.infer<typeof authInfo>;
