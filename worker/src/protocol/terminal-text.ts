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
