/**
 * `npm run bench`: every benchmark at full size, one after another, each writing its section of
 * docs/benchmarks.md. Takes a few minutes; run it on an otherwise idle machine.
 */
import { runApiBench } from "./api.ts";
import { runBridgeMemoryBench } from "./bridge-memory.ts";
import { runBurstBench } from "./burst.ts";
import { runCapacityBench } from "./capacity.ts";
import { runCostBench } from "./cost.ts";
import { runErasureBench } from "./erasure.ts";
import { runGeoBench } from "./geo.ts";
import { writeHistoryBench } from "./history.ts";
import { runListBench } from "./list-latency.ts";
import { runProfileBench } from "./profile.ts";
import { runRateLimitBench } from "./rate-limit.ts";
import { runScaleBench } from "./scale.ts";
import { runSlowReceiverBench } from "./slow-receiver.ts";
import { runSshProofBench } from "./ssh-proofs.ts";
import { runStorageBench } from "./storage.ts";
import { runWebhookRecoveryBench } from "./webhook-recovery.ts";
import { runWebhookBench } from "./webhooks.ts";

for (const [name, run] of [
  ["ssh-proofs", () => runSshProofBench(200, 8, 3)],
  ["api", () => runApiBench(300, 8, 3)],
  ["webhooks", () => runWebhookBench(200, 3)],
  ["bridge-memory", () => runBridgeMemoryBench(1000, 2)],
  ["list-latency", () => runListBench(100_000, 30)],
  ["webhook-recovery", () => runWebhookRecoveryBench(2, 60, 60)],
  ["slow-receiver", () => runSlowReceiverBench(60, 3, 2)],
  ["geo", () => runGeoBench(10, [0, 90, 215])],
  ["cost", () => runCostBench()],
  ["storage", () => runStorageBench(50)],
  ["burst", () => runBurstBench(200)],
  ["profile", () => runProfileBench(50)],
  ["scale", () => runScaleBench(10, 250)],
  ["erasure", () => runErasureBench(3_000)],
  ["history", () => writeHistoryBench(300_000, 30, 200)],
  ["rate-limit", async () => runRateLimitBench()],
  ["capacity", () => runCapacityBench(30, 20)],
] as const) {
  console.log(`running ${name}…`);
  console.log((await run()).markdown);
}
