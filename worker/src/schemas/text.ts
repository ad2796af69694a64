import { z } from "zod";

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

/** A string that may be shown on a terminal or a page: at most `max` characters, no controls. */
export const displayText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !hasControlCharacters(text), CONTROL_CHARACTER_MESSAGE);

/** HTTP header values: visible ASCII and spaces, so every delivery can carry them. */
export const headerValue = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\x20-\x7e]*$/, "Header values may contain only visible ASCII characters and spaces");
