import type { Connection } from "ssh2";
// ssh2 sends one server-wide banner before the username is known; a per-session banner needs
// SSH_MSG_USERAUTH_BANNER (RFC 4252 §5.4) written through the connection's own packet writer.
// A static import, so the bundle (scripts/build-bridge.ts) carries it.
import ssh2Utils from "ssh2/lib/protocol/utils.js";
import { bannerText } from "../../worker/src/protocol/terminal.ts";

const { sendPacket } = ssh2Utils;
const USERAUTH_BANNER = 53;

interface PacketWriter {
  allocStart: number;
  alloc(size: number): Buffer;
  finalize(packet: Buffer): Buffer;
}

/** Shows `text` to the user during authentication (OpenSSH prints it on stderr). */
export function sendUserauthBanner(connection: Connection, text: string) {
  const protocol = (connection as unknown as { _protocol?: { _packetRW: { write: PacketWriter } } })
    ._protocol;
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
