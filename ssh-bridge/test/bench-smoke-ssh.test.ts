import { describe, expect, it } from "vitest";
import { runBridgeMemoryBench } from "../../bench/bridge-memory.ts";
import { runProfileBench } from "../../bench/profile.ts";
import { runSshProofBench } from "../../bench/ssh-proofs.ts";

// The SSH side's benchmarks at their smallest, writing nothing: the scripts still run end to end.
describe("SSH benchmarks (smoke run)", () => {
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

  it("bridge-memory holds idle connections and refuses past the cap", async () => {
    const { perRun } = await runBridgeMemoryBench(5, 1, false);
    expect(perRun[0]?.capRefused).toBe(true);
    expect(perRun[0]?.loaded).toBeGreaterThan(0);
  }, 120_000);

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
});
