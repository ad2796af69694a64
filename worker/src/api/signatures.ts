import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import {
  MAX_SIGNATURE_BYTES,
  proveBySignature,
  SIGNATURE_LIMITS,
} from "../domain/signature-proofs.ts";
import { clientAddress } from "../lib/client-address.ts";
import { ApiError } from "../lib/errors.ts";
import { CONNECTION_RESULTS, countedKey, SESSION_STATUSES } from "../protocol/messages.ts";
import { render } from "../protocol/terminal.ts";
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

/** Problems as the sentence alone, for a terminal, unless the client asked for JSON. */
const textProblems = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (wantsJson(c.req.header("accept"))) return;
  if (c.res.headers.get("content-type") !== "application/problem+json") return;
  const body = (await c.res.clone().json()) as { detail: string };
  const headers = new Headers(c.res.headers);
  headers.set("content-type", "text/plain; charset=utf-8");
  c.res = new Response(render([body.detail], false), { status: c.res.status, headers });
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
    const answer = await proveBySignature(
      { db: database(c.env.DB), env: c.env },
      c.req.valid("param").connection_identifier.toLowerCase(),
      // Read as bytes: curl's default media type would make the platform warn about .text().
      new TextDecoder().decode(await c.req.arrayBuffer()),
      {
        ipAddress: clientAddress(c.req.raw.headers, c.env),
        userAgent: c.req.header("user-agent"),
      },
    );
    const message = render(answer.lines, false);
    if (wantsJson(c.req.header("accept"))) return c.json({ ...answer.result, message }, 200);
    return c.text(message, 200);
  },
);
