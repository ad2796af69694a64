import type { Env } from "../env.ts";
import { addressBytes } from "../protocol/ip-addresses.ts";

/**
 * A local run (`npm start`) listens on loopback only and has no edge in front, so every caller
 * is this machine, whatever a request's headers claim.
 */
const LOCAL_CALLER = "127.0.0.1";
/** No address could be read: one shared bucket for per-address limits. */
const UNKNOWN_CALLER = "0.0.0.0";

/**
 * Who is calling. On Cloudflare the edge sets `cf-connecting-ip` itself and drops any a client
 * sent, so with TRUST_CF_CONNECTING_IP it is believed, once it reads as an address; without it
 * (local runs) the header is ignored, so a client cannot pick its own address.
 */
export function clientAddress(headers: Headers, env: Pick<Env, "TRUST_CF_CONNECTING_IP">): string {
  if (env.TRUST_CF_CONNECTING_IP !== "true") return LOCAL_CALLER;
  const header = headers.get("cf-connecting-ip")?.trim() ?? "";
  const bytes = addressBytes(header);
  if (!bytes) return UNKNOWN_CALLER;
  // One spelling per address: IPv4-mapped IPv6 as IPv4, IPv6 lower case.
  return bytes.length === 4 ? bytes.join(".") : header.toLowerCase();
}
