import { defineConfig } from "drizzle-kit";

// A session's Durable Object keeps its own tables (worker/src/session-object/tables.ts);
// `npm run db:generate` writes their next migration beside D1's, in migrations/session-object/.
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: ["./worker/src/session-object/tables.ts"],
  out: "./migrations/session-object",
});
