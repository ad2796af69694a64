import { expect } from "vitest";

/** Calls the public API of the local Worker with a project's key. */
export function apiClient(baseUrl: string, apiKey: string) {
  async function request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    expected = 200,
  ) {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        "x-api-key": apiKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text).toBe(expected);
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    request,
    createSession: (kind: "collect" | "verify", body: Record<string, unknown> = {}) =>
      request<Session>("POST", `/ssh/${kind}/sessions/`, body, 201),
    getSession: (kind: "collect" | "verify", id: string) =>
      request<Session>("GET", `/ssh/${kind}/sessions/${id}/`),
  };
}

export interface SessionConnection {
  id: string;
  outcome: string;
  confirmed: boolean | null;
  ip_address: string;
  client_version: string;
  closed_at: string | null;
  keys: { public_key_sha256: string }[];
}

export interface Session {
  id: string;
  status: string;
  connection_identifier: string;
  ssh_command: string;
  failed_attempts?: number;
  verified_at?: string | null;
  external_id?: string | null;
  redacted_at?: string | null;
  keys?: { public_key_sha256: string; verified_at: string | null }[];
  connections: SessionConnection[];
}
