import type {
  ConnectionStatusResponse,
  FinishConnectionRequest,
  FinishConnectionResponse,
  OpenConnectionRequest,
  OpenConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import { signRequest } from "../../worker/src/protocol/request-signing.ts";

/** The Worker could not be reached or answered with a server error; the user is told so. */
export class WorkerUnavailableError extends Error {}

export interface WorkerClientOptions {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
}

/** Signed calls to the Worker's /internal/v1 endpoints (SPEC §10). */
export class WorkerClient {
  readonly #options: WorkerClientOptions;

  constructor(options: WorkerClientOptions) {
    this.#options = options;
  }

  openConnection(request: OpenConnectionRequest): Promise<OpenConnectionResponse> {
    return this.#call("POST", "/internal/v1/connections", request);
  }

  finishConnection(
    connectionId: string,
    request: FinishConnectionRequest,
  ): Promise<FinishConnectionResponse> {
    return this.#call(
      "POST",
      `/internal/v1/connections/${encodeURIComponent(connectionId)}/finish`,
      request,
    );
  }

  sessionStatus(sessionId: string): Promise<ConnectionStatusResponse> {
    return this.#call("GET", `/internal/v1/sessions/${encodeURIComponent(sessionId)}/status`);
  }

  async #call<T>(method: string, path: string, payload?: unknown): Promise<T> {
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
    return JSON.parse(text) as T;
  }
}
