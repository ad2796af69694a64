import { describe, expect, it } from "vitest";
import { runBurstBench } from "../../bench/burst.ts";
import { runCostBench } from "../../bench/cost.ts";
import { SMOKE_LIFE_CLOCK } from "../../bench/lifecycle.ts";
import { runStorageBench } from "../../bench/storage.ts";

// The benchmarks that count billed units, at their smallest, writing nothing.
describe("cost benchmarks (smoke run)", () => {
  it("cost counts every operation's billed units, and a proof's whole life", async () => {
    const { rows, perMillion, lifecycle } = await runCostBench(1, false, {
      lifecycleProofs: 1,
      life: SMOKE_LIFE_CLOCK,
    });
    const proof = rows.at(-1)?.counts;
    expect(proof?.durableObjectRowsWritten).toBeGreaterThan(0);
    expect(perMillion).toBeGreaterThan(0);
    expect(lifecycle.total).toBeGreaterThan(0);
    // The statement-by-statement breakdown accounts for every row written, in each store.
    const sum = (store: string) =>
      Object.entries(proof?.writtenBy ?? {})
        .filter(([statement]) => statement.startsWith(`${store}: `))
        .reduce((total, [, rows]) => total + rows, 0);
    expect(sum("d1")).toBe(proof?.d1RowsWritten);
    expect(sum("do")).toBe(proof?.durableObjectRowsWritten);
  }, 300_000);

  it("storage sees sessions kept, then erased by their retention", async () => {
    const { result } = await runStorageBench(1, false);
    expect(result.d1BytesPerSession).toBeGreaterThan(0);
    expect(result.notErased).toBe(0);
    expect(result.eventsLeft).toBe(0);
  }, 180_000);

  it("burst counts D1 transactions per proof, alone and at once", async () => {
    const { alone, burst } = await runBurstBench(4, false);
    expect(alone.perProof).toBeGreaterThan(0);
    expect(burst.counts.d1WriteTransactions).toBeGreaterThan(0);
  }, 180_000);
});
