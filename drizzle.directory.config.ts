import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes the directory's next numbered SQL file into migrations/directory/.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./worker/src/db/directory.ts"],
  out: "./migrations/directory",
});
