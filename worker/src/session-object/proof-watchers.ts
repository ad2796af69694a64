/**
 * The proof pages watching one session over hibernating WebSockets, bounded so that
 * whoever holds the link cannot take the channel from the user: a cap per session and per client
 * address, an idle timeout, inbound messages ignored and bounded, and every watcher closed once
 * the session is over. A page that gets no channel polls instead (web/scripts.ts).
 */

/** Proof pages that may watch one session at once, and from one client address. */
export const MAX_WATCHERS = 16;
export const MAX_WATCHERS_PER_ADDRESS = 4;
/** A watcher that has heard nothing for this long is closed; a page still open reconnects. */
export const WATCHER_IDLE_MS = 10 * 60_000;
/** Watchers only listen: a few stray messages are ignored, more (or a large one) close it. */
const MAX_INBOUND_MESSAGES = 8;
const MAX_INBOUND_BYTES = 1024;

/** What each socket carries across hibernation. */
interface Watcher {
  address: string;
  /** When it last heard something (ms). */
  heardAt: number;
  inbound: number;
}

/** Close codes: 1000 normal (session over), 1001 going away (idle), 1008 policy. */
const CLOSE = { over: 1000, idle: 1001, policy: 1008 } as const;

export class ProofWatchers {
  readonly #ctx: DurableObjectState;

  constructor(ctx: DurableObjectState) {
    this.#ctx = ctx;
  }

  get count(): number {
    return this.#ctx.getWebSockets().length;
  }

  /**
   * A new watcher from `address` that first hears `firstMessage`, or why it may not watch. Of a
   * session that is `over` it hears that once and is closed: nothing more will happen.
   */
  admit(address: string, firstMessage: string, now: number, over = false): Response {
    const sockets = this.#ctx.getWebSockets();
    if (sockets.length >= MAX_WATCHERS)
      return new Response("Too many pages are watching this session", { status: 429 });
    const fromAddress = sockets.filter((socket) => watcherOf(socket)?.address === address);
    if (fromAddress.length >= MAX_WATCHERS_PER_ADDRESS)
      return new Response("Too many pages from one address watch this session", { status: 429 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.#ctx.acceptWebSocket(server);
    server.serializeAttachment({ address, heardAt: now, inbound: 0 } satisfies Watcher);
    server.send(firstMessage);
    if (over) server.close(CLOSE.over, "The session is over");
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends `message` to every watcher; with `over`, then closes them all. */
  broadcast(message: string, now: number, over: boolean) {
    for (const socket of this.#ctx.getWebSockets()) {
      try {
        socket.send(message);
        const watcher = watcherOf(socket);
        if (watcher) socket.serializeAttachment({ ...watcher, heardAt: now });
        if (over) socket.close(CLOSE.over, "The session is over");
      } catch {
        // closed meanwhile
      }
    }
  }

  /** An inbound message is ignored; past the bound, its sender is closed. */
  inbound(socket: WebSocket, message: string | ArrayBuffer) {
    const watcher = watcherOf(socket);
    const size = typeof message === "string" ? message.length : message.byteLength;
    const inbound = (watcher?.inbound ?? 0) + 1;
    if (!watcher || inbound > MAX_INBOUND_MESSAGES || size > MAX_INBOUND_BYTES) {
      socket.close(CLOSE.policy, "Watchers only listen");
      return;
    }
    socket.serializeAttachment({ ...watcher, inbound });
  }

  /** Closes watchers idle since before `now - WATCHER_IDLE_MS`. */
  closeIdle(now: number) {
    for (const socket of this.#ctx.getWebSockets()) {
      if (idleDeadline(socket) <= now)
        socket.close(CLOSE.idle, "Idle; reload the page to follow again");
    }
  }

  /** When the next watcher falls idle, or null when none watches. */
  nextIdleDeadline(): number | null {
    const deadlines = this.#ctx.getWebSockets().map(idleDeadline);
    return deadlines.length > 0 ? Math.min(...deadlines) : null;
  }

  closeAll(reason: string) {
    for (const socket of this.#ctx.getWebSockets()) socket.close(CLOSE.over, reason);
  }
}

const watcherOf = (socket: WebSocket) => socket.deserializeAttachment() as Watcher | null;
const idleDeadline = (socket: WebSocket) => (watcherOf(socket)?.heardAt ?? 0) + WATCHER_IDLE_MS;
