import { type BlockList, createServer, type Server as NetServer, type Socket } from "node:net";
import ssh2, { type Connection } from "ssh2";
import { RESTARTING_MESSAGE } from "../../worker/src/protocol/terminal.ts";
import { printableClientVersion } from "../../worker/src/protocol/terminal-text.ts";
import { normalizeAddress } from "./client-identity.ts";
import { BridgeConnection } from "./connection.ts";
import type { ConnectionLog } from "./connection-log.ts";
import type { ConnectionLimits } from "./limits.ts";
import { AddressRateLimiter } from "./limits.ts";
import type { BridgeMetrics } from "./metrics.ts";
import { readProxyHeader, sendsProxyHeader } from "./proxy-protocol.ts";
import type { WorkerApi } from "./worker-client.ts";

export interface BridgeServerOptions extends ConnectionLimits {
  hostKeys: string[];
  worker: WorkerApi;
  maxConnections: number;
  connectionsPerAddressPerMinute: number;
  /** The load balancers whose PROXY headers are believed; null when the PROXY protocol is off. */
  trustedProxies: BlockList | null;
  proxyHeaderDeadlineMs: number;
  log: (line: ConnectionLog) => void;
  /** Counted into, when given (the bridge process always gives them; tests may not). */
  metrics?: BridgeMetrics;
}

export interface BridgeServer {
  listen(port: number, host: string): Promise<{ port: number }>;
  /**
   * Drains: keeps accepting for `noticeMs` (the balancer, seeing /readyz 503, stops sending),
   * then stops accepting, lets connections in progress finish for `graceMs`, then tells the rest
   * the service is restarting and closes them. Resolves once all are gone.
   */
  close(graceMs: number, noticeMs?: number): Promise<void>;
  /** Ends the drain now: what is still open is told and closed (a second signal). */
  hurry(): void;
  readonly activeConnections: number;
}

/** After a stop cut the last connections: how long their reports and log lines may take. */
const LAST_REPORTS_MS = 2_000;

/** What the bridge knows of a socket before SSH starts on it. */
interface Accepted {
  /** The client: the socket's peer, or the address a trusted balancer's PROXY header gave. */
  address: string;
  acceptedAt: number;
  /** Destroys a socket that has not started SSH by the auth deadline. */
  deadline: NodeJS.Timeout;
}

/** Why a socket was closed before SSH started on it, for its log line. */
class Refusal extends Error {}

const family = (address: string) => (address.includes(":") ? "ipv6" : "ipv4");

/** ssh2 keeps the socket of a server-side connection in a private field. */
const socketOf = (client: Connection) => (client as unknown as { _sock?: Socket })._sock;

