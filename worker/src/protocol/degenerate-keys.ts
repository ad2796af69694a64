/**
 * Public keys for which a valid signature proves nothing, which the platform's key importers
 * accept anyway. For an Ed25519 key of small order, (R = identity, S = 0) verifies against any
 * message; for RSA with e = 1 the padded digest is its own signature. Each check returns the
 * sentence to show, or null for a sound key.
 */

const P = 2n ** 255n - 19n;
const mod = (value: bigint) => ((value % P) + P) % P;

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let square = mod(base);
  for (let rest = exponent; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = mod(result * square);
    square = mod(square * square);
  }
  return result;
}

const inverse = (value: bigint) => power(value, P - 2n);
/** The curve constant d = -121665/121666 and a square root of -1, both mod p (RFC 8032 §5.1). */
const D = mod(-121665n * inverse(121666n));
const SQRT_MINUS_ONE = power(2n, (P - 1n) / 4n);
/** Small-order points are the ones that the cofactor 8 takes to the identity. */
const COFACTOR_DOUBLINGS = 3;

interface Point {
  x: bigint;
  y: bigint;
}

/** Decodes a 32-byte point as RFC 8032 §5.1.3 does; null when it is not a canonical point. */
function decodePoint(bytes: Uint8Array): Point | null {
  let encoded = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) encoded = (encoded << 8n) | BigInt(bytes[i] ?? 0);
  const sign = encoded >> 255n;
  const y = encoded & ((1n << 255n) - 1n);
  if (y >= P) return null;
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * power(v, 3n) * power(u * power(v, 7n), (P - 5n) / 8n));
  const check = mod(v * x * x);
  if (check !== u) {
    if (check !== mod(-u)) return null;
    x = mod(x * SQRT_MINUS_ONE);
  }
  if (x === 0n && sign === 1n) return null;
  if ((x & 1n) !== sign) x = mod(-x);
  return { x, y };
}

/** Twisted Edwards addition (a = -1); complete on Ed25519, so it also doubles. */
function add(a: Point, b: Point): Point {
  const t = mod(D * a.x * b.x * a.y * b.y);
  return {
    x: mod((a.x * b.y + a.y * b.x) * inverse(1n + t)),
    y: mod((a.y * b.y + a.x * b.x) * inverse(1n - t)),
  };
}

export function ed25519KeyProblem(publicKey: Uint8Array): string | null {
  if (publicKey.length !== 32) return "An Ed25519 key is 32 bytes";
  let point = decodePoint(publicKey);
  if (!point) return "The Ed25519 key is not a valid point on the curve";
  for (let i = 0; i < COFACTOR_DOUBLINGS; i++) point = add(point, point);
  if (point.x === 0n && point.y === 1n) {
    return "The Ed25519 key is a small-order point, for which anyone can make a signature";
  }
  return null;
}

/** An exponent must be odd and in [3, 2^33): e = 1 forges, and a huge one makes each check slow. */
export const MAX_RSA_EXPONENT_BITS = 33;

export function rsaKeyProblem(exponent: Uint8Array, modulus: Uint8Array): string | null {
  const e = exponent.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
  if (e < 3n || e >= 1n << BigInt(MAX_RSA_EXPONENT_BITS) || e % 2n === 0n) {
    return "The RSA public exponent must be odd, at least 3 and below 2^33";
  }
  if (((modulus.at(-1) ?? 0) & 1) === 0) return "The RSA modulus is even, so it is not an RSA key";
  return null;
}
