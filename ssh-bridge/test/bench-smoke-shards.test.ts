import { describe, expect, it } from "vitest";
import { runErasureBench } from "../../bench/erasure.ts";
import { runHistoryBench } from "../../bench/history.ts";
import { runListBench } from "../../bench/list-latency.ts";
import { runScaleBench } from "../../bench/scale.ts";

// The benchmarks of the index's shards at their smallest, writing nothing.
describe("shard benchmarks (smoke run)", () => {
  it("scale counts every shard's transactions, writer requests and bytes", async () => {
    // Eight a shard: a shard's file grows by whole 4 KiB pages, which two sessions may not fill.
    const { result } = await runScaleBench(1, 8, false);
    expect(result.perShard.length).toBeGreaterThanOrEqual(2);
    for (const shard of result.perShard) {
      expect(shard.proofs).toBe(8);
      expect(shard.transactionsPerSecond).toBeGreaterThan(0);
      expect(shard.writerRequestsPerProof).toBeGreaterThan(0);
      expect(shard.bytesPerSession).toBeGreaterThan(0);
    }
  }, 180_000);

  it("history loads a shard, then counts proofs on it and on an empty one", async () => {
    const { loaded, empty, shardBytes } = await runHistoryBench(200, 2, 4);
    expect(shardBytes).toBeGreaterThan(0);
    for (const measured of [loaded, empty]) {
      expect(measured.single.delivery).toHaveLength(2);
      expect(measured.single.primaryQueries).toBeGreaterThan(0);
      expect(measured.burstPrimaryQueries).toBeGreaterThan(0);
      expect(measured.burstStatements.length).toBeGreaterThan(0);
    }
  }, 240_000);

  it("erasure empties every shard of sessions past retention", async () => {
    const { perMinute, runs } = await runErasureBench(120, false);
    expect(runs.length).toBeGreaterThan(0);
    expect(perMinute).toBeGreaterThan(0);
  }, 180_000);

  it("list-latency pages through inserted sessions", async () => {
    const { first, last } = await runListBench(300, 2, false);
    expect(first.length).toBe(2);
    expect(last.length).toBe(2);
  }, 120_000);
});
