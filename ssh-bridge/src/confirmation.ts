import type { ServerChannel } from "ssh2";

/**
 * The user's answer to the must_confirm prompt: with a pty, one key press; without, one line.
 * Anything but `y`, the channel closing, or `deadlineMs` of silence declines.
 */
export function readConfirmation(
  channel: ServerChannel,
  pty: boolean,
  deadlineMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    let buffered = "";
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
      buffered += data.toString("utf8");
      if (pty) return done(buffered[0]?.toLowerCase() === "y");
      const newline = buffered.search(/\r?\n/);
      if (newline >= 0) done(buffered.slice(0, newline).trim().toLowerCase() === "y");
    };
    channel.on("data", onData);
    channel.on("close", onClose);
    channel.on("end", onClose);
  });
}
