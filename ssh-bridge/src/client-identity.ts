import { isIP } from "node:net";

/**
 * An address as the Worker stores it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`, what a dual-stack
 * socket reports) as plain IPv4, without a zone; null for anything that is not an IP address.
 */
export function normalizeAddress(address: string | undefined | null): string | null {
  if (!address) return null;
  const withoutZone = address.replace(/%.*$/, "");
  const mapped = withoutZone.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  const candidate = mapped ?? withoutZone;
  return isIP(candidate) === 0 ? null : candidate.toLowerCase();
}
