import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";

/** A request the receiver got, and whether its Standard Webhooks signature verified. */
export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean | null;
  /** When the request arrived, and when the answer to it was finished (ms). */
  at: number;
  finishedAt: number | null;
  /** The status the receiver answered with. */
  status: number | null;
}

/** How a `/switch/NAME/...` path answers until it is switched again. */
export interface SwitchState {
  status: number;
  delayMs?: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. Its path says how to answer:
 *   /ok/...          200
 *   /echo/...        200 with the request's own body, as a receiver that echoes what it got
 *   /status/NNN/...  that status
 *   /fail-times/N/... 500 for the first N requests on that path, then 200
 *   /slow/MS/...     answers 200 after MS milliseconds
 *   /retry-after/S/... 503 with Retry-After: S
 *   /switch/NAME/... however `setSwitch(NAME, ...)` last said (503 until then), e.g. a receiver
 *                    that is down and comes back
 * Secrets registered with `trust(pathPrefix, secret)` verify requests with `standardwebhooks`.
 * GET /_requests returns everything received (as JSON), for tests in another runtime.
 */
export async function startWebhookReceiver() {
  const received: ReceivedRequest[] = [];
  const secrets = new Map<string, string>();
  const counts = new Map<string, number>();
  const switches = new Map<string, SwitchState>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      if (request.method === "GET" && path.startsWith("/_requests")) {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(JSON.stringify(received));
      }
      if (request.method === "POST" && path === "/_trust") {
        const { prefix, secret } = JSON.parse(Buffer.concat(chunks).toString()) as {
          prefix: string;
          secret: string;
        };
        secrets.set(prefix, secret);
        return response.end("ok");
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const record: ReceivedRequest = {
        path,
        method: request.method ?? "",
        headers: request.headers,
        body,
        verified: verify(path, body, request.headers),
        at: Date.now(),
        finishedAt: null,
        status: null,
      };
      received.push(record);
      response.on("finish", () => {
        record.finishedAt = Date.now();
        record.status = response.statusCode;
      });
      answer(path, body, response);
    });
  });

  function verify(path: string, body: string, headers: IncomingHttpHeaders): boolean | null {
    const secret = [...secrets].find(([prefix]) => path.startsWith(prefix))?.[1];
    if (!secret) return null;
    try {
      new Webhook(secret).verify(body, headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  }

  function answer(path: string, body: string, response: import("node:http").ServerResponse) {
    const [, mode, arg] = path.split("/");
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    if (mode === "echo") return response.writeHead(200).end(body);
    if (mode === "status") return response.writeHead(Number(arg)).end(`status ${arg}`);
    if (mode === "fail-times" && count <= Number(arg))
      return response.writeHead(500).end(`failure ${count}`);
    if (mode === "retry-after")
      return response.writeHead(503, { "retry-after": String(arg) }).end("busy");
    if (mode === "slow") {
      setTimeout(() => response.writeHead(200).end("slow ok"), Number(arg));
      return;
    }
    if (mode === "switch") {
      const state = switches.get(arg ?? "") ?? { status: 503 };
      setTimeout(
        () => response.writeHead(state.status).end(`switched ${state.status}`),
        state.delayMs ?? 0,
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    trust: (prefix: string, secret: string) => secrets.set(prefix, secret),
    setSwitch: (name: string, state: SwitchState) => switches.set(name, state),
    requestsTo: (prefix: string) => received.filter((request) => request.path.startsWith(prefix)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
