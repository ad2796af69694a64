import { createRequire } from "node:module";
import type { Connection } from "ssh2";
import { bannerText } from "../../worker/src/protocol/terminal.ts";

const require = createRequire(import.meta.url);
// ssh2 sends one server-wide banner before the username is known; a per-session banner needs
// SSH_MSG_USERAUTH_BANNER (RFC 4252 §5.4) written through the connection's own packet writer.
const { sendPacket } = require("ssh2/lib/protocol/utils.js") as {
  sendPacket: (protocol: unknown, packet: Buffer) => void;
};
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
