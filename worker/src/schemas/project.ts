import { z } from "zod";
import { timestamp } from "./common.ts";
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from "./limits.ts";

const retentionDays = z
  .int()
  .min(1)
  .max(MAX_RETENTION_DAYS)
  .describe(
    `Days a closed session is kept, counted from when it stopped accepting connections; then it is erased everywhere, its events and deliveries with it. 1 … ${MAX_RETENTION_DAYS}, default ${DEFAULT_RETENTION_DAYS}. A change applies to sessions already closed.`,
  );

export const project = z
  .object({
    id: z.string().describe("`prj_...`"),
    name: z.string(),
    retention_days: retentionDays,
    created_at: timestamp,
  })
  .meta({ id: "Project", description: "The project the API key belongs to" });

export const projectPatch = z
  .strictObject({ retention_days: retentionDays })
  .partial()
  .meta({ id: "ProjectPatch", description: "Only the fields given change" });

export type ProjectPatch = z.infer<typeof projectPatch>;