/** Builds the bridge; reads no environment, so tests can run several side by side. */
export function createBridgeServer(options: BridgeServerOptions): BridgeServer {
  const open = new Set<BridgeConnection>();
  const ending = new Set<BridgeConnection>();
  const sockets = new Set<Socket>();
  const accepted = new WeakMap<Socket, Accepted>();
  const perAddress = new AddressRateLimiter(options.connectionsPerAddressPerMinute);
  const sweep = setInterval(() => perAddress.sweep(), 60_000);
  sweep.unref();
  const metrics = options.metrics;
  /** Sockets that became an SSH connection, which counts its own ending. */
  const handedToSsh = new WeakSet<Socket>();

  const ssh = new ssh2.Server({ hostKeys: options.hostKeys, ident: "keyproof" }, (client, info) => {
    const socket = socketOf(client);
    const start = socket ? accepted.get(socket) : undefined;
    // From here the connection's own deadlines run, counted from the same accept.
    if (start) clearTimeout(start.deadline);
    if (socket) handedToSsh.add(socket);
    const connection = new BridgeConnection({
      client,
      socket,
      acceptedAt: start?.acceptedAt,
      remoteAddress: start?.address ?? normalizeAddress(info.ip) ?? "0.0.0.0",
      clientVersion: printableClientVersion(info.header.identRaw),
      worker: options.worker,
      limits: options,
      log: options.log,
      ...(metrics ? { metrics } : {}),
    });
    open.add(connection);
    client.on("close", () => open.delete(connection));
    // Until its report and log line are done: a stopping bridge waits for them.
    ending.add(connection);
    void connection.ended.then(() => ending.delete(connection));
  });
  // Garbage on the port, a client vanishing mid-handshake: each only ends its own connection.
  ssh.on("error", () => undefined);

  /** The client's address: a trusted balancer's header is believed, anyone else's refused. */
  async function clientAddress(socket: Socket, peer: string): Promise<string> {
    const trusted = options.trustedProxies;
    if (!trusted) return peer;
    if (trusted.check(peer, family(peer))) {
      const header = await readProxyHeader(socket, options.proxyHeaderDeadlineMs).catch(() => {
        throw new Refusal("invalid_proxy_header");
      });
      // LOCAL and UNKNOWN carry no client: the balancer's own health check.
      if (header.sourceAddress === null) return peer;
      const address = normalizeAddress(header.sourceAddress);
      if (!address) throw new Refusal("invalid_proxy_header");
      return address;
    }
    const spoofing = await sendsProxyHeader(socket, options.proxyHeaderDeadlineMs).catch(() => {
      throw new Refusal("no_data");
    });
    if (spoofing) throw new Refusal("untrusted_proxy_header");
    return peer;
  }

  function refuse(socket: Socket, address: string, outcome: string, acceptedAt: number) {
    handedToSsh.add(socket);
    socket.destroy();
    metrics?.connectionEnded(outcome);
    options.log({
      event: "connection",
      request_id: "",
      identifier: null,
      remote_address: address,
      client_version: "",
      session_id: null,
      connection_id: null,
      keys_offered: 0,
      keys_proven: 0,
      keys_refused: 0,
      signatures_checked: 0,
      outcome,
      error: null,
      duration_ms: Date.now() - acceptedAt,
    });
  }

  const accept = async (socket: Socket) => {
    const acceptedAt = Date.now();
    socket.on("error", () => socket.destroy());
    // SSH is a stream of small request/answer packets: Nagle's algorithm with delayed ACKs added
    // 40–90 ms to every round trip of the login (measured with bench/ssh-proofs.ts).
    socket.setNoDelay(true);
    const peer = normalizeAddress(socket.remoteAddress) ?? "0.0.0.0";
    if (sockets.size >= options.maxConnections)
      return refuse(socket, peer, "over_capacity", acceptedAt);
    sockets.add(socket);
    metrics?.socketOpened();
    socket.on("close", () => {
      sockets.delete(socket);
      metrics?.socketClosed();
      // Garbage on the port, or a client that left during the handshake: no SSH connection.
      if (!handedToSsh.has(socket)) metrics?.connectionEnded("no_handshake");
    });
    // The whole handshake and authentication, PROXY header included, has the auth deadline.
    const deadline = setTimeout(() => socket.destroy(), options.authDeadlineMs);
    socket.once("close", () => clearTimeout(deadline));
    // A peer counts against its budget as it connects, before any wait for a PROXY header: sockets
    // that send nothing cannot fill the bridge. A trusted balancer has no budget of its own: each
    // client behind it counts against theirs, once its header names them.
    const balancer = options.trustedProxies?.check(peer, family(peer)) === true;
    if (!balancer && !perAddress.allow(peer))
      return refuse(socket, peer, "rate_limited", acceptedAt);
    let address: string;
    try {
      address = await clientAddress(socket, peer);
    } catch (error) {
      const outcome = error instanceof Refusal ? error.message : "invalid_proxy_header";
      return refuse(socket, peer, outcome, acceptedAt);
    }
    if (balancer && !perAddress.allow(address))
      return refuse(socket, address, "rate_limited", acceptedAt);
    accepted.set(socket, { address, acceptedAt, deadline });
    ssh.injectSocket(socket);
    socket.resume();
  };

  let tcp: NetServer | null = null;
  let hurry: () => void = () => {};
  const hurried = new Promise<void>((resolve) => {
    hurry = resolve;
  });
  return {
    get activeConnections() {
      return sockets.size;
    },
    listen(port, host) {
      tcp = createServer(
        { pauseOnConnect: options.trustedProxies !== null },
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
    async close(graceMs, noticeMs = 0) {
      // The balancer's health checks see /readyz 503 meanwhile; a second signal cuts it short.
      if (noticeMs > 0)
        await Promise.race([hurried, new Promise((resolve) => setTimeout(resolve, noticeMs))]);
      clearInterval(sweep);
      // New connections are refused from here: the balancer has stopped sending them.
      const closed = new Promise<void>((resolve) => (tcp ? tcp.close(() => resolve()) : resolve()));
      let stop = false;
      const deadline = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        void hurried.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }).then(() => {
        stop = true;
      });
      while (sockets.size > 0 && !stop)
        await Promise.race([deadline, new Promise((r) => setTimeout(r, 100))]);
      for (const connection of open) connection.interrupt(RESTARTING_MESSAGE);
      // Told, they get a moment to print it; then whatever is left is cut.
      const told = Date.now();
      while (sockets.size > 0 && Date.now() - told < 2_000)
        await new Promise((r) => setTimeout(r, 50));
      for (const socket of sockets) socket.destroy();
      // Each closed connection reports to the Worker and logs its line: a moment for them too.
      await Promise.race([
        Promise.all([...ending].map((connection) => connection.ended)),
        new Promise((resolve) => setTimeout(resolve, LAST_REPORTS_MS)),
      ]);
      await closed;
    },
    hurry() {
      hurry();
    },
  };
}
