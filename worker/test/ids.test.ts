import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { encodedTimeSql, encodeTime, newConnectionIdentifier, newId } from "../src/lib/ids.ts";
import { directory } from "./helpers.ts";

describe("ids", () => {
  it("sort in creation order, even within one millisecond", () => {
    const now = Date.now();
    const ids = Array.from({ length: 1000 }, () => newId("cs", now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sort by time across milliseconds", () => {
    const later = Date.now() + 10_000;
    const first = newId("cs", later);
    const second = newId("cs", later + 1);
    expect(second > first).toBe(true);
    expect(second.slice(0, 13)).not.toBe(first.slice(0, 13));
  });

  it("give connection identifiers of 26 lowercase base32 characters", () => {
    const identifier = newConnectionIdentifier();
    expect(identifier).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(newConnectionIdentifier()).not.toBe(identifier);
  });

  it("encode their time in SQL as in JavaScript (retention's sweep bounds ids in the query)", async () => {
    const times = [0, 1, 31, 32, 1_023, Date.now(), Date.now() - 3650 * 86_400_000, 2 ** 48 - 1];
    for (const time of times) {
      const [row] = await directory().all<{ encoded: string }>(
        sql`SELECT ${encodedTimeSql(sql`${time}`)} AS encoded`,
      );
      expect(row?.encoded).toBe(encodeTime(time));
    }
  });
});
