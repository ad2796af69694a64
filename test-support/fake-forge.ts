import { createServer, type Server } from "node:http";

/** How the fake answers for one account's `/<username>.keys`. */
export interface FakeAccount {
  /** The lines of the list (200); ignored when `status` says otherwise. */
  keys?: string[];
  status?: number;
  /** Answers after this long (a slow forge). */
  delayMs?: number;
  /** Answers 302 to this URL instead. */
  redirectTo?: string;
  /** Answers this many 302s to itself on the same host first, each after `delayMs`. */
  hops?: number;
  /** Pads the list with comment lines up to this many bytes, streamed (a huge answer). */
  padToBytes?: number;
}

/**
 * A code forge on 127.0.0.1 serving `/<username>.keys` as GitHub does, for `keys_from` tests.
 * An account nobody set up is a 404. Every answer says `cache-control: no-store`: keyproof caches
 * for 60 s whatever the forge says. Controlled over HTTP, so tests in workerd can use it too:
 *   POST /_accounts {"alice": {"keys": [...]}, ...}   sets accounts up (or changes them)
 *   GET  /_requests?username=<username>               how many times its list was asked for
 */
export async function startFakeForge() {
  const accounts = new Map<string, FakeAccount>();
  const requests = new Map<string, number>();
  /** Bytes of each account's list the forge managed to send before the reader stopped. */
  const sent = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://forge");
      const path = decodeURIComponent(url.pathname);
      if (request.method === "POST" && path === "/_accounts") {
        const given = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, FakeAccount>;
        for (const [name, account] of Object.entries(given)) accounts.set(name, account);
        return response.end("ok");
      }
      if (path === "/_requests" || path === "/_sent") {
        const counts = path === "/_requests" ? requests : sent;
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(
          JSON.stringify(counts.get(url.searchParams.get("username") ?? "") ?? 0),
        );
      }
      const username = /^\/(.+)\.keys$/.exec(path)?.[1];
      if (!username) return response.writeHead(404).end("Not Found");
      requests.set(username, (requests.get(username) ?? 0) + 1);
      const account = accounts.get(username);
      const hop = Number(url.searchParams.get("hop") ?? 0);
      const send = () => {
        if (!account)
          return response.writeHead(404, { "cache-control": "no-store" }).end("Not Found");
        if (account.redirectTo)
          return response.writeHead(302, { location: account.redirectTo }).end();
        if (hop < (account.hops ?? 0))
          return response.writeHead(302, { location: `/${username}.keys?hop=${hop + 1}` }).end();
        const status = account.status ?? 200;
        response.writeHead(status, { "content-type": "text/plain", "cache-control": "no-store" });
        const list = status === 200 ? (account.keys ?? []).map((line) => `${line}\n`).join("") : "";
        if (!account.padToBytes) return response.end(list);
        streamPadded(response, list, account.padToBytes, (bytes) => sent.set(username, bytes));
      };
      if (account?.delayMs) setTimeout(send, account.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `list`, then comment lines up to `total` bytes, as fast as the reader takes them. */
function streamPadded(
  response: import("node:http").ServerResponse,
  list: string,
  total: number,
  progress: (bytes: number) => void,
) {
  const filler = Buffer.from(`# ${"x".repeat(1021)}\n`);
  let written = 0;
  const write = () => {
    while (written < total) {
      const chunk = written === 0 ? Buffer.from(list) : filler;
      written += chunk.length;
      progress(written);
      if (!response.write(chunk)) return void response.once("drain", write);
    }
    response.end();
  };
  response.on("close", () => progress(written));
  write();
}

/** A client for a fake forge by URL (from any runtime: Node, workerd). */
export function fakeForgeClient(url: string) {
  return {
    async setAccounts(accounts: Record<string, FakeAccount>) {
      const response = await fetch(`${url}/_accounts`, {
        method: "POST",
        body: JSON.stringify(accounts),
      });
      await response.text();
    },
    async requestsFor(username: string): Promise<number> {
      const query = new URLSearchParams({ username });
      return (await (await fetch(`${url}/_requests?${query}`)).json()) as number;
    },
    /** Bytes of the account's list written before the reader stopped taking them. */
    async bytesSentFor(username: string): Promise<number> {
      const query = new URLSearchParams({ username });
      return (await (await fetch(`${url}/_sent?${query}`)).json()) as number;
    },
  };
}
