import type * as Http from "node:http";
import type * as Https from "node:https";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * node:http, required rather than imported. An ES import of it makes Node fill in every export,
 * and three of them (WebSocket, CloseEvent, MessageEvent) load Node's fetch, undici, to do so:
 * 0.7 MB of source and its compiled code in the bridge's resting memory, for nothing it uses
 * (bench/bridge-memory.ts).
 */
export const http: typeof Http = require("node:http");

/** node:https, loaded by the first call to an https Worker (a local one is http). */
export const https = (): typeof Https => require("node:https");
