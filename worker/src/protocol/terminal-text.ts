/**
 * C0 controls other than tab and newline, DEL, and C1 controls. Any of them reaching a terminal
 * can move the cursor, clear the screen or write the clipboard (OSC 52); a NUL makes OpenSSH
 * abort the login. Text that the bridge or a page shows never carries them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, "g");

export const CONTROL_CHARACTER_MESSAGE =
  "Control characters (other than newline and tab) are not allowed";

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** What the bridge does to any text it did not write itself, whatever the API let through. */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

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
 * Characters that can change how the text around them reads or moves the cursor: controls, and
 * Unicode's invisible format characters (bidirectional overrides such as U+202E, which can
 * reverse a fingerprint shown beside them; zero-width joiners) and line separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\\]/gu;

/**
 * Text a client chose (a certificate's key id, principals, options), as OpenSSH's logs write it
 * (vis(3) with VIS_SAFE | VIS_OCTAL): every unsafe character as the octal escapes of its UTF-8
 * bytes, and a backslash doubled, so the escaping is one-to-one and the text is safe anywhere.
 */
export function escapeUntrustedText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (character) =>
    character === "\\"
      ? "\\\\"
      : Array.from(
          new TextEncoder().encode(character),
          (byte) => `\\${byte.toString(8).padStart(3, "0")}`,
        ).join(""),
  );
}
