import type { ServerChannel } from "ssh2";
import type { ProvenKeyView } from "../../worker/src/protocol/key-outcomes.ts";
import type { SessionKind } from "../../worker/src/protocol/messages.ts";
import { confirmPromptLines, render } from "../../worker/src/protocol/terminal.ts";

/**
 * The longest answer read without a terminal: "y" and a line ending, with room for spaces. Past
 * this the answer is a decline, so one client's input never costs the bridge more than this.
 */
export const MAX_ANSWER_BYTES = 256;

/** What the bytes so far say: not yet, or the user's answer. */
export type AnswerState = { decided: false; bytes: number } | { decided: true; confirmed: boolean };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Reads one more chunk of a typed answer. With a pty the first byte is the answer; without, the
 * first line is (CR or LF ends it). Only the new chunk is scanned, and at most up to the limit.
 */
export function readAnswer(
  state: { answer: number[] },
  chunk: Uint8Array,
  pty: boolean,
): AnswerState {
  const room = MAX_ANSWER_BYTES - state.answer.length;
  for (let i = 0; i < chunk.length && i <= room; i++) {
    const byte = chunk[i] as number;
    if (pty) return { decided: true, confirmed: byte === 0x79 || byte === 0x59 };
    if (byte === NEWLINE || byte === CARRIAGE_RETURN) {
      const line = Buffer.from(state.answer).toString("latin1").trim().toLowerCase();
      return { decided: true, confirmed: line === "y" };
    }
    if (i === room) return { decided: true, confirmed: false };
    state.answer.push(byte);
  }
  return { decided: false, bytes: state.answer.length };
}

/**
 * The user's answer to the must_confirm prompt: with a pty, one key press; without, one line.
 * Anything but `y`, an answer longer than MAX_ANSWER_BYTES, the channel closing, or `deadlineMs`
 * of silence declines.
 */
export function readConfirmation(
  channel: ServerChannel,
  pty: boolean,
  deadlineMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const state = { answer: [] as number[] };
    const done = (answer: boolean) => {
      clearTimeout(deadline);
      channel.off("data", onData);
      channel.off("close", onClose);
      channel.off("end", onClose);
      resolve(answer);
    };
    const deadline = setTimeout(() => done(false), deadlineMs);
    const onClose = () => done(false);
    const onData = (data: Buffer) => {
      const read = readAnswer(state, data, pty);
      if (read.decided) done(read.confirmed);
    };
    channel.on("data", onData);
    channel.on("close", onClose);
    channel.on("end", onClose);
  });
}

/**
 * The must_confirm prompt: the proven keys shown, the cursor left after the question, and the
 * answer read (readConfirmation). `onPrompt` hears when the prompt is on the screen and when not.
 */
export async function askToConfirm(
  channel: ServerChannel,
  prompt: { kind: SessionKind; proven: ProvenKeyView[]; pty: boolean; deadlineMs: number },
  onPrompt: (shown: boolean) => void,
): Promise<boolean> {
  const lines = confirmPromptLines(prompt.kind, prompt.proven, prompt.pty);
  channel.write(render(lines, prompt.pty).replace(/\r?\n$/, ""));
  onPrompt(true);
  const confirmed = await readConfirmation(channel, prompt.pty, prompt.deadlineMs);
  onPrompt(false);
  return confirmed;
}
