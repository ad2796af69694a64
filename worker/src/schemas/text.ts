import { z } from "zod";
import { isPrivateKeyText, PRIVATE_KEY_MESSAGE } from "../protocol/public-keys.ts";
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from "../protocol/terminal-text.ts";

/** A private key pasted into a free-text field is refused there, as in a key field. */
const noPrivateKey = <T extends z.ZodString>(schema: T) =>
  schema.refine((text) => !isPrivateKeyText(text), PRIVATE_KEY_MESSAGE);

/** A string that may be shown on a terminal or a page: at most `max` characters, no controls. */
export const displayText = (max: number) =>
  noPrivateKey(z.string().max(max)).refine(
    (text) => !hasControlCharacters(text),
    CONTROL_CHARACTER_MESSAGE,
  );

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
  if (isPrivateKeyText(text)) return PRIVATE_KEY_MESSAGE;
  if (hasControlCharacters(text)) return CONTROL_CHARACTER_MESSAGE;
  return null;
}
