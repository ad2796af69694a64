import { createServer, type Server as NetServer, type Socket } from "node:net";
import ssh2 from "ssh2";
import { BridgeConnection, type ConnectionLimits, type ConnectionLog } from "./connection.ts";
import { AddressRateLimiter } from "./limits.ts";
import { readProxyHeader } from "./proxy-protocol.ts";
import type { WorkerClient } from "./worker-client.ts";

export interface BridgeServerOptions extends ConnectionLimits {
  hostKeys: string[];
  worker: WorkerClient;
  maxConnections: number;
  connectionsPerAddressPerMinute: number;
  proxyProtocol: boolean;
  proxyHeaderDeadlineMs: number;
  log: (line: ConnectionLog) => void;
}

export interface BridgeServer {
  listen(port: number, host: string): Promise<{ port: number }>;
  /** Stops accepting, lets open connections finish for `graceMs`, then closes the rest. */
  close(graceMs: number): Promise<void>;
  readonly activeConnections: number;
}

/** Builds the bridge; reads no environment, so tests can run several side by side. */
export function createBridgeServer(options: BridgeServerOptions): BridgeServer {
  const open = new Set<BridgeConnection>();
  const sockets = new Set<Socket>();
  const perAddress = new AddressRateLimiter(options.connectionsPerAddressPerMinute);
  const sweep = setInterval(() => perAddress.sweep(), 60_000);
  sweep.unref();

  const ssh = new ssh2.Server({ hostKeys: options.hostKeys, ident: "keyproof" }, (client, info) => {
    const connection = new BridgeConnection({
      client,
      remoteAddress: info.ip,
      clientVersion: info.header.identRaw,
      worker: options.worker,
      limits: options,
      log: options.log,
    });
    open.add(connection);
    client.on("close", () => open.delete(connection));
  });
  // Garbage on the port, a client vanishing mid-handshake: each only ends its own connection.
  ssh.on("error", () => undefined);

  const accept = async (socket: Socket) => {
    socket.on("error", () => socket.destroy());
    // SSH is a stream of small request/answer packets: Nagle's algorithm with delayed ACKs added
    // 40–90 ms to every round trip of the login (measured with bench/ssh-proofs.ts).
    socket.setNoDelay(true);
    const directAddress = socket.remoteAddress ?? "unknown";
    if (sockets.size >= options.maxConnections || !perAddress.allow(directAddress)) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // The whole handshake, PROXY header included, must finish within the auth deadline.
    const handshakeDeadline = setTimeout(() => socket.destroy(), options.authDeadlineMs + 1000);
    socket.once("close", () => clearTimeout(handshakeDeadline));
    if (options.proxyProtocol) {
      try {
        const header = await readProxyHeader(socket, options.proxyHeaderDeadlineMs);
        // ssh2 reads the client address off the socket; report the one the load balancer saw.
        if (header.sourceAddress)
          Object.defineProperty(socket, "remoteAddress", { value: header.sourceAddress });
      } catch {
        socket.destroy();
        return;
      }
    }
    ssh.injectSocket(socket);
    socket.resume();
  };

  let tcp: NetServer | null = null;
  return {
    get activeConnections() {
      return sockets.size;
    },
    listen(port, host) {
      tcp = createServer(
        { pauseOnConnect: options.proxyProtocol },
        (socket) => void accept(socket),
      );
      const server = tcp;
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          const address = server.address();
          resolve({ port: typeof address === "object" && address ? address.port : port });
        });
      });
    },
    async close(graceMs) {
      clearInterval(sweep);
      await new Promise<void>((resolve) => (tcp ? tcp.close(() => resolve()) : resolve()));
      const deadline = Date.now() + graceMs;
      while (sockets.size > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      for (const connection of open)
        connection.end("keyproof is restarting; please connect again.");
      for (const socket of sockets) socket.destroy();
    },
  };
}
