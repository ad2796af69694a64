/**
 * Traces that no other test's data holds. Every test file shares one workerd and its storage, and
 * the erasure checks look for a session's traces in every database: a key, an address or a name
 * another test also used would be found there whatever this test erased.
 */

const u32 = (value: number) => new Uint8Array([value >>> 24, value >>> 16, value >>> 8, value]);

/** A new Ed25519 public key, as an OpenSSH line. */
export async function freshEd25519(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const type = new TextEncoder().encode("ssh-ed25519");
  const blob = new Uint8Array([...u32(type.length), ...type, ...u32(raw.length), ...raw]);
  return `ssh-ed25519 ${btoa(String.fromCharCode(...blob))}`;
}

/** A new address in IPv6's documentation prefix, written as the Worker stores it. */
export function freshAddress(): string {
  const group = () => (1 + Math.floor(Math.random() * 0xfffe)).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

/** A word of eight random characters, for names and external ids. */
export const freshWord = () => crypto.randomUUID().slice(0, 8);
