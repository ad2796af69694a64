import { describe, expect, it } from "vitest";
import { parseProxyHeader } from "../src/proxy-protocol.ts";

const V2 = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

describe("parseProxyHeader", () => {
  it("reads v1 TCP4 and TCP6 and leaves the SSH bytes after it", () => {
    const data = Buffer.from("PROXY TCP6 2001:db8::1 ::1 5555 22\r\nSSH-2.0-x\r\n");
    const result = parseProxyHeader(data);
    expect(result).toEqual({ done: true, header: { sourceAddress: "2001:db8::1" }, consumed: 36 });
    expect(data.subarray(36).toString()).toBe("SSH-2.0-x\r\n");
    expect(parseProxyHeader(Buffer.from("PROXY UNKNOWN\r\n"))).toMatchObject({
      header: { sourceAddress: null },
    });
  });

  it("waits for more bytes of an incomplete header", () => {
    expect(parseProxyHeader(Buffer.from("PROXY TCP4 1.2"))).toEqual({ done: false });
    expect(parseProxyHeader(V2.subarray(0, 8))).toEqual({ done: false });
  });

  it("reads v2 IPv6 and LOCAL", () => {
    const v6 = Buffer.alloc(36);
    v6.writeUInt16BE(0x2001, 0);
    v6.writeUInt16BE(0x0db8, 2);
    v6.writeUInt16BE(1, 14);
    const header = Buffer.concat([V2, Buffer.from([0x21, 0x21, 0, 36]), v6]);
    expect(parseProxyHeader(header)).toMatchObject({
      header: { sourceAddress: "2001:db8:0:0:0:0:0:1" },
      consumed: 52,
    });
    const local = Buffer.concat([V2, Buffer.from([0x20, 0x00, 0, 0])]);
    expect(parseProxyHeader(local)).toMatchObject({
      header: { sourceAddress: null },
      consumed: 16,
    });
  });

  it.each([
    ["SSH without a header", "SSH-2.0-OpenSSH_9.6\r\n"],
    ["a bad v1 header", "PROXY TCP4 only-three-fields\r\n"],
    ["an overlong v1 line", `PROXY ${"x".repeat(200)}`],
  ])("refuses %s", (_, text) => {
    expect(() => parseProxyHeader(Buffer.from(text))).toThrow();
  });
});
