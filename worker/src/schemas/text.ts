import { z } from "zod";
import { isPrivateKeyText, PRIVATE_KEY_MESSAGE } from "../protocol/public-keys.ts";
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from "../protocol/terminal-text.ts";

/** A private key pasted into a free-text field is refused there, as in a key field. */
const noPrivateKey = <T extends z.ZodString>(schema: T) =>
  schema.refine((text) => !isPrivateKeyText(text), PRIVATE_KEY_MESSAGE);

/**
 * A UTF-16 surrogate alone (JSON's "\ud800"): not a character, and no UTF-8 can store it (D1 would
 * keep bytes no SQLite reader takes back).
 */
const LONE_SURROGATE = /\p{Cs}/u;
export const LONE_SURROGATE_MESSAGE =
  "Not Unicode text: it holds half of a UTF-16 surrogate pair (\\ud800–\\udfff) alone";

/**
 * A string that may be shown on a terminal or a page: at most `max` characters, no controls,
 * whole Unicode characters only.
 */
export const displayText = (max: number) =>
  noPrivateKey(z.string().max(max))
    .refine((text) => !LONE_SURROGATE.test(text), LONE_SURROGATE_MESSAGE)
    .refine((text) => !hasControlCharacters(text), CONTROL_CHARACTER_MESSAGE);

/** HTTP header values: visible ASCII and spaces, so every delivery can carry them. */
export const headerValue = (max: number) =>
  noPrivateKey(
    z
      .string()
      .max(max)
      .regex(
        /^[\x20-\x7e]*$/,
        "Header values may contain only visible ASCII characters and spaces",
      ),
  );

/** Whether a free-text field the web app takes outside these schemas (names) may be kept. */
export function freeTextProblem(text: string): string | null {
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  if (isPrivateKeyText(text)) return PRIVATE_KEY_MESSAGE;
  if (hasControlCharacters(text)) return CONTROL_CHARACTER_MESSAGE;
  return null;
}
