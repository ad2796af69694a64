import { describe, expect, it } from "vitest";
import { runApiBench } from "../../bench/api.ts";
import { runGeoBench } from "../../bench/geo.ts";
import { runWebhookRecoveryBench } from "../../bench/webhook-recovery.ts";
import { runWebhookBench } from "../../bench/webhooks.ts";

// The API's and webhooks' benchmarks at their smallest, writing nothing.
describe("API and webhook benchmarks (smoke run)", () => {
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

  it("webhook-recovery delivers a retry lost in a restart", async () => {
    const { lateness } = await runWebhookRecoveryBench(1, 1, 1, false);
    expect(lateness).toHaveLength(1);
  }, 120_000);

  it("geo times every operation near and far", async () => {
    const { byDistance } = await runGeoBench(1, [0, 20], false);
    for (const distance of [0, 20]) {
      const timings = byDistance.get(distance) ?? {};
      expect(Object.keys(timings)).toContain("SSH proof (ssh start → result on the terminal)");
      expect(timings.create).toHaveLength(1);
    }
  }, 180_000);
});
