import { connect } from "node:net";

/** Whether something on 127.0.0.1:`port` greets a new TCP connection with an SSH identification. */
export function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("SSH-2.0-"));
    });
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(false));
  });
}

/** Waits (up to `timeoutMs`) until an SSH server listens on `port`. */
export async function waitForGreeting(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await greets(port))) {
    if (Date.now() > deadline) throw new Error(`no SSH server on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
