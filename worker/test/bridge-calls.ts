import { env } from "cloudflare:workers";
import type { FinishConnectionRequest } from "../src/protocol/messages.ts";
import { signRequest } from "../src/protocol/request-signing.ts";
import { call } from "./helpers.ts";
import { indexed } from "./session-objects.ts";

/** Calls an internal endpoint signed as the bridge would. */
export async function internal<T>(
  path: string,
  body: unknown,
): Promise<{ status: number; json: T }> {
  const text = JSON.stringify(body);
  const headers = await signRequest(env.BRIDGE_SECRET ?? "", { method: "POST", path, body: text });
  const response = await call(path, {
    method: "POST",
    rawBody: text,
    headers: { ...headers, "content-type": "application/json" },
  });
  return { status: response.status, json: (await response.json()) as T };
}

type ReportedKey = FinishConnectionRequest["keys"][number];

/** Proven keys as the bridge reports them: a blob alone is a key no security key signed for. */
export const reported = (keys: (string | ReportedKey)[]): ReportedKey[] =>
  keys.map((key) => (typeof key === "string" ? { key, security_key: null } : key));

/**
 * The bridge's first call: a connection to the session named `identifier` opens. The bridge's
 * calls never wait for D1; these helpers then wait until D1's index has caught up, so a test can
 * read lists and events at once.
 */
export async function openConnection(identifier: string, ipAddress = "198.51.100.7") {
  const opened = await internal<{ connection_id: string; session_id: string }>(
    "/internal/v1/connections",
    {
      connection_identifier: identifier,
      ip_address: ipAddress,
      client_version: "SSH-2.0-OpenSSH_9.6",
    },
  );
  if (opened.json.session_id) await indexed(opened.json.session_id);
  return { connectionId: opened.json.connection_id, sessionId: opened.json.session_id };
}

/** The bridge's last call: the connection finished, having proven `keys`. */
export async function finishConnection(
  opened: { connectionId: string; sessionId: string },
  report: { keys: (string | ReportedKey)[]; keys_offered?: number; confirmed?: boolean | null },
) {
  const finished = await internal<{ outcome: string; keys: { certified: boolean }[] }>(
    `/internal/v1/connections/${opened.connectionId}/finish`,
    {
      session_id: opened.sessionId,
      keys: reported(report.keys),
      keys_offered: report.keys_offered ?? report.keys.length,
      confirmed: report.confirmed ?? null,
    },
  );
  await indexed(opened.sessionId);
  return finished.json;
}

/** The bridge's two calls for one connection: open, then finish with the proven keys. */
export async function connectAndFinish(
  identifier: string,
  report: { keys: (string | ReportedKey)[]; keys_offered?: number; confirmed?: boolean | null },
) {
  const opened = await openConnection(identifier);
  const finished = await finishConnection(opened, report);
  return { connectionId: opened.connectionId, outcome: finished.outcome };
}

/** The base64 wire blob of an OpenSSH public key line. */
export const blobOf = (line: string) => line.split(" ")[1] ?? "";
