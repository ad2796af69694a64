import type { z } from "zod";
import {
  type ConnectionProgressRequest,
  type ConnectionStatusResponse,
  connectionProgressResponse,
  connectionStatusResponse,
  type FinishConnectionRequest,
  type FinishConnectionResponse,
  finishConnectionResponse,
  type OpenConnectionRequest,
  type OpenConnectionResponse,
  openConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import { signRequest } from "../../worker/src/protocol/request-signing.ts";

/** The Worker could not be reached, failed, or answered outside the contract; the user is told so. */
export class WorkerUnavailableError extends Error {}

/** What the bridge asks of the Worker; the real one is `WorkerClient`, tests may bring their own. */
export interface WorkerApi {
  openConnection(request: OpenConnectionRequest): Promise<OpenConnectionResponse>;
  finishConnection(
    connectionId: string,
    request: FinishConnectionRequest,
  ): Promise<FinishConnectionResponse>;
  /** The user is being asked to confirm: the proof page says so. */
  connectionProgress(connectionId: string, request: ConnectionProgressRequest): Promise<unknown>;
  sessionStatus(sessionId: string): Promise<ConnectionStatusResponse>;
}

export interface WorkerClientOptions {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
}

/** Signed calls to the Worker's /internal/v1 endpoints; every answer is checked against the contract. */
export class WorkerClient implements WorkerApi {
  readonly #options: WorkerClientOptions;

  constructor(options: WorkerClientOptions) {
    this.#options = options;
  }

  openConnection(request: OpenConnectionRequest) {
    return this.#call("POST", "/internal/v1/connections", openConnectionResponse, request);
  }

  finishConnection(connectionId: string, request: FinishConnectionRequest) {
    const path = `/internal/v1/connections/${encodeURIComponent(connectionId)}/finish`;
    return this.#call("POST", path, finishConnectionResponse, request);
  }

  connectionProgress(connectionId: string, request: ConnectionProgressRequest) {
    const path = `/internal/v1/connections/${encodeURIComponent(connectionId)}/progress`;
    return this.#call("POST", path, connectionProgressResponse, request);
  }

  sessionStatus(sessionId: string) {
    const path = `/internal/v1/sessions/${encodeURIComponent(sessionId)}/status`;
    return this.#call("GET", path, connectionStatusResponse);
  }

  async #call<T extends z.ZodType>(
    method: string,
    path: string,
    answer: T,
    payload?: unknown,
  ): Promise<z.infer<T>> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const headers = await signRequest(this.#options.secret, { method, path, body });
    let response: Response;
    try {
      response = await fetch(new URL(path, this.#options.baseUrl), {
        method,
        headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
        body: body || undefined,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
    } catch (error) {
      throw new WorkerUnavailableError(`Worker unreachable: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new WorkerUnavailableError(
        `Worker answered ${response.status} to ${method} ${path}: ${text.slice(0, 300)}`,
      );
    }
    let parsed: z.ZodSafeParseResult<z.infer<T>>;
    try {
      parsed = answer.safeParse(JSON.parse(text));
    } catch {
      throw new WorkerUnavailableError(`Worker answered ${method} ${path} with something not JSON`);
    }
    if (!parsed.success) {
      throw new WorkerUnavailableError(
        `Worker's answer to ${method} ${path} is outside the contract: ${parsed.error.message.slice(0, 300)}`,
      );
    }
    return parsed.data;
  }
}
