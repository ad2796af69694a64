import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { sessionObject } from "../domain/session-address.ts";
import {
  MAX_SIGNATURE_BYTES,
  SIGNATURE_LIMITS,
  signatureAnswerLines,
} from "../domain/signature-proofs.ts";
import type { Env } from "../env.ts";
import { clientAddress } from "../lib/client-address.ts";
import { ApiError } from "../lib/errors.ts";
import { isConnectionIdentifier } from "../lib/ids.ts";
import { objectStub } from "../lib/meter.ts";
import { budgetOf } from "../protocol/ip-addresses.ts";
import { CONNECTION_RESULTS, SESSION_STATUSES } from "../protocol/messages.ts";
import { REFUSALS, render } from "../protocol/terminal.ts";
import { printableClientVersion } from "../protocol/terminal-text.ts";
import { problem } from "../schemas/common.ts";
import { limitBodyTo } from "./middleware.ts";
import { apiRouter } from "./router.ts";

/** A client asked for JSON; otherwise answers are text for the terminal that ran `curl`. */
const wantsJson = (accept: string | undefined) =>
  /application\/(problem\+)?json/.test(accept ?? "");

/**
 * What `curl --data-binary` sends (x-www-form-urlencoded, unless told otherwise), text, or bytes:
 * the body is read as it is in every case, never decoded as a form.
 */
const SIGNATURE_MEDIA_TYPES = [
  "text/plain",
  "application/octet-stream",
  "application/x-www-form-urlencoded",
];

/** A proof's problems as the sentence alone, for a terminal, unless the client asked for JSON. */
const textProblems = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.req.method !== "POST" || wantsJson(c.req.header("accept"))) return;
  if (c.res.headers.get("content-type") !== "application/problem+json") return;
  const body = (await c.res.clone().json()) as { detail: string };
  const headers = new Headers(c.res.headers);
  headers.set("content-type", "text/plain; charset=utf-8");
  c.res = new Response(render([body.detail], false), { status: c.res.status, headers });
});

/** Outcomes of a signature whose key counted: anything else is a recorded 422. */
const COUNTED = new Set(["collected", "verified"]);

/** A key the signature counted: the bridge's wire format (protocol/messages.ts), described. */
const countedKey = z.object({
  sha256: z.string().describe("The key's SHA-256 fingerprint"),
  algorithm: z.string(),
  bits: z.int(),
  certified: z.boolean().describe("Proven through a certificate"),
  new: z.boolean().describe("Counted for the first time in this session"),
});

const signatureResult = z
  .object({
    outcome: z
      .enum(CONNECTION_RESULTS)
      .describe("`collected`, `verified`, `no_match` (a failed attempt) or `no_key`"),
    session_status: z.enum(SESSION_STATUSES),
    keys: z.array(countedKey).describe("The key that counted, if it did"),
    failed_attempts: z.int(),
    max_attempts: z.int(),
    remaining_keys: z.int(),
    message: z.string().describe("What the text answer says"),
    continue_url: z
      .string()
      .nullable()
      .describe(
        "Once the user is done and the session has a `return_url`: its proof page, where the browser that watched the proof continues (the return URL and the result are never given here); else null",
      ),
  })
  .meta({ id: "SignatureResult" });

const problemAnswer = (description: string) => ({
  description,
  content: {
    "text/plain": { schema: z.string() },
    "application/problem+json": { schema: problem },
  },
});

