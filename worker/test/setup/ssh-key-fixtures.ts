import { execFileSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SoftwareSecurityKey, signDetached } from "../../../test-support/security-keys.ts";

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

/** A security key's public key (no hardware: test-support/security-keys.ts), with ssh-keygen's word on it. */
export type SecurityKeyFixture = Omit<KeyFixture, "pem" | "bits" | "comment">;

/** A certificate made by `ssh-keygen -s`, with what ssh-keygen says of it and its CA. */
export type CertificateFixture = {
  label: string;
  /** The certificate line, `<type>-cert-v01@openssh.com <base64> comment`. */
  openssh: string;
  /** The certified key's fingerprint, as `ssh-keygen -l` prints it for the certificate. */
  sha256: string;
  caOpenssh: string;
  caSha256: string;
  valid: boolean;
};

/** A detached signature made by `ssh-keygen -Y sign` (see SIGNATURES). */
export type SignatureFixture = {
  label: string;
  armored: string;
  /** The signing key's fingerprint. */
  sha256: string;
};

export type KeyFixtures = {
  accepted: KeyFixture[];
  refused: Record<string, string>;
  /** PEM text no key field may accept: other algorithms, trailing garbage, private keys. */
  badPem: Record<string, string>;
  /** Private keys in every format, each pasted where a public key belongs. */
  privateKeys: Record<string, string>;
  securityKeys: SecurityKeyFixture[];
  certificates: CertificateFixture[];
  /** Signatures over SIGNATURE_CHALLENGE, which a test sets as a session's challenge. */
  signatures: SignatureFixture[];
};

export const SIGNATURE_CHALLENGE = "keyproof:fixture0000000000000000000000";

/** How each signature fixture is made: key, namespace, message, ssh-keygen options. */
const SIGNATURES = [
  { label: "ed25519", key: ["-t", "ed25519"], namespace: "keyproof", message: SIGNATURE_CHALLENGE },
  {
    label: "ecdsa-256",
    key: ["-t", "ecdsa", "-b", "256"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "ecdsa-384",
    key: ["-t", "ecdsa", "-b", "384"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "ecdsa-521",
    key: ["-t", "ecdsa", "-b", "521"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "rsa-2048",
    key: ["-t", "rsa", "-b", "2048"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "ed25519, sha256",
    key: ["-t", "ed25519"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
    options: ["-O", "hashalg=sha256"],
  },
  {
    label: "ed25519, echo",
    key: ["-t", "ed25519"],
    namespace: "keyproof",
    message: `${SIGNATURE_CHALLENGE}\n`,
  },
  {
    label: "rsa-1024",
    key: ["-t", "rsa", "-b", "1024"],
    namespace: "keyproof",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "other namespace",
    key: ["-t", "ed25519"],
    namespace: "git",
    message: SIGNATURE_CHALLENGE,
  },
  {
    label: "other data",
    key: ["-t", "ed25519"],
    namespace: "keyproof",
    message: "keyproof:somethingelse",
  },
] as const;

function signatureFixtures(dir: string): SignatureFixture[] {
  const securityKey = new SoftwareSecurityKey("ecdsa");
  securityKey.counter = 6;
  const skPath = join(dir, "signer-sk.pub");
  writeFileSync(skPath, `${securityKey.publicKeyLine()}\n`);
  const bySecurityKey = {
    label: "sk-ecdsa",
    armored: signDetached(securityKey, new TextEncoder().encode(SIGNATURE_CHALLENGE)),
    sha256: fingerprint(skPath, "sha256").print,
  };
  return [
    ...SIGNATURES.map((spec, i) => {
      const key = join(dir, `signer-${i}`);
      keygen([...spec.key, "-q", "-N", "", "-f", key]);
      const armored = execFileSync(
        "ssh-keygen",
        ["-Y", "sign", "-n", spec.namespace, "-f", key, ...("options" in spec ? spec.options : [])],
        { input: spec.message, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] },
      );
      return { label: spec.label, armored, sha256: fingerprint(`${key}.pub`, "sha256").print };
    }),
    bySecurityKey,
  ];
}

const CERTIFICATES = [
  {
    label: "ed25519 by an ed25519 CA",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: [
      "-I",
      "alice",
      "-n",
      "alice,deploy",
      "-V",
      "20250101000000Z:20991231235959Z",
      "-z",
      "18446744073709551615",
      "-O",
      "force-command=ls -l",
      "-O",
      "no-pty",
    ],
    valid: true,
  },
  {
    label: "rsa by an ecdsa-521 CA, forever",
    key: ["-t", "rsa", "-b", "2048"],
    ca: ["-t", "ecdsa", "-b", "521"],
    sign: ["-I", "forever"],
    valid: true,
  },
  {
    label: "ecdsa-384 by an rsa CA",
    key: ["-t", "ecdsa", "-b", "384"],
    ca: ["-t", "rsa", "-b", "3072"],
    sign: ["-I", "rsa-signed", "-n", "bob"],
    valid: true,
  },
  {
    label: "a host certificate",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "server", "-h", "-n", "server.example.com"],
    valid: false,
  },
  {
    label: "an expired certificate",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "old", "-V", "20200101000000Z:20200102000000Z"],
    valid: false,
  },
  {
    label: "an unknown critical option",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "odd", "-O", "critical:permit-everything@example.com"],
    valid: false,
  },
  {
    label: "source-address 10.9.8.0/24",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "office", "-n", "deploy", "-O", "source-address=10.9.8.0/24,2001:db8::/32"],
    // From no known address: the Worker reads it for a client, which the tests name.
    valid: false,
  },
  {
    label: "verify-required",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "pin", "-n", "deploy", "-O", "verify-required"],
    valid: true,
  },
  {
    label: "a bidirectional override in its key id",
    key: ["-t", "ed25519"],
    ca: ["-t", "ed25519"],
    sign: ["-I", "alice\u202e\u0007\\x", "-n", "deploy\u202e"],
    valid: true,
  },
] as const;

