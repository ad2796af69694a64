import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import ssh2, { type AuthenticationType } from "ssh2";
import { describe, expect, it } from "vitest";
import { BRIDGE_DEFAULTS } from "../src/limits.ts";
import { useBridge } from "./helpers/context.ts";
import { DEGENERATE_KEYS, ForgingAgent } from "./helpers/forging-agent.ts";
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

/** Once the connection's log line is written: the session kept nothing. Returns the log line. */
async function expectNothingRecorded(sessionId: string) {
  await expect.poll(() => ctx.bridge.logs.some((line) => line.session_id === sessionId)).toBe(true);
  const after = await ctx.api.getSession("collect", sessionId);
  expect(after.status).toBe("pending");
  expect(after.connections[0]?.keys).toEqual([]);
  return ctx.bridge.logs.find((line) => line.session_id === sessionId);
}

describe("proof of possession", () => {
  it.each(["refuse", "garbage"] as const)(
    "never records a key the client cannot sign for (%s)",
    async (mode) => {
      const key = makeKey();
      const session = await ctx.api.createSession("collect", { multi_key: true });
      const agent = new UnprovingAgent(readFileSync(`${key.path}.pub`, "utf8"), mode);
      const output = await connectWithAgent(ctx.bridge.port, session.connection_identifier, agent);
      expect(output).not.toContain("Collected");
      const log = await expectNothingRecorded(session.id);
      expect(log).toMatchObject({ keys_offered: 1, keys_proven: 0 });
    },
  );

  it("tells the user which key was offered but never proven", async () => {
    const key = makeKey();
    const session = await ctx.api.createSession("collect");
    const agent = new UnprovingAgent(readFileSync(`${key.path}.pub`, "utf8"), "garbage");
    const output = await connectWithAgent(ctx.bridge.port, session.connection_identifier, agent);
    expect(output.indexOf("Not proven:")).toBeGreaterThan(-1);
    expect(output.indexOf(key.sha256)).toBeGreaterThan(output.indexOf("Not proven:"));
    expect(output).toContain("never signed with it");
    expect(output).not.toContain("No SSH key was offered");
  });
});

const fingerprint = (blob: Buffer) =>
  `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;

describe("degenerate keys", () => {
  it.each([
    ["a small-order Ed25519 point", DEGENERATE_KEYS.ed25519Identity, "this key is degenerate"],
    ["an RSA key with e = 1", DEGENERATE_KEYS.rsaExponentOne, "this key is degenerate"],
  ])("refuses %s, for which a signature needs no private key", async (_, blob, reason) => {
    const session = await ctx.api.createSession("collect", { multi_key: true });
    const output = await connectWithAgent(
      ctx.bridge.port,
      session.connection_identifier,
      new ForgingAgent(blob),
    );
    expect(output).toContain(`Refused ${fingerprint(blob)}: `);
    expect(output).toContain(reason);
    expect(output).not.toContain("No SSH key was offered");
    expect(await expectNothingRecorded(session.id)).toMatchObject({
      keys_refused: 1,
      signatures_checked: 0,
    });
  });
});

/**
 * Authenticates again and again until the bridge hangs up (or `times` runs out); resolves with
 * the number of attempts made.
 */
function hammer(
  port: number,
  username: string,
  attempt: () => { type: AuthenticationType } & Record<string, unknown>,
  times: number,
): Promise<number> {
  return new Promise((resolve) => {
    let tries = 0;
    const client = new ssh2.Client();
    const done = () => resolve(tries);
    client
      .on("error", done)
      .on("close", done)
      .on("ready", () => client.end());
    client.connect({
      host: "127.0.0.1",
      port,
      username,
      readyTimeout: 30_000,
      authHandler: (_methods, _partial, next) => {
        if (tries++ >= times) return next(false as never);
        next({ username, ...attempt() } as never);
      },
    });
  });
}

describe("a client that never stops asking", () => {
  it("is cut off after the cap on signature checks", async () => {
    const key = makeKey();
    const agent = new UnprovingAgent(readFileSync(`${key.path}.pub`, "utf8"), "garbage");
    const session = await ctx.api.createSession("collect");
    const tries = await hammer(
      ctx.bridge.port,
      session.connection_identifier,
      () => ({ type: "agent", agent }),
      500,
    );
    expect(tries).toBeLessThan(500);
    await expect
      .poll(() => ctx.bridge.logs.find((line) => line.session_id === session.id), {
        timeout: 5_000,
      })
      .toMatchObject({
        outcome: "too_many_signatures",
        signatures_checked: BRIDGE_DEFAULTS.maxSignatureChecks,
        keys_proven: 0,
      });
  });

  it("is cut off after the cap on authentication requests", async () => {
    const session = await ctx.api.createSession("collect");
    const tries = await hammer(
      ctx.bridge.port,
      session.connection_identifier,
      () => ({ type: "none" }),
      500,
    );
    expect(tries).toBeLessThan(500);
    await expect
      .poll(() => ctx.bridge.logs.find((line) => line.session_id === session.id), {
        timeout: 5_000,
      })
      .toMatchObject({ outcome: "too_many_auth_requests" });
  });
});
