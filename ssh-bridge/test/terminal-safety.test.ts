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
    // A session from before the API refused them (and before objects held sessions): only in D1.
    const session = await legacySession({
      ssh_banner: "'Acme' || char(27) || ']52;c;ZXZpbA==' || char(7) || ' asks'",
      ssh_message: "char(27) || '[2J' || char(155) || '31mThanks'",
    });
    const result = await runSsh({
      port: ctx.bridge.port,
      user: session.connection_identifier,
      keys: [key],
    });
    expect(result.code, result.stderr).toBe(0);
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

/** A pending collection session written straight into D1, as the service kept them before 2026-11. */
async function legacySession(columns: Record<string, string>) {
  const { project_id: projectId } = await ctx.api.request<{ project_id: string }>(
    "GET",
    "/auth/info/",
  );
  const random = (length: number) =>
    Array.from(
      { length },
      () => "0123456789abcdefghjkmnpqrstvwxyz"[Math.floor(Math.random() * 32)],
    ).join("");
  const id = `cs_${random(26)}`;
  const identifier = random(26);
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  const names = Object.keys(columns).join(", ");
  const values = Object.values(columns).join(", ");
  executeLocalSql(
    [
      `INSERT INTO sessions (id, project_id, kind, connection_identifier, status, multi_key,
         multi_connection, must_confirm, match_all_keys, max_attempts, failed_attempts,
         signature_challenge, expired_at, created_at, updated_at, ${names})
       VALUES ('${id}', '${projectId}', 'collect', '${identifier}', 'pending', 0, 0, 0, 0, 1, 0,
         'keyproof:${random(26)}', '${expires}', '${now}', '${now}', ${values});`,
    ],
    inject("persistTo"),
  );
  return { id, connection_identifier: identifier };
}

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
