/**
 * Deliveries must not reach the network keyproof runs in. In production a URL is refused when its
 * host is a loopback, private, link-local, shared, reserved or multicast address, a translated
 * IPv6 form of any IPv4 address (mapped, NAT64, 6to4, Teredo), or an internal name. The URL
 * parser has already turned every IPv4 spelling (decimal, hex, octal, short) into dotted form;
 * names are checked without their trailing dots. DNS is not resolved here (docs/webhooks.md).
 */

import { type AddressBlock, inBlock, ipv4Bytes, ipv6Bytes } from "../protocol/ip-addresses.ts";

/** Names that only mean something inside a network: single labels and these suffixes. */
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "intranet",
  "lan",
  "corp",
  "home.arpa",
];

/** IPv4 blocks that are not the public internet (RFC 6890 and its updates), as [first octets, prefix]. */
const NON_PUBLIC_IPV4: AddressBlock[] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4],
];

/** IPv6 blocks refused outright, as [leading bytes, prefix]: special, internal or translated. */
const REFUSED_IPV6: AddressBlock[] = [
  [[], 96], // :: and the deprecated IPv4-compatible ::a.b.c.d
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96], // IPv4-mapped ::ffff:a.b.c.d
  [[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96], // IPv4-translated ::ffff:0:a.b.c.d
  [[0x00, 0x64, 0xff, 0x9b], 96], // NAT64 64:ff9b::/96
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64 64:ff9b:1::/48
  [[0x01, 0x00], 64], // discard 100::/64
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo 2001::/32
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation 2001:db8::/32
  [[0x20, 0x02], 16], // 6to4 2002::/16
  [[0xfc], 7], // unique local fc00::/7
  [[0xfe, 0x80], 10], // link-local fe80::/10
  [[0xfe, 0xc0], 10], // site-local fec0::/10
  [[0xff], 8], // multicast ff00::/8
];

/** Why a host may not receive deliveries in production, or null when it may. */
function unsafeHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (host.startsWith("[")) {
    const address = ipv6Bytes(host);
    if (!address || REFUSED_IPV6.some((block) => inBlock(address, block))) {
      return "Loopback, private, link-local, reserved and translated IPv6 addresses are not allowed";
    }
    return null;
  }
  const v4 = ipv4Bytes(host);
  if (v4) {
    return NON_PUBLIC_IPV4.some((block) => inBlock(v4, block))
      ? "Loopback, private, link-local, shared and reserved IPv4 addresses are not allowed"
      : null;
  }
  if (!host.includes("."))
    return "Single-label host names reach internal hosts and are not allowed";
  if (INTERNAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return "Internal host names (localhost, .local, .internal, ...) are not allowed";
  }
  return null;
}

/** Why a delivery URL is not allowed, or null when it is. */
export function unsafeUrlReason(url: string, allowPrivateNetworks: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Not a valid URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return "Only http and https URLs are allowed";
  if (parsed.username || parsed.password) return "URLs may not carry credentials; use headers";
  if (allowPrivateNetworks) return null;
  return unsafeHostReason(parsed.hostname);
}

export function allowsPrivateNetworks(environment: string): boolean {
  return environment === "development";
}
