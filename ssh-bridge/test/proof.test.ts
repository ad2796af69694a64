import { readFileSync } from "node:fs";
import ssh2 from "ssh2";
import { describe, expect, it } from "vitest";
import { useBridge } from "./helpers/context.ts";
import { makeKey } from "./helpers/ssh.ts";

const ctx = useBridge();

/** An agent that lists a key but never signs, or signs garbage: the key is offered, never proven. */
class UnprovingAgent extends ssh2.BaseAgent {
  readonly #publicKey: ssh2.ParsedKey;
  readonly #mode: "refuse" | "garbage";

  constructor(publicKeyText: string, mode: "refuse" | "garbage") {
    super();
    const parsed = ssh2.utils.parseKey(publicKeyText);
    if (parsed instanceof Error) throw parsed;
    this.#publicKey = parsed;
    this.#mode = mode;
  }

  override getIdentities(callback: (error: Error | undefined, keys?: ssh2.ParsedKey[]) => void) {
    callback(undefined, [this.#publicKey]);
  }

  override sign(_key: ssh2.ParsedKey, _data: Buffer, ...rest: unknown[]) {
    const callback = rest.at(-1) as (error?: Error, signature?: Buffer) => void;
    if (this.#mode === "refuse") callback(new Error("this agent does not sign"));
    else callback(undefined, Buffer.alloc(64, 7));
  }
}

/**
 * Connects with the ssh2 client library, offering the key through `agent`, then runs a shell.
 * ssh2 gives up on the connection when its agent cannot sign; that ends it here too.
 */
function connectWithAgent(port: number, username: string, agent: ssh2.BaseAgent): Promise<string> {
  return new Promise((resolve) => {
    const client = new ssh2.Client();
    let output = "";
    client
      .on("ready", () => {
        client.shell(false, (error, stream) => {
          if (error) return resolve(output);
          stream.on("data", (data: Buffer) => (output += data.toString()));
          stream.on("close", () => {
            client.end();
            resolve(output);
          });
        });
      })
      .on("keyboard-interactive", (_name, _instructions, _lang, _prompts, finish) => finish([]))
      .on("error", () => resolve(output))
      .connect({
        host: "127.0.0.1",
        port,
        username,
        agent,
        tryKeyboard: true,
        readyTimeout: 10_000,
      });
  });
}

describe("proof of possession", () => {
  it.each(["refuse", "garbage"] as const)(
    "never records a key the client cannot sign for (%s)",
    async (mode) => {
      const key = makeKey();
      const session = await ctx.api.createSession("collect", { multi_key: true });
      const agent = new UnprovingAgent(readFileSync(`${key.path}.pub`, "utf8"), mode);
      const output = await connectWithAgent(ctx.bridge.port, session.connection_identifier, agent);
      expect(output).not.toContain(key.sha256);
      await expect
        .poll(() => ctx.bridge.logs.some((line) => line.session_id === session.id))
        .toBe(true);
      const after = await ctx.api.getSession("collect", session.id);
      expect(after.status).toBe("pending");
      expect(after.connections[0]?.keys).toEqual([]);
      const log = ctx.bridge.logs.find((line) => line.session_id === session.id);
      expect(log).toMatchObject({ keys_offered: 1, keys_proven: 0 });
    },
  );
});
