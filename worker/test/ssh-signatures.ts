/**
 * An Ed25519 key and `ssh-keygen -Y sign` made inside workerd (WebCrypto), for tests that sign
 * in with an SSH key where no OpenSSH can run: the same SSHSIG armor ssh-keygen prints
 * (PROTOCOL.sshsig). The bridge's tests sign with OpenSSH's own ssh-keygen.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);

function u32(value: number): Uint8Array {
  return new Uint8Array([
    (value >>> 24) & 255,
    (value >>> 16) & 255,
    (value >>> 8) & 255,
    value & 255,
  ]);
}

const string = (bytes: Uint8Array) => concat(u32(bytes.length), bytes);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export interface TestSshKey {
  /** `ssh-ed25519 <base64>`, as the .pub file has it. */
  publicKey: string;
  /** The armored signature `ssh-keygen -Y sign -n <namespace>` prints for `message`. */
  sign(message: string, namespace: string): Promise<string>;
}

export async function newTestSshKey(): Promise<TestSshKey> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const blob = concat(string(utf8("ssh-ed25519")), string(raw));
  return {
    publicKey: `ssh-ed25519 ${base64(blob)}`,
    async sign(message, namespace) {
      const hash = new Uint8Array(await crypto.subtle.digest("SHA-512", utf8(message)));
      const signed = concat(
        utf8("SSHSIG"),
        string(utf8(namespace)),
        string(new Uint8Array(0)),
        string(utf8("sha512")),
        string(hash),
      );
      const raw = new Uint8Array(
        await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, signed),
      );
      const signature = concat(string(utf8("ssh-ed25519")), string(raw));
      const armored = concat(
        utf8("SSHSIG"),
        u32(1),
        string(blob),
        string(utf8(namespace)),
        string(new Uint8Array(0)),
        string(utf8("sha512")),
        string(signature),
      );
      const lines = base64(armored).match(/.{1,70}/g) ?? [];
      return ["-----BEGIN SSH SIGNATURE-----", ...lines, "-----END SSH SIGNATURE-----", ""].join(
        "\n",
      );
    },
  };
}
