import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

describe("host keys that cannot be used", () => {
  it("are never saved: ssh2's generator sometimes makes an Ed25519 key that does not read back", async () => {
    const ssh2 = (await import("ssh2")).default;
    const { roundTrips } = await import(MODULE);
    // About one key in 200 has a public half that lost a leading zero: find one.
    let broken: string | null = null;
    for (let tries = 0; tries < 5000 && broken === null; tries++) {
      const key = ssh2.utils.generateKeyPairSync("ed25519").private;
      const parsed = ssh2.utils.parseKey(key);
      if (parsed instanceof Error || parsed.getPublicSSH().length !== 51) broken = key;
    }
    expect(broken, "no malformed key in 5,000 tries").not.toBeNull();
    expect(roundTrips(broken, "ed25519")).toBe(false);
    // What the loader makes does read back, every time.
    for (let run = 0; run < 5; run++) {
      const dir = mkdtempSync(join(tmpdir(), "keyproof-host-keys-"));
      await fingerprintsFrom(dir);
      expect(roundTrips(readFileSync(join(dir, "ssh_host_ed25519_key"), "utf8"), "ed25519")).toBe(
        true,
      );
    }
  });

  it("stop the bridge with a sentence naming the file and what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keyproof-host-keys-"));
    const path = join(dir, "ssh_host_ed25519_key");
    // A damaged key file: the format's armour around its magic header and nothing else, no key
    // material (built from parts, so it reads as what it is).
    const armour = (edge: string) => `-----${edge} OPENSSH PRIVATE KEY-----`;
    const magic = Buffer.from("openssh-key-v1\0\0\0\0").toString("base64");
    writeFileSync(path, `${armour("BEGIN")}\n${magic}\n${armour("END")}\n`, { mode: 0o600 });
    const failure = await run(
      process.execPath,
      [join(import.meta.dirname, "..", "src", "main.ts")],
      {
        env: { ...process.env, BRIDGE_SECRET: "x".repeat(32), HOST_KEY_DIR: dir, SSH_PORT: "0" },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    const { stderr } = failure as { stderr: string };
    expect(stderr).toContain(`the host key ${path} cannot be used`);
    expect(stderr).toContain("Delete it");
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});
