import { isIP } from "node:net";

/** RFC 4253 §4.2 caps the identification line at 255 characters, CR LF included. */
const MAX_CLIENT_VERSION_LENGTH = 255;

/**
 * The client's identification line as it is stored and shown: printable ASCII, as RFC 4253
 * requires, with anything else escaped as `\xNN`, so a hostile client cannot put control
 * sequences into a record that a terminal or a page later prints.
 */
export function printableClientVersion(raw: string): string {
  const escaped = Array.from(raw, (character) => {
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e && character !== "\\") return character;
    if (character === "\\") return "\\\\";
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  }).join("");
  return escaped.slice(0, MAX_CLIENT_VERSION_LENGTH);
}

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
