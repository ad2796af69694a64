import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes the next numbered SQL file into migrations/ from worker/src/db/.
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./worker/src/db/accounts.ts",
    "./worker/src/db/sessions.ts",
    "./worker/src/db/webhooks.ts",
  ],
  out: "./migrations",
});
