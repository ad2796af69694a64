import { describe, expect, inject, it } from "vitest";
import { executeLocalSql } from "../../scripts/local-dev.ts";
import { bannerText, render } from "../../worker/src/protocol/terminal.ts";
import { printableClientVersion } from "../../worker/src/protocol/terminal-text.ts";
import { normalizeAddress } from "../src/client-identity.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh, ssh2Login } from "./helpers/ssh.ts";

const ctx = useBridge();

/** Bytes that steer a terminal: ESC, BEL, NUL, and the C1 CSI. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must never get through
const STEERING = /[\u0000\u0007\u001b\u009b]/;

describe("text from the API on the user's terminal", () => {
  it("strips escape sequences that older rows still hold from the banner and message", async () => {
    const key = makeKey();
    const session = await ctx.api.createSession("collect", {
      ssh_banner: "placeholder",
      ssh_message: "placeholder",
    });
    // Written straight into D1, as a row from before the API refused them would be.
    executeLocalSql(
      [
        `UPDATE sessions SET
           ssh_banner = 'Acme' || char(27) || ']52;c;ZXZpbA==' || char(7) || ' asks',
           ssh_message = char(27) || '[2J' || char(155) || '31mThanks'
         WHERE id = '${session.id}';`,
      ],
      inject("persistTo"),
    );
    const result = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [key],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(key.sha256);
    expect(result.stderr).toContain("Acme]52;c;ZXZpbA== asks");
    expect(result.stdout).toContain("[2J31mThanks");
    expect(result.stdout).not.toMatch(STEERING);
    expect(result.stderr).not.toMatch(STEERING);
  });

  it("renders lines without control characters, CR LF on a pty", () => {
    expect(render(["a\u001b[2Jb\u0000c", "two\nlines\ttab"], true)).toBe(
      "a[2Jbc\r\ntwo\r\nlines\ttab\r\n",
    );
    expect(bannerText("Hello\u0000\u009b6n\nworld\n")).toBe("Hello6n\r\nworld\r\n");
  });
});

describe("strings a client sends", () => {
  it("stores the client version escaped to printable ASCII", async () => {
    const session = await ctx.api.createSession("collect");
    await ssh2Login({
      port: ctx.bridge.port,
      username: session.connection_identifier,
      ident: "evil\u001b]52;c;ZXZpbA==\u0007",
      tryKeyboard: true,
    });
    await expect
      .poll(async () => (await ctx.api.getSession("collect", session.id)).connections[0])
      .toMatchObject({ client_version: "SSH-2.0-evil\\x1b]52;c;ZXZpbA==\\x07" });
  });

  it("escapes every non-printable character and caps the length", () => {
    expect(printableClientVersion("SSH-2.0-a\\b\u00e9\u4e2d")).toBe("SSH-2.0-a\\\\b\\xe9\\u{4e2d}");
    expect(printableClientVersion(`SSH-2.0-${"x".repeat(400)}`)).toHaveLength(255);
  });

  it("accepts only IP addresses, IPv4-mapped ones as plain IPv4", () => {
    expect(normalizeAddress("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("<img/src=x>;DROP")).toBeNull();
    expect(normalizeAddress(undefined)).toBeNull();
  });
});
