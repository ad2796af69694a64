import { execFileSync } from "node:child_process";
import { createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A key made by ssh-keygen, in every text form we accept, with what ssh-keygen says of it. */
export type KeyFixture = {
  label: string;
  openssh: string;
  rfc4716: string;
  pem: string[];
  sha256: string;
  md5: string;
  bits: number;
  algorithm: string;
  comment: string;
};

const KINDS = [
  { label: "ed25519", args: ["-t", "ed25519"], algorithm: "ssh-ed25519" },
  { label: "ecdsa-256", args: ["-t", "ecdsa", "-b", "256"], algorithm: "ecdsa-sha2-nistp256" },
  { label: "ecdsa-384", args: ["-t", "ecdsa", "-b", "384"], algorithm: "ecdsa-sha2-nistp384" },
  { label: "ecdsa-521", args: ["-t", "ecdsa", "-b", "521"], algorithm: "ecdsa-sha2-nistp521" },
  { label: "rsa-2048", args: ["-t", "rsa", "-b", "2048"], algorithm: "ssh-rsa" },
  { label: "rsa-3072", args: ["-t", "rsa", "-b", "3072"], algorithm: "ssh-rsa" },
];

const REFUSED = [
  { label: "rsa-1024", args: ["-t", "rsa", "-b", "1024"] },
  { label: "dsa", args: ["-t", "dsa"] },
];

const keygen = (args: string[]) => execFileSync("ssh-keygen", args, { encoding: "utf8" });

/** `256 SHA256:abc comment (ED25519)` → the fingerprint and the bits. */
function fingerprint(pubPath: string, hash: "sha256" | "md5") {
  const [bits, print] = keygen(["-l", "-E", hash, "-f", pubPath]).trim().split(" ");
  return { bits: Number(bits), print: print ?? "" };
}

/** PEM forms: ssh-keygen's own (SPKI and, for RSA, PKCS#1), or Node's for Ed25519, which ssh-keygen cannot export. */
function pemForms(pubPath: string, openssh: string): string[] {
  if (!openssh.startsWith("ssh-ed25519")) {
    const forms = [keygen(["-e", "-m", "PKCS8", "-f", pubPath])];
    if (openssh.startsWith("ssh-rsa")) forms.push(keygen(["-e", "-m", "PEM", "-f", pubPath]));
    return forms;
  }
  const blob = Buffer.from(openssh.split(" ")[1] ?? "", "base64");
  const x = blob.subarray(blob.length - 32).toString("base64url");
  return [
    createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" })
      .export({ type: "spki", format: "pem" })
      .toString(),
  ];
}

export function makeKeyFixtures(): { accepted: KeyFixture[]; refused: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-keys-"));
  try {
    const accepted = KINDS.map(({ label, args, algorithm }) => {
      const path = join(dir, label);
      const comment = `${label}@keyproof-test`;
      keygen([...args, "-q", "-N", "", "-C", comment, "-f", path]);
      const openssh = readFileSync(`${path}.pub`, "utf8").trim();
      const sha256 = fingerprint(`${path}.pub`, "sha256");
      return {
        label,
        openssh,
        rfc4716: keygen(["-e", "-f", `${path}.pub`]),
        pem: pemForms(`${path}.pub`, openssh),
        sha256: sha256.print,
        md5: fingerprint(`${path}.pub`, "md5").print,
        bits: sha256.bits,
        algorithm,
        comment,
      };
    });
    const refused = Object.fromEntries(
      REFUSED.map(({ label, args }) => {
        const path = join(dir, label);
        keygen([...args, "-q", "-N", "", "-f", path]);
        return [label, readFileSync(`${path}.pub`, "utf8").trim()];
      }),
    );
    return { accepted, refused };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
