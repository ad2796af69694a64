import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../app-env.ts";
import type { ProjectContext } from "../domain/context.ts";
import { clientAddress } from "../lib/client-address.ts";
import { log } from "../lib/log.ts";

/** The API and the bridge's internal calls: each gets one log line; pages and assets do not. */
const LOGGED_PREFIXES = ["/api/", "/internal/"];
/** Asked every few seconds by every bridge: worth a line only when debugging. */
const PROBES = new Set(["/internal/v1/health"]);
/**
 * The bridge's calls: the bridge logs every connection itself, with the same request id, so the
 * Worker's line for a call that succeeded says nothing new (and each is a billed Workers Logs
 * event): at `info` only when it failed, else at `debug`.
 */
const BRIDGE_CALLS = "/internal/";

/** REQUEST_LOG_SUCCESS_ONE_IN as a number (default 1: every line), null when it is not one. */
export function successLogOneIn(setting: string | undefined): number | null {
  const text = (setting ?? "1").trim();
  return /^[1-9]\d*$/.test(text) ? Number(text) : null;
}

/** API requests that succeeded, counted by this isolate: which one in N gets its line. */
let succeeded = 0;

/**
 * Whether an API request that succeeded is logged at `info`: one in REQUEST_LOG_SUCCESS_ONE_IN
 * (wrangler.toml: 10), counted here, so a fixed share and not a random one. Each line is a billed
 * Workers Logs event; a failure is always logged, and head sampling (which would drop
 * failures as often) stays at 1.
 */
function sampledSuccess(env: AppEnv["Bindings"]) {
  const oneIn = successLogOneIn(env.REQUEST_LOG_SUCCESS_ONE_IN) ?? 1;
  succeeded = (succeeded + 1) % oneIn;
  return succeeded === 0;
}

/** What changes data for good or who may act: logged every time, never sampled. */
const DESTRUCTIVE_API = [
  (method: string) => method === "DELETE",
  (method: string, path: string) => method === "POST" && /\/redact\/?$/.test(path),
  (method: string, path: string) => method === "PATCH" && /^\/api\/v1\/project\/?$/.test(path),
];
/** The web app's refusals that are about who may act: wrong passwords, lockouts, CSRF, limits. */
const WEB_SECURITY_STATUSES = new Set([401, 403, 429]);

/**
 * One JSON line per API or bridge request, after its answer: method, route pattern (never the
 * identifiers in the path), status, duration and project, with the request id — the bridge's own
 * for its calls, so one search follows a login across both (docs/operations.md). A bridge call
 * that succeeded is logged at `debug`: the bridge's own line has it; an API request that
 * succeeded at `info` one time in REQUEST_LOG_SUCCESS_ONE_IN, else at `debug` — but a deletion,
 * a redaction or a retention change every time. The web app's pages get a line for each form
 * sent (a key, a member, a deletion: every change there is a person's) and each refusal of who
 * may act (401, 403, 429). A line that is a failure or a change names the client's address.
 */
export const logRequests = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  const { method, path } = c.req;
  const status = c.res.status;
  const api = LOGGED_PREFIXES.some((prefix) => path.startsWith(prefix));
  const webChange = !api && method === "POST";
  const webRefusal = !api && WEB_SECURITY_STATUSES.has(status);
  if (!api && !webChange && !webRefusal) return;
  const always = webChange || DESTRUCTIVE_API.some((destructive) => destructive(method, path));
  const quiet =
    !always &&
    (PROBES.has(path) ||
      (status < 400 && (path.startsWith(BRIDGE_CALLS) || !sampledSuccess(c.env))));
  const level = status >= 500 ? "error" : webRefusal ? "warn" : quiet ? "debug" : "info";
  const named = status >= 400 || always;
  log(c.env, level, "request", {
    request_id: c.get("requestId"),
    method,
    route: routePath(c, c.req.routeIndex) || null,
    status,
    duration_ms: Date.now() - started,
    project: (c.get("project") as ProjectContext | undefined)?.projectId ?? null,
    ...(named ? { client_address: clientAddress(c.req.raw.headers, c.env) } : {}),
    ...(api ? {} : { account: (c.get("account") as { id: string } | undefined)?.id ?? null }),
  });
});
