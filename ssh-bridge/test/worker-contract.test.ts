import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import type {
  FinishConnectionRequest,
  OpenConnectionRequest,
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
function fakeWorker() {
  const calls = { open: [] as OpenConnectionRequest[], finish: [] as FinishConnectionRequest[] };
  const worker: WorkerApi = {
    async openConnection(request) {
      calls.open.push(request);
      return {
        accepted: true,
        session_id: "cs_fake",
        connection_id: "con_fake",
        kind: "collect",
        multi_key: false,
        must_confirm: false,
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
    async connectionProgress() {
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
});
