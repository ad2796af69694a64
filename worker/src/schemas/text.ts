import { z } from "zod";
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from "../protocol/terminal-text.ts";

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
