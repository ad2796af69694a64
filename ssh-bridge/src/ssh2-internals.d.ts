/** The one ssh2 internal the bridge uses (ssh2-packets.ts): writes a packet on a connection. */
declare module "ssh2/lib/protocol/utils.js" {
  const utils: { sendPacket(protocol: unknown, packet: Buffer, bypass?: boolean): void };
  export default utils;
}
