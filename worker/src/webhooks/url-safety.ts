/**
 * Deliveries must not reach the service's own network: loopback, private, link-local, CGNAT and
 * cloud metadata addresses are refused in production. Local development allows them
 * (ENVIRONMENT=development), so a receiver on 127.0.0.1 works.
 */
const BLOCKED_HOSTNAMES =
  /^(localhost|metadata|metadata\.google\.internal|instance-data)$|\.(localhost|local|internal|home\.arpa)$/i;

function privateIPv4(host: string): boolean {
  const parts = host.split(".").map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255))
    return false;
  const [a = 0, b = 0] = parts;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function privateIPv6(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (!address.includes(":")) return false;
  if (address === "::1" || address === "::") return true;
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped?.[1]) return privateIPv4(mapped[1]);
  // URL parsing rewrites ::ffff:10.0.0.1 as ::ffff:a00:1; read the IPv4 address back out of it.
  const mappedHex = address.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (mappedHex?.[1] && mappedHex[2]) {
    const high = Number.parseInt(mappedHex[1], 16);
    const low = Number.parseInt(mappedHex[2], 16);
    return privateIPv4([high >> 8, high & 255, low >> 8, low & 255].join("."));
  }
  return /^f[cd]/.test(address) || /^fe[89ab]/.test(address);
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
  const host = parsed.hostname;
  if (BLOCKED_HOSTNAMES.test(host) || privateIPv4(host) || privateIPv6(host)) {
    return "Loopback, private, link-local and metadata addresses are not allowed";
  }
  return null;
}

export function allowsPrivateNetworks(environment: string): boolean {
  return environment === "development";
}
