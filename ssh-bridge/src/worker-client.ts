import type * as z from "zod/mini";
import {
  type ConnectionProgressRequest,
  type ConnectionStatusResponse,
  connectionProgressResponse,
  connectionStatusResponse,
  type FinishConnectionRequest,
  type FinishConnectionResponse,
  finishConnectionResponse,
  healthResponse,
  type OpenConnectionRequest,
  type OpenConnectionResponse,
  openConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import { signRequest } from "../../worker/src/protocol/request-signing.ts";
import type { WorkerEndpoint } from "./metrics.ts";
import { http, https } from "./node-http.ts";

/** The Worker could not be reached, failed, or answered outside the contract; the user is told so. */
export class WorkerUnavailableError extends Error {
  /** The Worker's HTTP status, when it answered with an error; null when it did not answer. */
  readonly status: number | null;

  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }

  /** Says the Worker is not serving this bridge (as opposed to refusing one request). */
  get serviceDown(): boolean {
    return this.status === null || this.status >= 500 || this.status === 401;
  }
}

/**
 * What the bridge asks of the Worker; the real one is `WorkerClient`, tests may bring their own.
 * `requestId` names the call in both sides' logs (the connection's trace id and a number).
 */
export interface WorkerApi {
  openConnection(
    request: OpenConnectionRequest,
    requestId?: string,
  ): Promise<OpenConnectionResponse>;
  finishConnection(
    connectionId: string,
    request: FinishConnectionRequest,
    requestId?: string,
  ): Promise<FinishConnectionResponse>;
  /** The user is being asked to confirm: the proof page says so. */
  connectionProgress(
    connectionId: string,
    request: ConnectionProgressRequest,
    requestId?: string,
  ): Promise<unknown>;
  /** `identifier` finds the session even once its object retired (it names its shard). */
  sessionStatus(
    sessionId: string,
    identifier: string,
    requestId?: string,
  ): Promise<ConnectionStatusResponse>;
}

export interface WorkerClientOptions {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
  /** Told of every call as it ends: for metrics and readiness. */
  observe?: (endpoint: WorkerEndpoint, seconds: number, error: Error | null) => void;
}

/** Signed calls to the Worker's /internal/v1 endpoints; every answer is checked against the contract. */
export class WorkerClient implements WorkerApi {
  readonly #options: WorkerClientOptions;

  constructor(options: WorkerClientOptions) {
    this.#options = options;
  }

  openConnection(request: OpenConnectionRequest, requestId?: string) {
    const path = "/internal/v1/connections";
    return this.#call("open", "POST", path, openConnectionResponse, request, requestId);
  }

  finishConnection(connectionId: string, request: FinishConnectionRequest, requestId?: string) {
    const path = `/internal/v1/connections/${encodeURIComponent(connectionId)}/finish`;
    return this.#call("finish", "POST", path, finishConnectionResponse, request, requestId);
  }

  connectionProgress(connectionId: string, request: ConnectionProgressRequest, requestId?: string) {
    const path = `/internal/v1/connections/${encodeURIComponent(connectionId)}/progress`;
    return this.#call("progress", "POST", path, connectionProgressResponse, request, requestId);
  }

  sessionStatus(sessionId: string, identifier: string, requestId?: string) {
    const path = `/internal/v1/sessions/${encodeURIComponent(sessionId)}/status?identifier=${encodeURIComponent(identifier)}`;
    return this.#call("status", "GET", path, connectionStatusResponse, undefined, requestId);
  }

  /** Whether the Worker answers and accepts this bridge's signature (the readiness probe). */
  health(requestId?: string) {
    return this.#call("health", "GET", "/internal/v1/health", healthResponse, undefined, requestId);
  }

  async #call<T extends z.ZodMiniType>(
    endpoint: WorkerEndpoint,
    method: string,
    path: string,
    answer: T,
    payload: unknown,
    requestId: string | undefined,
  ): Promise<z.infer<T>> {
    const started = performance.now();
    try {
      const result = await this.#send(method, path, answer, payload, requestId);
      this.#options.observe?.(endpoint, (performance.now() - started) / 1000, null);
      return result;
    } catch (error) {
      this.#options.observe?.(endpoint, (performance.now() - started) / 1000, error as Error);
      throw error;
    }
  }

  async #send<T extends z.ZodMiniType>(
    method: string,
    path: string,
    answer: T,
    payload: unknown,
    requestId: string | undefined,
  ): Promise<z.infer<T>> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const headers = await signRequest(this.#options.secret, { method, path, body, requestId });
    let response: { status: number; text: string };
    try {
      response = await exchange(new URL(path, this.#options.baseUrl), {
        method,
        headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
        body,
        timeoutMs: this.#options.timeoutMs,
      });
    } catch (error) {
      throw new WorkerUnavailableError(`Worker unreachable: ${(error as Error).message}`);
    }
    const { text } = response;
    if (response.status < 200 || response.status > 299) {
      throw new WorkerUnavailableError(
        `Worker answered ${response.status} to ${method} ${path}: ${text.slice(0, 300)}`,
        response.status,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new WorkerUnavailableError(`Worker answered ${method} ${path} with something not JSON`);
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success) {
      throw new WorkerUnavailableError(
        `Worker's answer to ${method} ${path} is outside the contract: ${parsed.error.message.slice(0, 300)}`,
      );
    }
    return parsed.data;
  }
}

/**
 * One request and its whole answer, with node:http(s) and its keep-alive agent. Node's `fetch`
 * would do it too, but loading it (undici) is a few MB of the bridge's resting memory
 * (docs/benchmarks.md §4).
 */
function exchange(
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<{ status: number; text: string }> {
  const send = url.protocol === "https:" ? https().request : http.request;
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(init.timeoutMs);
    const late = () => new Error(`no answer within ${init.timeoutMs} ms`);
    const request = send(
      url.href,
      { method: init.method, headers: init.headers, signal },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        // An answer's error (cut off, timed out) ends in `close`, which says which it was.
        answer.on("error", () => {});
        answer.on("close", () => {
          if (answer.complete) {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: answer.statusCode ?? 0, text });
          } else reject(signal.aborted ? late() : new Error("the answer was cut off"));
        });
      },
    );
    request.on("error", (error) => reject(signal.aborted ? late() : error));
    request.end(init.body || undefined);
  });
}
