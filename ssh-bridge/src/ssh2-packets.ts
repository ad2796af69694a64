import type { Connection } from "ssh2";
// Two messages ssh2 cannot send as the bridge needs them, written through the connection's own
// packet writer (ssh2 is pinned to one version; the bridge's tests read both with real OpenSSH):
// ssh2 sends one server-wide banner before the username is known, and a per-session banner needs
// SSH_MSG_USERAUTH_BANNER (RFC 4252 §5.4); ssh2's DISCONNECT has an empty description, which
// OpenSSH prints as "Received disconnect from …:11: " with nothing after it.
// A static import, so the bundle (scripts/build-bridge.ts) carries it.
import ssh2Utils from "ssh2/lib/protocol/utils.js";
import { bannerText } from "../../worker/src/protocol/terminal.ts";

const { sendPacket } = ssh2Utils;
const USERAUTH_BANNER = 53;
const DISCONNECT = 1;
const DISCONNECT_BY_APPLICATION = 11;

interface PacketWriter {
  allocStart: number;
  /** Where a packet starts that may be sent in the middle of a key exchange. */
  allocStartKEX: number;
  alloc(size: number, force?: boolean): Buffer;
  finalize(packet: Buffer, force?: boolean): Buffer;
}

const writerOf = (connection: Connection) =>
  (connection as unknown as { _protocol?: { _packetRW: { write: PacketWriter } } })._protocol;

/** Shows `text` to the user during authentication (OpenSSH prints it on stderr). */
export function sendUserauthBanner(connection: Connection, text: string) {
  const protocol = writerOf(connection);
  if (!protocol) return;
  const message = Buffer.from(bannerText(text), "utf8");
  const writer = protocol._packetRW.write;
  let offset = writer.allocStart;
  const packet = writer.alloc(1 + 4 + message.length + 4);
  packet[offset] = USERAUTH_BANNER;
  packet.writeUInt32BE(message.length, ++offset);
  offset += 4;
  message.copy(packet, offset);
  packet.writeUInt32BE(0, offset + message.length); // empty language tag
  sendPacket(protocol, writer.finalize(packet));
}

/**
 * Ends the connection with SSH_MSG_DISCONNECT (RFC 4253 §11.1, "by application") saying why, as
 * sshd's "Too many authentication failures" does, then closes the socket. Sent even in the middle
 * of a key exchange, as ssh2's own is. Without ssh2's internals: its own, empty DISCONNECT.
 */
export function sendDisconnect(connection: Connection, description: string) {
  const protocol = writerOf(connection);
  const socket = (connection as unknown as { _sock?: { writable: boolean; end(): void } })._sock;
  if (!protocol || !socket) {
    connection.end();
    return;
  }
  if (!socket.writable) return;
  const text = Buffer.from(description, "utf8");
  const writer = protocol._packetRW.write;
  const start = writer.allocStartKEX;
  const packet = writer.alloc(1 + 4 + 4 + text.length + 4, true);
  packet[start] = DISCONNECT;
  packet.writeUInt32BE(DISCONNECT_BY_APPLICATION, start + 1);
  packet.writeUInt32BE(text.length, start + 5);
  text.copy(packet, start + 9);
  packet.writeUInt32BE(0, start + 9 + text.length); // empty language tag
  sendPacket(protocol, writer.finalize(packet, true), true);
  socket.end();
}

/** Why the bridge ended a connection, as OpenSSH prints it after "Received disconnect from …:11:". */
const DISCONNECT_REASONS: Record<string, string> = {
  auth_timeout: "keyproof: the client did not finish signing in in time",
  too_many_auth_requests: "keyproof: too many authentication requests",
  no_session_channel: "keyproof: the connection opened no session (run ssh without -N)",
  error: "keyproof: the connection ended on an error",
  lifetime_exceeded: "keyproof: the connection's time is up",
};

export function disconnectReason(outcome: string): string {
  if (outcome.startsWith("refused_") || outcome === "unavailable")
    return "keyproof did not open this connection: the reason is above";
  return DISCONNECT_REASONS[outcome] ?? "keyproof: the connection is over";
}
