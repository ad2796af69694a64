/** The one ssh2 internal the bridge uses (userauth-banner.ts): writes a packet on a connection. */
declare module "ssh2/lib/protocol/utils.js" {
  const utils: { sendPacket(protocol: unknown, packet: Buffer): void };
  export default utils;
}
