import { Buffer } from "node:buffer";

/** A malformed SSH wire-format structure; `what` names the field that could not be read. */
export class SshWireError extends Error {}

/** Reads SSH wire-format values (RFC 4251 §5): uint32, length-prefixed strings, mpints. */
export class SshReader {
  #offset = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  uint32(what: string): number {
    if (this.#offset + 4 > this.bytes.length) throw new SshWireError(`ends before its ${what}`);
    const value = new DataView(
      this.bytes.buffer,
      this.bytes.byteOffset + this.#offset,
      4,
    ).getUint32(0);
    this.#offset += 4;
    return value;
  }

  uint64(what: string): bigint {
    const high = BigInt(this.uint32(what));
    return (high << 32n) | BigInt(this.uint32(what));
  }

  byte(what: string): number {
    const value = this.bytes[this.#offset];
    if (value === undefined) throw new SshWireError(`ends before its ${what}`);
    this.#offset += 1;
    return value;
  }

  string(what: string): Uint8Array {
    const length = this.uint32(what);
    const start = this.#offset;
    if (start + length > this.bytes.length) throw new SshWireError(`ends inside its ${what}`);
    this.#offset = start + length;
    return this.bytes.subarray(start, start + length);
  }

  /** Moves past `count` bytes the caller has looked at itself. */
  skip(count: number): void {
    if (this.#offset + count > this.bytes.length) throw new SshWireError("ends too soon");
    this.#offset += count;
  }

  text(what: string): string {
    return new TextDecoder().decode(this.string(what));
  }

  get offset(): number {
    return this.#offset;
  }

  done(): boolean {
    return this.#offset === this.bytes.length;
  }
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

/** SSH strings: each part with its uint32 length in front. */
export function sshStrings(...parts: Uint8Array[]): Uint8Array {
  return concat(
    ...parts.flatMap((part) => {
      const length = new Uint8Array(4);
      new DataView(length.buffer).setUint32(0, part.length);
      return [length, part];
    }),
  );
}

export function stripZeros(value: Uint8Array): Uint8Array {
  let start = 0;
  while (start < value.length && value[start] === 0) start++;
  return value.subarray(start);
}

/** SSH mpint: big-endian, with a leading zero byte when the top bit is set. */
export function mpint(value: Uint8Array): Uint8Array {
  const stripped = stripZeros(value);
  return stripped.length > 0 && (stripped[0] ?? 0) & 0x80
    ? concat(Uint8Array.of(0), stripped)
    : stripped;
}

export function bitLength(value: Uint8Array): number {
  const stripped = stripZeros(value);
  if (stripped.length === 0) return 0;
  return (stripped.length - 1) * 8 + (32 - Math.clz32(stripped[0] ?? 0));
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes standard base64, refusing anything Buffer would silently skip over. */
export function decodeBase64Strict(text: string): Uint8Array | null {
  if (!STRICT_BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, "base64"));
}
