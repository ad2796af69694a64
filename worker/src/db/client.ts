import { drizzle } from "drizzle-orm/d1";
import * as accounts from "./accounts.ts";
import * as sessions from "./sessions.ts";

export const schema = { ...accounts, ...sessions };

export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof database>;