export const signatureRoutes = apiRouter();
signatureRoutes.use(textProblems, limitBodyTo(MAX_SIGNATURE_BYTES));
signatureRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{connection_identifier}",
    operationId: "proveWithSignature",
    tags: ["Signatures"],
    summary: "Prove a key with ssh-keygen -Y sign, without SSH",
    description: `For users who cannot reach the SSH bridge: the session's \`sign_command\` signs its \`signature_challenge\` with \`ssh-keygen -Y sign -n keyproof\` and posts the armored signature here. No API key: the connection identifier names the session. It counts as a connection that proved the one signing key (\`method: "signature"\`), with the same rules, events and attempts; \`must_confirm\` is met by signing. The answer is text for the terminal unless \`Accept\` asks for JSON. A signature that is malformed, over other data or in another namespace, or a session that accepts no more connections, gets a 4xx with a sentence and is not an attempt. At most ${SIGNATURE_LIMITS.perSession} requests per minute per session and ${SIGNATURE_LIMITS.perAddress} per client address.`,
    security: [],
    request: {
      params: z.object({
        connection_identifier: z.string().max(64).describe("The session's `connection_identifier`"),
      }),
      body: {
        description: `What \`ssh-keygen -Y sign\` prints, from \`-----BEGIN SSH SIGNATURE-----\` to \`-----END SSH SIGNATURE-----\`, at most ${MAX_SIGNATURE_BYTES / 1024} KiB. Sent as text/plain, application/octet-stream, or curl's default x-www-form-urlencoded (read as is).`,
        required: true,
        content: {
          "text/plain": { schema: z.string() },
          "application/octet-stream": { schema: z.string() },
          // What `curl --data-binary` sends unless told otherwise; read as it is, never as a form
          // (anything passes the form check the router would make of it).
          "application/x-www-form-urlencoded": {
            schema: z.unknown().describe("The armored signature, as the body's bytes"),
          },
        },
      },
    },
    responses: {
      200: {
        description: "A connection was recorded; the text or JSON says what it proved",
        content: {
          "text/plain": { schema: z.string() },
          "application/json": { schema: signatureResult },
        },
      },
      400: problemAnswer("Not an SSH signature, another namespace, or not over the challenge"),
      422: {
        description:
          "The signature verified and was recorded as a connection, but its key does not count in this session (not one it expects, refused, or not a security key it requires): a failed attempt where the session counts them. The text says why, as `ssh` would; the problem's `result` holds what a counted proof's JSON holds.",
        content: {
          "text/plain": { schema: z.string() },
          "application/problem+json": {
            schema: problem.extend({ result: signatureResult }).meta({ id: "KeyNotCounted" }),
          },
        },
      },
      404: problemAnswer("No session has this identifier"),
      409: problemAnswer("The session accepts no more connections, or the challenge was just used"),
      413: problemAnswer(`Body over ${MAX_SIGNATURE_BYTES / 1024} KiB`),
      415: problemAnswer("A body that is not text or bytes"),
      429: problemAnswer("Over the per-session or per-address limit; wait for `Retry-After`"),
    },
  }),
  async (c) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType && !SIGNATURE_MEDIA_TYPES.includes(mediaType)) {
      throw new ApiError(415, "Send the signature as the body, as text (curl --data-binary @-).", [
        { location: "header.content-type", message: "Expected text/plain", value: mediaType },
      ]);
    }
    const identifier = c.req.valid("param").connection_identifier.toLowerCase();
    if (!isConnectionIdentifier(identifier)) throw new ApiError(404, REFUSALS.unknown);
    const ipAddress = clientAddress(c.req.raw.headers, c.env);
    await withinAddressLimit(c.env, ipAddress);
    const outcome = await sessionObject(c.env, { identifier }).proveBySignature(
      { identifier },
      {
        // Read as bytes: curl's default media type would make the platform warn about .text().
        armored: new TextDecoder().decode(await c.req.arrayBuffer()),
        ipAddress,
        clientVersion: printableClientVersion(c.req.header("user-agent") ?? "unknown"),
      },
    );
    if (!outcome.recorded) {
      const retry = outcome.retryAfter ? { "Retry-After": String(outcome.retryAfter) } : undefined;
      throw new ApiError(outcome.status, outcome.detail, undefined, retry);
    }
    const lines = signatureAnswerLines(outcome);
    const message = render(lines, false);
    const result = { ...outcome.response, message, continue_url: outcome.continueUrl };
    // Recorded, but no key counted (not expected, refused, declined): a 4xx, so `curl --fail`
    // and scripts can tell; the attempt stands, and the answer says why, as ssh would.
    if (!COUNTED.has(outcome.response.outcome))
      throw new ApiError(422, lines.join("\n"), undefined, undefined, {
        kind: "key-not-counted",
        members: { result },
      });
    if (wantsJson(c.req.header("accept"))) return c.json(result, 200);
    return c.text(message, 200);
  },
);

// Any other method is a 405 here, before the API key the rest of /api/v1 asks for.
signatureRoutes.all("/:connection_identifier", () => {
  throw new ApiError(405, "Send the signature with POST", undefined, { Allow: "POST" });
});

/** Signatures from one client address, per minute, counted project-wide by its own object. */
async function withinAddressLimit(env: Env, address: string) {
  const limiter = objectStub(env, env.RATE_LIMITER, `signatures:address:${budgetOf(address)}`);
  const decision = await limiter.consume(SIGNATURE_LIMITS.perAddress);
  if (decision.allowed) return;
  throw new ApiError(
    429,
    `Too many signatures sent; try again in ${decision.retryAfter} seconds.`,
    undefined,
    { "Retry-After": String(decision.retryAfter) },
  );
}
