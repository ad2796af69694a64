import { BlockList, isIP, type Socket } from "node:net";

/** PROXY protocol v2 signature (HAProxy's spec, section 2.2). */
const V2_SIGNATURE = Buffer.from([
  0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
]);
const V1_PREFIX = Buffer.from("PROXY ");
const V1_MAX_LENGTH = 107;
/**
 * The most bytes read before the SSH stream while looking for a header. A v2 header may declare
 * 64 KiB of extensions; balancers send well under this, and a peer sending more is refused
 * rather than buffered (what is read is re-parsed whole on every chunk, so it stays small).
 */
export const MAX_PROXY_HEADER_BYTES = 4096;

export interface ProxyHeader {
  /** The client's address as the load balancer saw it; null for LOCAL/UNKNOWN (health checks). */
  sourceAddress: string | null;
}

type ParseResult = { done: false } | { done: true; header: ProxyHeader; consumed: number };

/** Parses a v1 or v2 header from the start of `data`; throws on anything that is not one. */
export function parseProxyHeader(data: Buffer): ParseResult {
  if (data.length >= 1 && data[0] === 0x0d) return parseV2(data);
  if (data.length >= 1 && data[0] === 0x50) return parseV1(data);
  throw new Error("not a PROXY protocol header");
}

function parseV1(data: Buffer): ParseResult {
  const end = data.indexOf("\r\n");
  if (end < 0) {
    if (data.length > V1_MAX_LENGTH) throw new Error("PROXY v1 header too long");
    return { done: false };
  }
  const parts = data.subarray(0, end).toString("latin1").split(" ");
  if (parts[0] !== "PROXY") throw new Error("not a PROXY v1 header");
  if (parts[1] === "UNKNOWN")
    return { done: true, header: { sourceAddress: null }, consumed: end + 2 };
  if ((parts[1] !== "TCP4" && parts[1] !== "TCP6") || parts.length !== 6)
    throw new Error("malformed PROXY v1 header");
  const source = parts[2] ?? "";
  if (isIP(source) !== (parts[1] === "TCP4" ? 4 : 6))
    throw new Error("PROXY v1 source is not an address");
  return { done: true, header: { sourceAddress: source }, consumed: end + 2 };
}

function parseV2(data: Buffer): ParseResult {
  if (data.length < 16) {
    if (
      !V2_SIGNATURE.subarray(0, data.length).equals(data.subarray(0, Math.min(data.length, 12)))
    ) {
      throw new Error("not a PROXY v2 header");
    }
    return { done: false };
  }
  if (!data.subarray(0, 12).equals(V2_SIGNATURE)) throw new Error("not a PROXY v2 header");
  const versionCommand = data[12] ?? 0;
  const family = data[13] ?? 0;
  const length = data.readUInt16BE(14);
  if (versionCommand >> 4 !== 2) throw new Error("unsupported PROXY version");
  if (16 + length > MAX_PROXY_HEADER_BYTES) throw new Error("PROXY v2 header too long");
  if (data.length < 16 + length) return { done: false };
  const consumed = 16 + length;
  const body = data.subarray(16, consumed);
  if ((versionCommand & 0x0f) === 0)
    return { done: true, header: { sourceAddress: null }, consumed };
  if (family >> 4 === 1 && body.length >= 12) {
    return { done: true, header: { sourceAddress: [...body.subarray(0, 4)].join(".") }, consumed };
  }
  if (family >> 4 === 2 && body.length >= 36) {
    const groups = Array.from({ length: 8 }, (_, i) => body.readUInt16BE(i * 2).toString(16));
    return { done: true, header: { sourceAddress: groups.join(":") }, consumed };
  }
  return { done: true, header: { sourceAddress: null }, consumed };
}

/**
 * Whether `data` starts like a PROXY header (v1 `PROXY ` or the v2 signature); null while too
 * few bytes have arrived to tell. An SSH client starts with `SSH-`, so the two never overlap.
 */
export function looksLikeProxyHeader(data: Buffer): boolean | null {
  for (const prefix of [V1_PREFIX, V2_SIGNATURE]) {
    const length = Math.min(data.length, prefix.length);
    if (data.subarray(0, length).equals(prefix.subarray(0, length)))
      return length === prefix.length ? true : null;
  }
  return false;
}
/**
 * Reads from a paused socket until `decide` has an answer, then puts every byte back for ssh2
 * (`keep` says how many were the PROXY header and stay consumed).
 */
function readStart<T>(
  socket: Socket,
  deadlineMs: number,
  decide: (data: Buffer) => { value: T; keep: number } | null,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error("no data in time")), deadlineMs);
    const finish = (error: Error | null, value?: T, rest?: Buffer) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      if (error) return reject(error);
      socket.pause();
      if (rest && rest.length > 0) socket.unshift(rest);
      resolve(value as T);
    };
    const onClose = () => finish(new Error("closed before any data"));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      try {
        const answer = decide(buffered);
        if (answer) finish(null, answer.value, buffered.subarray(answer.keep));
        else if (buffered.length >= MAX_PROXY_HEADER_BYTES)
          throw new Error("PROXY header too long");
      } catch (error) {
        finish(error as Error);
      }
    };
    socket.on("data", onData);
    socket.on("close", onClose);
    // The server accepted it paused (pauseOnConnect) so no byte slips past before the decision.
    socket.resume();
  });
}

/** Reads the header off the socket, putting back whatever SSH bytes followed it. */
export function readProxyHeader(socket: Socket, deadlineMs: number): Promise<ProxyHeader> {
  return readStart(socket, deadlineMs, (data) => {
    const result = parseProxyHeader(data);
    return result.done ? { value: result.header, keep: result.consumed } : null;
  });
}

/** Whether a peer that is not a trusted balancer opens with a PROXY header (a spoofing attempt). */
export function sendsProxyHeader(socket: Socket, deadlineMs: number): Promise<boolean> {
  return readStart(socket, deadlineMs, (data) => {
    const looks = looksLikeProxyHeader(data);
    return looks === null ? null : { value: looks, keep: 0 };
  });
}

/**
 * `PROXY_PROTOCOL_TRUSTED`: comma-separated addresses or CIDRs of the load balancers whose
 * headers are believed. Throws with the entry that cannot be read.
 */
export function parseTrustedProxies(list: string): BlockList {
  const trusted = new BlockList();
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error("no address or CIDR given");
  for (const entry of entries) {
    const [network = "", prefixText] = entry.split("/");
    const family = isIP(network);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
      throw new Error(`"${entry}" is not an IP address or CIDR`);
    }
    trusted.addSubnet(network, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return trusted;
}
