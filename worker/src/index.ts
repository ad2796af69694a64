import { buildApp } from "./app.ts";
import type { Env } from "./env.ts";

export { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
export { SessionObject } from "./session-object/session-object.ts";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
