/**
 * Deliveries must not reach the network keyproof runs in. In production a URL is refused when its
 * host is a loopback, private, link-local, shared, reserved or multicast address, a translated
 * IPv6 form of any IPv4 address (mapped, NAT64, 6to4, Teredo), or an internal name. The URL
 * parser has already turned every IPv4 spelling (decimal, hex, octal, short) into dotted form;
 * names are checked without their trailing dots. DNS is not resolved here (docs/webhooks.md).
 */

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
const NON_PUBLIC_IPV4: [number[], number][] = [
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
const REFUSED_IPV6: [number[], number][] = [
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

function inBlock(address: Uint8Array, [lead, prefix]: [number[], number]): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((address[byte] ?? 0) & mask) !== ((lead[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(host: string): Uint8Array | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? Uint8Array.from(bytes) : null;
}

/** The 16 bytes of an IPv6 literal (as the URL parser writes it, or with a dotted IPv4 tail). */
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
