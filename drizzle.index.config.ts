import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes an index shard's next numbered SQL file into migrations/index/:
// every shard applies the same migrations.
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./worker/src/db/project-settings.ts",
    "./worker/src/db/sessions.ts",
    "./worker/src/db/webhooks.ts",
  ],
  out: "./migrations/index",
});
