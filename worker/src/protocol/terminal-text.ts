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
