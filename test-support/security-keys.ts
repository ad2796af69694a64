import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticatorMessage, USER_PRESENT } from "../worker/src/protocol/signatures.ts";
import { mpint, SshReader, sshStrings, utf8 } from "../worker/src/protocol/ssh-wire.ts";

/**
 * FIDO security keys in software, for tests: they hold an Ed25519 or P-256 private key and sign
 * as an authenticator does (OpenSSH's PROTOCOL.u2f), with flags and a counter the test sets.
 * The OpenSSH client does not re-check signatures from an ssh-agent, so an agent holding these
 * drives real `ssh` logins; a test proves sshd accepts them, so they sign as hardware does.
 */

const ALGORITHMS = {
  ed25519: "sk-ssh-ed25519@openssh.com",
  ecdsa: "sk-ecdsa-sha2-nistp256@openssh.com",
} as const;

export class SoftwareSecurityKey {
  readonly algorithm: string;
  readonly application: string;
  /** What the next signature reports: user presence (0x01), user verification (0x04). */
  flags = USER_PRESENT;
  /** The signature counter; each signature adds one first, as authenticators do. */
  counter = 0;
  /** Flags to report beside the signature instead of the ones it covers: a forgery. */
  reportedFlags: number | null = null;
  /** Certificates for this key (blobs), offered by the agent beside the key itself. */
  readonly certificates: Buffer[] = [];
  readonly blob: Buffer;
  readonly #privateKey: KeyObject;
  readonly #kind: keyof typeof ALGORITHMS;

  constructor(kind: keyof typeof ALGORITHMS = "ed25519", application = "ssh:") {
    this.#kind = kind;
    this.algorithm = ALGORITHMS[kind];
    this.application = application;
    const pair =
      kind === "ed25519"
        ? generateKeyPairSync("ed25519")
        : generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.#privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: "jwk" });
    const bytes = (value: string | undefined) => Buffer.from(value ?? "", "base64url");
    const fields =
      kind === "ed25519"
        ? [bytes(jwk.x)]
        : [utf8("nistp256"), Buffer.concat([Buffer.of(4), bytes(jwk.x), bytes(jwk.y)])];
    this.blob = Buffer.from(sshStrings(utf8(this.algorithm), ...fields, utf8(application)));
  }

  /** The key as an authorized_keys line. */
  publicKeyLine(comment = "security-key@keyproof-test"): string {
    return `${this.algorithm} ${this.blob.toString("base64")} ${comment}`;
  }

  /** A signature blob over `data`: `string algorithm, string signature, byte flags, uint32 counter`. */
  sign(data: Uint8Array): Buffer {
    this.counter += 1;
    const authenticator = { flags: this.flags, counter: this.counter };
    const message = authenticatorMessage(this.application, authenticator, data);
    let signature: Uint8Array;
    if (this.#kind === "ed25519") {
      signature = sign(null, message, this.#privateKey);
    } else {
      const raw = sign("sha256", message, { key: this.#privateKey, dsaEncoding: "ieee-p1363" });
      signature = sshStrings(mpint(raw.subarray(0, 32)), mpint(raw.subarray(32)));
    }
    const tail = Buffer.alloc(5);
    tail.writeUInt8(this.reportedFlags ?? this.flags, 0);
    tail.writeUInt32BE(this.counter, 1);
    return Buffer.concat([sshStrings(utf8(this.algorithm), signature), tail]);
  }
}

/**
 * A detached signature (`ssh-keygen -Y sign` format, PROTOCOL.sshsig) made by a software security
 * key, which ssh-keygen cannot do without the hardware.
 */
export function signDetached(
  key: SoftwareSecurityKey,
  message: Uint8Array,
  namespace = "keyproof",
): string {
  const hash = createHash("sha512").update(message).digest();
  const magic = utf8("SSHSIG");
  const signed = Buffer.concat([
    magic,
    sshStrings(utf8(namespace), new Uint8Array(0), utf8("sha512"), hash),
  ]);
  const version = Buffer.alloc(4);
  version.writeUInt32BE(1);
  const blob = Buffer.concat([
    magic,
    version,
    sshStrings(key.blob, utf8(namespace), new Uint8Array(0), utf8("sha512"), key.sign(signed)),
  ]);
  const lines = blob.toString("base64").match(/.{1,70}/g) ?? [];
  return ["-----BEGIN SSH SIGNATURE-----", ...lines, "-----END SSH SIGNATURE-----", ""].join("\n");
}

const AGENT_FAILURE = 5;
const REQUEST_IDENTITIES = 11;
const IDENTITIES_ANSWER = 12;
const SIGN_REQUEST = 13;
const SIGN_RESPONSE = 14;

export interface SecurityKeyAgent {
  socket: string;
  /** How many signatures it made. */
  signatures: () => number;
  stop: () => Promise<void>;
}

/**
 * An ssh-agent (draft-miller-ssh-agent: uint32-framed messages over a unix socket) that holds
 * software security keys and their certificates, and answers the two requests `ssh` makes.
 */
export function startSecurityKeyAgent(keys: SoftwareSecurityKey[]): Promise<SecurityKeyAgent> {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-sk-agent-"));
  const socket = join(dir, "agent.sock");
  let signatures = 0;
  const identities = () =>
    keys.flatMap((key) => [
      { blob: key.blob, key, comment: "security key" },
      ...key.certificates.map((blob) => ({ blob, key, comment: "security key certificate" })),
    ]);

  function answer(request: Buffer): Buffer {
    const type = request[0];
    if (type === REQUEST_IDENTITIES) {
      const list = identities();
      const count = Buffer.alloc(4);
      count.writeUInt32BE(list.length);
      return Buffer.concat([
        Buffer.of(IDENTITIES_ANSWER),
        count,
        ...list.map(({ blob, comment }) => Buffer.from(sshStrings(blob, utf8(comment)))),
      ]);
    }
    if (type === SIGN_REQUEST) {
      const reader = new SshReader(request.subarray(1));
      const blob = Buffer.from(reader.string("key"));
      const data = reader.string("data");
      const identity = identities().find((entry) => entry.blob.equals(blob));
      if (!identity) return Buffer.of(AGENT_FAILURE);
      signatures++;
      return Buffer.concat([
        Buffer.of(SIGN_RESPONSE),
        Buffer.from(sshStrings(identity.key.sign(data))),
      ]);
    }
    // Extensions (session-bind@openssh.com) and everything else: not supported.
    return Buffer.of(AGENT_FAILURE);
  }

  const server: Server = createServer((connection) => {
    let pending = Buffer.alloc(0);
    connection.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
        const length = pending.readUInt32BE(0);
        const reply = answer(pending.subarray(4, 4 + length));
        pending = pending.subarray(4 + length);
        const frame = Buffer.alloc(4);
        frame.writeUInt32BE(reply.length);
        connection.write(Buffer.concat([frame, reply]));
      }
    });
    connection.on("error", () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(socket, () =>
      resolve({
        socket,
        signatures: () => signatures,
        stop: () =>
          new Promise((done) =>
            server.close(() => {
              rmSync(dir, { recursive: true, force: true });
              done();
            }),
          ),
      }),
    );
  });
}
