/**
 * Traces that no other test's data holds. Every test file shares one workerd and its storage, and
 * the erasure checks look for a session's traces in every database: a key, an address or a name
 * another test also used would be found there whatever this test erased.
 */
import { newTestSshKey } from "./ssh-signatures.ts";

/** A new Ed25519 public key, as an OpenSSH line. */
export const freshEd25519 = async (): Promise<string> => (await newTestSshKey()).publicKey;

/** A new address in IPv6's documentation prefix, written as the Worker stores it. */
export function freshAddress(): string {
  const group = () => (1 + Math.floor(Math.random() * 0xfffe)).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

/** A word of eight random characters, for names and external ids. */
export const freshWord = () => crypto.randomUUID().slice(0, 8);
