import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const MODULE = join(import.meta.dirname, "..", "src", "server-keys.ts");

/** One process that loads (or makes) the host keys in `dir` and prints their fingerprints. */
async function fingerprintsFrom(dir: string): Promise<string> {
  const script = `const { loadOrCreateHostKeys } = await import(${JSON.stringify(MODULE)});
    const keys = await loadOrCreateHostKeys(${JSON.stringify(dir)});
    console.log(keys.map((key) => key.fingerprint).join(" "));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return stdout.trim();
}

describe("host keys on first start", () => {
  it("are made once when several bridges start on one empty directory at the same moment", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyproof-host-keys-"));
    const seen = await Promise.all(Array.from({ length: 4 }, () => fingerprintsFrom(dir)));
    // Every process uses the key on disk, whole: nobody read a half-written file.
    expect(new Set(seen).size).toBe(1);
    const onDisk = ["ssh_host_ed25519_key", "ssh_host_rsa_key"].map(
      (file) =>
        execFileSync("ssh-keygen", ["-lf", join(dir, `${file}.pub`)], { encoding: "utf8" }).split(
          " ",
        )[1],
    );
    expect(seen[0]).toBe(onDisk.join(" "));
    // The private halves are what ssh-keygen reads too, and nothing partial is left behind.
    for (const file of ["ssh_host_ed25519_key", "ssh_host_rsa_key"])
      expect(execFileSync("ssh-keygen", ["-yf", join(dir, file)], { encoding: "utf8" })).toContain(
        readFileSync(join(dir, `${file}.pub`), "utf8").split(" ")[1] ?? "missing",
      );
    expect(readdirSync(dir).filter((file) => file.endsWith(".partial"))).toEqual([]);
  });
});
