/**
 * IP addresses as bytes, and CIDR blocks: what webhook URL checks, certificate `source-address`
 * and client addresses need, with nothing from the platform (workerd has no BlockList).
 */

/** A block: its leading bytes and prefix length in bits. */
export type AddressBlock = [lead: number[] | Uint8Array, prefix: number];

export function inBlock(address: Uint8Array, [lead, prefix]: AddressBlock): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((address[byte] ?? 0) & mask) !== ((lead[byte] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 4 bytes of a dotted IPv4 address (no other spelling), or null. */
export function ipv4Bytes(host: string): Uint8Array | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? Uint8Array.from(bytes) : null;
}

/** The 16 bytes of an IPv6 literal (bracketed or not, with or without a dotted IPv4 tail), or null. */
export function ipv6Bytes(literal: string): Uint8Array | null {
  let text = literal.replace(/^\[|\]$/g, "").toLowerCase();
  const tail = text.match(/:(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (tail) {
    const v4 = ipv4Bytes(tail);
    if (!v4) return null;
    const hex = (a = 0, b = 0) => ((a << 8) | b).toString(16);
    text = `${text.slice(0, -tail.length)}${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string | undefined) => (half ? half.split(":") : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...head, ...Array(Math.max(0, missing)).fill("0"), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return Uint8Array.from(
    all.flatMap((group) => {
      const value = Number.parseInt(group, 16);
      return [value >> 8, value & 0xff];
    }),
  );
}

/** An address's bytes, IPv4-mapped IPv6 (`::ffff:a.b.c.d`) read as the IPv4 it carries. */
export function addressBytes(address: string): Uint8Array | null {
  const v4 = ipv4Bytes(address);
  if (v4) return v4;
  const v6 = ipv6Bytes(address);
  if (v6 && inBlock(v6, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96])) return v6.subarray(12);
  return v6;
}

/**
 * Whose budget a client address counts against, in per-address limits (the bridge's connections,
 * the Worker's proof pages and signatures): an IPv4 address its own; an IPv6 address its /64, the
 * prefix one subscriber is given (RFC 6177), so one client cannot take 2^64 budgets.
 */
export function budgetOf(address: string): string {
  const bytes = addressBytes(address);
  if (!bytes || bytes.length === 4) return address;
  const groups = [0, 2, 4, 6].map((at) =>
    (((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0)).toString(16),
  );
  return `${groups.join(":")}::/64`;
}

/** Whether `text` is an IPv4 or IPv6 address. */
export const isIpAddress = (text: string) => addressBytes(text) !== null;

/**
 * Whether `address` lies in a comma-separated list of addresses and CIDR blocks, as sshd reads a
 * certificate's `source-address` (addr_match_cidr_list); null when the list cannot be read, which
 * sshd treats as a refusal.
 */
export function addressInCidrList(address: string, list: string): boolean | null {
  const client = addressBytes(address);
  let matched = false;
  for (const entry of list.split(",")) {
    const [network = "", prefixText, ...extra] = entry.trim().split("/");
    const bytes = addressBytes(network);
    if (!bytes || extra.length > 0) return null;
    const bits = bytes.length * 8;
    const prefix = prefixText === undefined ? bits : Number(prefixText);
    if (!/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) return null;
    if (client && client.length === bytes.length && inBlock(client, [bytes, prefix]))
      matched = true;
  }
  return matched;
}
