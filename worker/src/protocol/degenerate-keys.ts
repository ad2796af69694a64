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

/**
 * Doubles a point in projective coordinates (X : Y : Z), x = X/Z and y = Y/Z, on the curve with
 * a = -1 (the "dbl-2008-bbjlp" formulas): no inversion, where affine doubling needs two
 * 255-bit exponentiations.
 */
function double([X, Y, Z]: [bigint, bigint, bigint]): [bigint, bigint, bigint] {
  const B = mod((X + Y) * (X + Y));
  const C = mod(X * X);
  const D2 = mod(Y * Y);
  const E = mod(-C);
  const F = mod(E + D2);
  const J = mod(F - 2n * mod(Z * Z));
  return [mod((B - C - D2) * J), mod(F * (E - D2)), mod(F * J)];
}

export function ed25519KeyProblem(publicKey: Uint8Array): string | null {
  if (publicKey.length !== 32) return "An Ed25519 key is 32 bytes";
  const point = decodePoint(publicKey);
  if (!point) return "The Ed25519 key is not a valid point on the curve";
  let projective: [bigint, bigint, bigint] = [point.x, point.y, 1n];
  for (let i = 0; i < COFACTOR_DOUBLINGS; i++) projective = double(projective);
  const [X, Y, Z] = projective;
  // The identity (0, 1): X = 0 and Y = Z.
  if (X === 0n && Y === Z && Z !== 0n) {
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
