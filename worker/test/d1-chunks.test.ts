import { describe, expect, it } from "vitest";
import { D1_MAX_BOUND_PARAMETERS, inChunks } from "../src/db/client.ts";

/** Rows with `values` defined values each. */
const rowsOf = (count: number, values: number) =>
  Array.from({ length: count }, (_, i) =>
    Object.fromEntries(Array.from({ length: values }, (_, k) => [`c${k}`, `${i}`])),
  );

describe("rows split for D1's parameter limit", () => {
  it("keeps every row, in order, and no statement over the limit when rows differ in size", () => {
    // A narrow row first, as when one push's row has fewer values than the others of its group.
    const rows = [...rowsOf(1, 3), ...rowsOf(40, 30), ...rowsOf(5, 3)];
    const chunks = inChunks(rows);
    expect(chunks.flat()).toEqual(rows);
    for (const chunk of chunks) {
      const bound = chunk.reduce((sum, row) => sum + Object.keys(row).length, 0);
      expect(bound).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);
    }
  });

  it("makes no statement of no rows", () => {
    expect(inChunks([])).toEqual([]);
  });
});
