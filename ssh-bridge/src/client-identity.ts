import { isIP } from "node:net";

/**
 * An address as the Worker stores it, one spelling per address: IPv6 in its compressed lower-case
 * form (RFC 5952: a PROXY v2 header's 16 bytes become `::1`, not `0:0:0:0:0:0:0:1`), IPv4-mapped
 * IPv6 (`::ffff:127.0.0.1`, what a dual-stack socket reports) as plain IPv4, without a zone; null
 * for anything that is not an IP address.
 */
export function normalizeAddress(address: string | undefined | null): string | null {
  if (!address) return null;
  const withoutZone = address.replace(/%.*$/, "");
  const family = isIP(withoutZone);
  if (family === 4) return withoutZone;
  if (family !== 6) return null;
  // The URL standard serializes an IPv6 host compressed and in lower case (RFC 5952).
  const compressed = new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [
    Number.parseInt(mapped[1] ?? "0", 16),
    Number.parseInt(mapped[2] ?? "0", 16),
  ];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}
