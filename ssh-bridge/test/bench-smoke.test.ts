import { describe, expect, it } from "vitest";
import { runApiBench } from "../../bench/api.ts";
import { runBridgeMemoryBench } from "../../bench/bridge-memory.ts";
import { runBurstBench } from "../../bench/burst.ts";
import { runCostBench } from "../../bench/cost.ts";
import { runErasureBench } from "../../bench/erasure.ts";
import { runGeoBench } from "../../bench/geo.ts";
import { runHistoryBench } from "../../bench/history.ts";
import { runListBench } from "../../bench/list-latency.ts";
import { runProfileBench } from "../../bench/profile.ts";
import { runScaleBench } from "../../bench/scale.ts";
import { runSshProofBench } from "../../bench/ssh-proofs.ts";
import { runStorageBench } from "../../bench/storage.ts";
import { runWebhookRecoveryBench } from "../../bench/webhook-recovery.ts";
import { runWebhookBench } from "../../bench/webhooks.ts";

// Every benchmark at a tiny size, writing nothing: proves the scripts still run end to end.
describe("benchmark scripts (smoke run, tiny sizes)", () => {
  it("ssh-proofs measures both servers", async () => {
    const { results } = await runSshProofBench(4, 2, 1, false);
    expect(results.bridge[0]?.perSecond).toBeGreaterThan(0);
    expect(results.sshd[0]?.perSecond).toBeGreaterThan(0);
  }, 120_000);

  it("ssh-proofs measures both servers with OpenSSH's own client", async () => {
    const { results, markdown } = await runSshProofBench(2, 1, 1, false, "openssh");
    expect(results.bridge[0]?.perSecond).toBeGreaterThan(0);
    expect(results.sshd[0]?.perSecond).toBeGreaterThan(0);
    expect(markdown).toContain("OpenSSH's `ssh`, one process a login");
  }, 120_000);

  it("api measures keyproof and the minimal Worker", async () => {
    const { results } = await runApiBench(5, 2, 1, false);
    expect(results.list?.minimal[0]?.perSecond).toBeGreaterThan(0);
    expect(results.create?.keyproof[0]?.perSecond).toBeGreaterThan(0);
  }, 120_000);

  it("webhooks delivers every event", async () => {
    const { perRun } = await runWebhookBench(3, 1, 2, false);
    expect(perRun[0]?.p50).toBeGreaterThanOrEqual(0);
    expect(perRun[0]?.single).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it("bridge-memory holds idle connections and refuses past the cap", async () => {
    const { perRun } = await runBridgeMemoryBench(5, 1, false);
    expect(perRun[0]?.capRefused).toBe(true);
    expect(perRun[0]?.loaded).toBeGreaterThan(0);
  }, 120_000);

  it("webhook-recovery delivers a retry lost in a restart", async () => {
    const { lateness } = await runWebhookRecoveryBench(1, 1, 1, false);
    expect(lateness).toHaveLength(1);
  }, 120_000);

  it("geo measures every operation near and far", async () => {
    const { byDistance } = await runGeoBench(1, [0, 20], false);
    const far = byDistance.get(20) ?? {};
    expect(Object.keys(far)).toContain("SSH proof (ssh start → result on the terminal)");
    expect(far.create?.[0]).toBeGreaterThan(20);
  }, 180_000);

  it("cost counts every operation's billed units", async () => {
    const { rows, perMillion } = await runCostBench(1, false);
    const proof = rows.at(-1)?.counts;
    expect(proof?.durableObjectRowsWritten).toBeGreaterThan(0);
    expect(perMillion).toBeGreaterThan(0);
    // The statement-by-statement breakdown accounts for every row written, in each store.
    const sum = (store: string) =>
      Object.entries(proof?.writtenBy ?? {})
        .filter(([statement]) => statement.startsWith(`${store}: `))
        .reduce((total, [, rows]) => total + rows, 0);
    expect(sum("d1")).toBe(proof?.d1RowsWritten);
    expect(sum("do")).toBe(proof?.durableObjectRowsWritten);
    // The lifecycle waits out its proofs' expiry (80 s) and 30 three-second days.
  }, 300_000);

  it("profile finds the Worker's CPU in its source files", async () => {
    const { cpuMsPerProof, native, byFile } = await runProfileBench(2, false);
    expect(cpuMsPerProof).toBeGreaterThan(0);
    // Where perf may record, its samples find the JavaScript among workerd's own work.
    if (native)
      expect(native.map(([component]) => component)).toContain(
        "JavaScript: ours, libraries, V8 builtins",
      );
    // Mapped back through the bundle's source map: the product's own files are named.
    expect(byFile.some(([file]) => file.startsWith("worker/src/"))).toBe(true);
  }, 180_000);

  it("burst counts D1 transactions per proof, alone and at once", async () => {
    const { alone, burst } = await runBurstBench(4, false);
    expect(alone.perProof).toBeGreaterThan(0);
    expect(burst.counts.d1WriteTransactions).toBeGreaterThan(0);
  }, 180_000);

  it("storage sees sessions kept, then erased by their retention", async () => {
    const { result } = await runStorageBench(1, false);
    expect(result.d1BytesPerSession).toBeGreaterThan(0);
    expect(result.notErased).toBe(0);
    expect(result.eventsLeft).toBe(0);
  }, 180_000);

  it("list-latency pages through inserted sessions", async () => {
    const { first, last } = await runListBench(300, 2, false);
    expect(first.length).toBe(2);
    expect(last.length).toBe(2);
  }, 120_000);

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
});