/** Node makes Diffie-Hellman key pairs, but @types/node has no overload that says so. */
const generateDhKeyPair = generateKeyPairSync as unknown as (
  type: "dh",
  options: { group: string },
) => { publicKey: KeyObject };

/** PEM text that is not a key keyproof proves, or not a public key at all. */
function badPemFixtures(): Record<string, string> {
  const spki = (key: KeyObject) => key.export({ type: "spki", format: "pem" }).toString();
  const ed25519 = generateKeyPairSync("ed25519");
  return {
    "PEM DSA": spki(
      generateKeyPairSync("dsa", { modulusLength: 2048, divisorLength: 256 }).publicKey,
    ),
    "PEM DH": spki(generateDhKeyPair("dh", { group: "modp14" }).publicKey),
    "PEM X25519": spki(generateKeyPairSync("x25519").publicKey),
    "PEM X448": spki(generateKeyPairSync("x448").publicKey),
    "PEM with trailing garbage": `${spki(ed25519.publicKey).trim()}\ngarbage after the key`,
    "an encrypted private key": ed25519.privateKey
      .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "secret" })
      .toString(),
  };
}

/** A private key in each format keyproof knows, as a user might paste one by mistake. */
function privateKeyFixtures(dir: string): Record<string, string> {
  const made = (label: string, args: string[]) => {
    const path = join(dir, `private-${label.replace(/\W+/g, "-")}`);
    keygen([...args, "-q", "-C", "", "-f", path]);
    return readFileSync(path, "utf8");
  };
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    OpenSSH: made("openssh", ["-t", "ed25519", "-N", ""]),
    "OpenSSH, encrypted": made("openssh-encrypted", ["-t", "ed25519", "-N", "secret"]),
    "PEM PKCS#1": rsa.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    "PEM PKCS#1, encrypted": made("pkcs1-encrypted", [
      "-t",
      "rsa",
      "-b",
      "2048",
      "-m",
      "PEM",
      "-N",
      "secret",
    ]),
    "PEM PKCS#8": rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    "PEM PKCS#8, encrypted": rsa.privateKey
      .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "secret" })
      .toString(),
    // As PuTTYgen saves one (format 3); no PuTTYgen here, and only its header is looked at.
    PuTTY: [
      "PuTTY-User-Key-File-3: ssh-ed25519",
      "Encryption: none",
      "Comment: eddsa-key-20261123",
      "Public-Lines: 2",
      "AAAAC3NzaC1lZDI1NTE5AAAAIDMvmtd8ZrJ5rM1E0ZVnTDpRNQLq+wq8IoPc4ojaoEHX",
      "Private-Lines: 1",
      "AAAAIFz6o0n2Tb+Mm3jnNdBUuaVTsr0bWDxdYv5vjhJq6bCT",
      "Private-MAC: 6c2a9d4a0f4c3f0a1f0e1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506",
    ].join("\n"),
  };
}

function securityKeyFixtures(dir: string): SecurityKeyFixture[] {
  return (["ed25519", "ecdsa"] as const).map((kind) => {
    const key = new SoftwareSecurityKey(kind);
    const path = join(dir, `sk-${kind}.pub`);
    const comment = `sk-${kind}@keyproof-test`;
    const openssh = key.publicKeyLine(comment);
    writeFileSync(path, `${openssh}\n`);
    return {
      label: `sk-${kind}`,
      openssh,
      rfc4716: keygen(["-e", "-f", path]),
      sha256: fingerprint(path, "sha256").print,
      md5: fingerprint(path, "md5").print,
      algorithm: key.algorithm,
    };
  });
}

function certificateFixtures(dir: string): CertificateFixture[] {
  return CERTIFICATES.map((spec, i) => {
    const key = join(dir, `certified-${i}`);
    const ca = join(dir, `ca-${i}`);
    keygen([...spec.key, "-q", "-N", "", "-f", key]);
    keygen([...spec.ca, "-q", "-N", "", "-f", ca]);
    keygen(["-q", "-s", ca, ...spec.sign, `${key}.pub`]);
    return {
      label: spec.label,
      openssh: readFileSync(`${key}-cert.pub`, "utf8").trim(),
      sha256: fingerprint(`${key}-cert.pub`, "sha256").print,
      caOpenssh: readFileSync(`${ca}.pub`, "utf8").trim(),
      caSha256: fingerprint(`${ca}.pub`, "sha256").print,
      valid: spec.valid,
    };
  });
}

export function makeKeyFixtures(): KeyFixtures {
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
    return {
      accepted,
      refused,
      badPem: badPemFixtures(),
      privateKeys: privateKeyFixtures(dir),
      securityKeys: securityKeyFixtures(dir),
      certificates: certificateFixtures(dir),
      signatures: signatureFixtures(dir),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
