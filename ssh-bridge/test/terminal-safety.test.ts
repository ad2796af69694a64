import { describe, expect, it } from "vitest";
import { bannerText, render } from "../../worker/src/protocol/terminal.ts";
import { printableClientVersion } from "../../worker/src/protocol/terminal-text.ts";
import { normalizeAddress } from "../src/client-identity.ts";
import { useBridge } from "./helpers/context.ts";
import { ssh2Login } from "./helpers/ssh.ts";

const ctx = useBridge();

/** Bytes that steer a terminal: ESC, BEL, NUL, and the C1 CSI. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must never get through
const _STEERING = /[\u0000\u0007\u001b\u009b]/;

describe("text from the API on the user's terminal", () => {
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

  it("accepts only IP addresses, one spelling each: IPv6 compressed, IPv4-mapped as plain IPv4", () => {
    expect(normalizeAddress("::ffff:198.51.100.7")).toBe("198.51.100.7");
    // What a PROXY v2 header's 16 bytes spell out in full.
    expect(normalizeAddress("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(normalizeAddress("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(normalizeAddress("0:0:0:0:0:ffff:c633:6407")).toBe("198.51.100.7");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("<img/src=x>;DROP")).toBeNull();
    expect(normalizeAddress(undefined)).toBeNull();
  });
});
