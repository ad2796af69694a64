import type { Server } from "node:http";
import type { BridgeMetrics } from "./metrics.ts";
import { http } from "./node-http.ts";
import { WorkerUnavailableError } from "./worker-client.ts";

/**
 * Whether this bridge should get new connections: it listens for SSH, is not draining, and the
 * Worker answered its latest call or probe. A failure makes it unready until a call succeeds.
 */
export class Readiness {
  #listening = false;
  #draining = false;
  #workerProblem: string | null = "the Worker has not been asked yet";

  listening() {
    this.#listening = true;
  }

  draining() {
    this.#draining = true;
  }

  /** Every call to the Worker ends here: an answer, or why there was none. */
  workerAnswered(error: Error | null) {
    if (error === null) this.#workerProblem = null;
    // A 404 or 409 is the Worker refusing one request, not failing: it still serves.
    else if (!(error instanceof WorkerUnavailableError) || error.serviceDown)
      this.#workerProblem = error.message;
  }

  /** Null when ready; else why not, as a sentence. */
  get problem(): string | null {
    if (this.#draining) return "draining: finishing the connections in progress";
    if (!this.#listening) return "not yet accepting SSH connections";
    if (this.#workerProblem) return `cannot reach the Worker: ${this.#workerProblem}`;
    return null;
  }
}

/**
 * The bridge's HTTP side for operators (docs/operations.md): `/healthz` (the process runs),
 * `/readyz` (it should get new connections) and `/metrics` (Prometheus). Nothing else: it serves
 * no user, and should listen on a private address.
 */
export async function startOperationsServer(options: {
  host: string;
  port: number;
  readiness: Readiness;
  metrics: BridgeMetrics;
}): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = http.createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const text = (status: number, body: string, type = "text/plain; charset=utf-8") => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") return text(405, "GET only\n");
    if (path === "/healthz") return text(200, "ok\n");
    if (path === "/readyz") {
      const problem = options.readiness.problem;
      return problem ? text(503, `not ready: ${problem}\n`) : text(200, "ready\n");
    }
    if (path === "/metrics") {
      options.metrics.text().then(
        (body) => text(200, body, options.metrics.contentType),
        (error: Error) => text(500, `metrics failed: ${error.message}\n`),
      );
      return;
    }
    text(404, "Not here: /healthz, /readyz and /metrics are.\n");
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
