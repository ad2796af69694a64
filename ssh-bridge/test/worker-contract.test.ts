import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ConnectionProgressRequest,
  type FinishConnectionRequest,
  LEASE_RENEWAL_MS,
  type OpenConnectionRequest,
} from "../../worker/src/protocol/messages.ts";
import { type WorkerApi, WorkerClient } from "../src/worker-client.ts";
import { startBridge } from "./helpers/bridge.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A Worker that answers by the contract from memory, and remembers what it was told. */
function fakeWorker(options: { mustConfirm?: boolean } = {}) {
  const calls = {
    open: [] as OpenConnectionRequest[],
    finish: [] as FinishConnectionRequest[],
    progress: [] as { at: number; request: ConnectionProgressRequest }[],
  };
  const worker: WorkerApi = {
    async openConnection(request) {
      calls.open.push(request);
      return {
        accepted: true,
        session_id: "cs_fake",
        connection_id: "con_fake",
        kind: "collect",
        multi_key: false,
        must_confirm: options.mustConfirm ?? false,
        ssh_banner: "From the fake Worker",
        ssh_message: null,
        expired_at: new Date(Date.now() + 60_000).toISOString(),
        expected_fingerprints: [],
        expected_accounts: [],
        authority_fingerprints: [],
        principal: null,
        require_security_key: false,
        require_user_verification: false,
      };
    },
    async finishConnection(_, request) {
      calls.finish.push(request);
      return {
        outcome: "collected",
        session_status: "completed",
        keys: [
          {
            sha256: "SHA256:fromthefake",
            algorithm: "ssh-ed25519",
            bits: 256,
            certified: false,
            new: true,
          },
        ],
        failed_attempts: 0,
        max_attempts: 1,
        remaining_keys: 0,
        expected_accounts: [],
      };
    },
    async connectionProgress(_, request) {
      calls.progress.push({ at: Date.now(), request });
      return { ok: true };
    },
    async sessionStatus() {
      return {
        open: true,
        status: "pending",
        expired_at: new Date(Date.now() + 60_000).toISOString(),
      };
    },
  };
  return { worker, calls };
}

describe("the bridge against the Worker interface", () => {
  it("reports exactly the proven key to any Worker, and prints what that Worker answers", async () => {
    const fake = fakeWorker();
    const bridge = await startBridge(ctx.worker, { worker: fake.worker });
    try {
      const key = makeKey();
      const result = await runSsh({ port: bridge.port, user: "0".repeat(26), keys: [key] });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("From the fake Worker");
      expect(result.stdout).toContain("SHA256:fromthefake");
      expect(fake.calls.open).toEqual([
        expect.objectContaining({ connection_identifier: "0".repeat(26), ip_address: "127.0.0.1" }),
      ]);
      const blob = key.publicKey.split(" ")[1];
      expect(fake.calls.finish).toEqual([
        {
          session_id: "cs_fake",
          connection_identifier: "0".repeat(26),
          keys: [{ key: blob, security_key: null }],
          keys_offered: 1,
          refusals: [],
          confirmed: null,
          interrupted: false,
        },
      ]);
    } finally {
      await bridge.close();
    }
  });

  it("renews the connection's place while the user sits at the prompt", async () => {
    const fake = fakeWorker({ mustConfirm: true });
    const bridge = await startBridge(ctx.worker, { worker: fake.worker });
    try {
      const startedAt = Date.now();
      const result = await runSsh({
        port: bridge.port,
        user: "0".repeat(26),
        keys: [makeKey()],
        input: "y\n",
        inputDelayMs: LEASE_RENEWAL_MS + 2_000,
        timeoutMs: LEASE_RENEWAL_MS + 15_000,
      });
      expect(result.code).toBe(0);
      // First the prompt (the proof page says so), then "still here" with nothing to show.
      const [asked, ...renewals] = fake.calls.progress;
      expect(asked?.request.confirming).toHaveLength(1);
      expect(renewals.length).toBeGreaterThanOrEqual(1);
      expect(renewals[0]?.request).toEqual({
        session_id: "cs_fake",
        connection_identifier: "0".repeat(26),
      });
      expect((renewals[0]?.at ?? 0) - startedAt).toBeGreaterThanOrEqual(LEASE_RENEWAL_MS - 1_000);
      // Once the connection has reported, it renews nothing more.
      const reported = fake.calls.progress.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fake.calls.progress).toHaveLength(reported);
      expect(fake.calls.finish).toHaveLength(1);
    } finally {
      await bridge.close();
    }
  }, 40_000);

  it("treats a Worker answer outside the contract as the service being unavailable", async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ accepted: true, session_id: 42 }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const client = new WorkerClient({ baseUrl: url, secret: "s", timeoutMs: 2000 });
    await expect(
      client.openConnection({
        connection_identifier: "x",
        ip_address: "127.0.0.1",
        client_version: "SSH-2.0-x",
      }),
    ).rejects.toThrow(/outside the contract/);
    const bridge = await startBridge(ctx.worker, { worker: client });
    try {
      const result = await runSsh({ port: bridge.port, user: "0".repeat(26), keys: [makeKey()] });
      expect(result.code).toBe(255);
      expect(result.stderr).toContain("keyproof is temporarily unavailable");
      // The operator's log line keeps what the Worker got wrong.
      await expect.poll(() => bridge.logs.at(-1)?.outcome).toBe("unavailable");
      expect(bridge.logs.at(-1)?.error).toMatch(
        /Worker's answer to POST \/internal\/v1\/connections is outside the contract/,
      );
    } finally {
      await bridge.close();
    }
  });

  it("says what went wrong when a Worker does not answer, cuts its answer off or answers non-JSON", async () => {
    // A Worker misbehaving three ways, by path: silent, cut off mid-answer, or not JSON.
    const server = createServer((request, response) => {
      if (request.url?.includes("/sessions/silent/")) return;
      if (request.url?.includes("/sessions/cut/")) {
        response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        response.write('{"open": tr');
        setTimeout(() => response.destroy(), 50);
        return;
      }
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>a proxy's page</html>");
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const client = new WorkerClient({ baseUrl: url, secret: "s", timeoutMs: 300 });
    await expect(client.sessionStatus("silent", "x")).rejects.toThrow(
      /^Worker unreachable: no answer within 300 ms$/,
    );
    await expect(client.sessionStatus("cut", "x")).rejects.toThrow(
      /^Worker unreachable: the answer was cut off$/,
    );
    await expect(client.sessionStatus("html", "x")).rejects.toThrow(
      /^Worker answered GET \/internal\/v1\/sessions\/html\/status\?identifier=x with something not JSON$/,
    );
  });
});
