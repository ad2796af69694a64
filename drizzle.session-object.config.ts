import { defineConfig } from "drizzle-kit";

// The tables a session's Durable Object kept until 2026-11-26 (worker/src/session-object/tables.ts),
// and the migrations that built them, in migrations/session-object/: frozen, read only to move an
// older object's session to key-value entries (legacy-tables.ts). Nothing generates from this now.
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: ["./worker/src/session-object/tables.ts"],
  out: "./migrations/session-object",
});
