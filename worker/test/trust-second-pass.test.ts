import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhookInvocations } from "../src/db/webhooks.ts";
import { clientAddress } from "../src/lib/client-address.ts";
import { processInvocation } from "../src/webhooks/consumer.ts";
import { sweepDueInvocations } from "../src/webhooks/sweeper.ts";
import {
  blobOf,
  connectAndFinish,
  finishConnection,
  internal,
  openConnection,
} from "./bridge-calls.ts";
import { call, callJson, createSession, expectProblem, newProject } from "./helpers.ts";
import { changeHeldSession, lapseConnections, objectOf } from "./session-objects.ts";
import { SIGNATURE_CHALLENGE } from "./setup/ssh-key-fixtures.ts";
import { browserWithProject } from "./web-client.ts";

/** Each item's regression tests that run inside workerd (the rest: ssh-bridge/test). */

const { certificates, badPem, privateKeys, accepted, securityKeys, signatures } = env.TEST_KEYS;
const certificate = (label: string) => {
  const found = certificates.find((fixture) => fixture.label === label);
  if (!found) throw new Error(`no certificate fixture ${label}`);
  return found;
};
const ed25519 = accepted.find((key) => key.label === "ed25519");

interface CertificateView {
  key_id: string;
  principals: string[];
  critical_options: Record<string, string>;
  valid: boolean;
  invalid_reason: string | null;
}
interface Detail {
  id: string;
  status: string;
  connection_identifier: string;
  failed_attempts?: number;
  connections: {
    outcome: string;
    refusals: string[];
    keys: { public_key_sha256: string; certificate: CertificateView | null }[];
  }[];
}

const detail = (apiKey: string, kind: "collect" | "verify", id: string) =>
  callJson<Detail>(`/api/v1/ssh/${kind}/sessions/${id}/`, 200, { key: apiKey });

/** A certificate's key collected from `ipAddress`: what the record says of the certificate. */
async function collectedFrom(label: string, ipAddress: string) {
  const { apiKey } = await newProject();
  const session = await createSession<Detail>(apiKey, "collect");
  const opened = await openConnection(session.connection_identifier, ipAddress);
  const finished = await finishConnection(opened, { keys: [blobOf(certificate(label).openssh)] });
  const after = await detail(apiKey, "collect", session.id);
  return { finished, connection: after.connections[0], apiKey, session };
}

describe("certificates obey their restrictions", () => {
  it("is not valid with a critical option sshd does not know", async () => {
    const { connection } = await collectedFrom("an unknown critical option", "198.51.100.7");
    expect(connection?.keys[0]?.certificate).toMatchObject({
      valid: false,
      invalid_reason: "unknown_critical_option",
      critical_options: { "permit-everything@example.com": "" },
    });
  });

  it("checks source-address against the connection's client address", async () => {
    const inside = await collectedFrom("source-address 10.9.8.0/24", "10.9.8.7");
    expect(inside.connection?.keys[0]?.certificate).toMatchObject({
      valid: true,
      invalid_reason: null,
    });
    const outside = await collectedFrom("source-address 10.9.8.0/24", "198.51.100.7");
    expect(outside.connection?.keys[0]?.certificate).toMatchObject({
      valid: false,
      invalid_reason: "source_address",
    });
  });

  it("trusts a CA's certificate only when it is valid, and records why not", async () => {
    const { apiKey } = await newProject();
    const fixture = certificate("source-address 10.9.8.0/24");
    const body = {
      certificate_authorities: [{ public_key: fixture.caOpenssh }],
      principal: "deploy",
      max_attempts: 3,
    };
    const outside = await createSession<Detail>(apiKey, "verify", body);
    const opened = await openConnection(outside.connection_identifier, "198.51.100.7");
    const refused = await internal<{ outcome: string }>(
      `/internal/v1/connections/${opened.connectionId}/finish`,
      {
        session_id: opened.sessionId,
        keys: [{ key: blobOf(fixture.openssh), security_key: null }],
        keys_offered: 1,
        refusals: ["certificate_source_address"],
        confirmed: null,
      },
    );
    expect(refused.json.outcome).toBe("no_match");
    const failed = await detail(apiKey, "verify", outside.id);
    expect(failed.connections[0]).toMatchObject({
      outcome: "no_match",
      refusals: ["certificate_source_address"],
      keys: [],
    });
    const inside = await createSession<Detail>(apiKey, "verify", body);
    const fromOffice = await openConnection(inside.connection_identifier, "10.9.8.200");
    const verified = await finishConnection(fromOffice, { keys: [blobOf(fixture.openssh)] });
    expect(verified.outcome).toBe("verified");
  });

  it("counts a verify-required certificate only with a security key's user-verified signature", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const result = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(certificate("verify-required").openssh)],
    });
    expect(result.outcome).toBe("no_key");
    expect((await detail(apiKey, "collect", session.id)).connections[0]?.keys).toEqual([]);
  });
});

describe("certificate text is escaped before it is stored", () => {
  it("escapes controls and bidirectional overrides as OpenSSH's logs do, everywhere", async () => {
    const { connection, apiKey, session } = await collectedFrom(
      "a bidirectional override in its key id",
      "198.51.100.7",
    );
    const stored = connection?.keys[0]?.certificate;
    expect(stored?.key_id).toBe("alice\\342\\200\\256\\007\\\\x");
    expect(stored?.principals).toEqual(["deploy\\342\\200\\256"]);
    const events = await callJson<{ items: { type: string; payload: { key?: unknown } }[] }>(
      `/api/v1/events/?session_id=${session.id}`,
      200,
      { key: apiKey },
    );
    const payload = JSON.stringify(events.items.find((e) => e.type === "key_collected"));
    expect(payload).toContain("alice\\\\342\\\\200\\\\256");
    expect(payload).not.toContain("\u202e");
    expect(payload).not.toContain("\u0007");
  });

  it("never matches a principal through an escaped look-alike", async () => {
    const { apiKey } = await newProject();
    const fixture = certificate("a bidirectional override in its key id");
    const session = await createSession<Detail>(apiKey, "verify", {
      certificate_authorities: [{ public_key: fixture.caOpenssh }],
      principal: "deploy",
    });
    const result = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(fixture.openssh)],
    });
    expect(result.outcome).toBe("no_match");
  });
});

describe("every place a public key is accepted refuses what is not one", () => {
  const places = [
    { field: "keys", body: (text: string) => ({ keys: [{ public_key: text }] }) },
    {
      field: "certificate_authorities",
      body: (text: string) => ({ certificate_authorities: [{ public_key: text }] }),
    },
  ];

  for (const place of places) {
    it.each(Object.entries(badPem))(`answers %s in ${place.field} with a 400`, async (_, text) => {
      const { apiKey } = await newProject();
      const problem = await expectProblem(
        await call("/api/v1/ssh/verify/sessions/", {
          method: "POST",
          key: apiKey,
          body: place.body(text),
        }),
        400,
      );
      expect(problem.errors?.[0]?.location).toBe(`body.${place.field}[0].public_key`);
    });

    it.each(Object.entries(privateKeys))(
      `recognises a private key (%s) in ${place.field}, and never sends any of it back`,
      async (_, text) => {
        const { apiKey } = await newProject();
        const response = await call("/api/v1/ssh/verify/sessions/", {
          method: "POST",
          key: apiKey,
          body: place.body(text),
        });
        const raw = await response.clone().text();
        const problem = await expectProblem(response, 400);
        expect(problem.errors?.[0]).toEqual({
          location: `body.${place.field}[0].public_key`,
          message:
            "This is a private key: keep it secret and paste the public key (the .pub file) instead",
        });
        for (const line of text.split("\n").filter((l) => l.length > 20))
          expect(raw).not.toContain(line.slice(0, 20));
      },
    );
  }

  it("refuses a private key in the web form without putting any of it in a URL or page", async () => {
    const { browser, projectId } = await browserWithProject();
    const text = privateKeys.OpenSSH ?? "";
    const posted = await browser.post(`/projects/${projectId}/sessions`, {
      kind: "verify",
      keys: text,
    });
    // The form comes back (no redirect, so no URL to leak into) without the pasted text.
    const body = text.split("\n")[1] ?? "";
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
    expect(posted.html).not.toContain(body.slice(0, 16));
    expect(posted.html).toContain("This is a private key");
  });
});

describe("a regressed counter on a key already collected", () => {
  it("records the second proof, marked, so a cloned key is visible", async () => {
    const { apiKey } = await newProject();
    const sk = securityKeys.find((key) => key.label === "sk-ed25519");
    const proof = (counter: number) => ({
      key: blobOf(sk?.openssh ?? ""),
      security_key: { flags: 0x01, counter },
    });
    const session = await createSession<Detail>(apiKey, "collect", { multi_connection: true });
    await connectAndFinish(session.connection_identifier, { keys: [proof(40)] });
    await connectAndFinish(session.connection_identifier, { keys: [proof(41)] });
    await connectAndFinish(session.connection_identifier, { keys: [proof(12)] });
    const after = await detail(apiKey, "collect", session.id);
    const [cloned, later, first] = after.connections.map((c) => c.keys);
    expect(first).toHaveLength(1);
    // A key proven again with a counter that went up is the same key: recorded once.
    expect(later).toEqual([]);
    expect(cloned).toEqual([
      expect.objectContaining({
        public_key_sha256: sk?.sha256,
        security_key: expect.objectContaining({ counter: 12, counter_regressed: true }),
      }),
    ]);
  });
});

/** A signature proof's session and the text sent to its URL. */
interface SignatureSession {
  id: string;
  connection_identifier: string;
  signature_url: string;
}

describe("signature proofs and stale SSH connections", () => {
  it("closes connections whose bridge never reported, and a late report keeps nothing", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<SignatureSession>(apiKey, "collect", {
      multi_connection: true,
    });
    const stale = await openConnection(session.connection_identifier);
    // The bridge died: its lease lapses (CONNECTION_LEASE_MS) before anyone hears of it.
    await lapseConnections(session.id);
    await changeHeldSession(session.id, { signatureChallenge: SIGNATURE_CHALLENGE });
    const signed = await call(`/api/v1/signatures/${session.connection_identifier}/`, {
      method: "POST",
      rawBody: signatures.find((fixture) => fixture.label === "ed25519")?.armored,
      headers: { "content-type": "text/plain" },
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    const after = await detail(apiKey, "collect", session.id);
    expect(after.connections.map((c) => c.outcome).sort()).toEqual(["collected", "disconnected"]);
    const late = await finishConnection(stale, { keys: [blobOf(ed25519?.openssh ?? "")] });
    expect(late.outcome).toBe("closed");
    const final = await detail(apiKey, "collect", session.id);
    const staleRecord = final.connections.find((c) => c.outcome === "disconnected");
    expect(staleRecord?.keys).toEqual([]);
  });
});

describe("the signature URL's client address", () => {
  it("believes cf-connecting-ip only as an address, in one spelling, and only behind the edge", () => {
    const edge = { TRUST_CF_CONNECTING_IP: "true" };
    const cases: [string | null, string][] = [
      ["203.0.113.9", "203.0.113.9"],
      ["::ffff:203.0.113.10", "203.0.113.10"],
      ["2001:DB8::1", "2001:db8::1"],
      ["<script>alert(1)</script>", "0.0.0.0"],
      ["1.2.3.4, 5.6.7.8", "0.0.0.0"],
      [null, "0.0.0.0"],
    ];
    for (const [header, address] of cases) {
      const headers = new Headers(header === null ? {} : { "cf-connecting-ip": header });
      expect(clientAddress(headers, edge)).toBe(address);
    }
    // A local run has no edge: a client's own header is not believed.
    const local = { TRUST_CF_CONNECTING_IP: "false" };
    expect(clientAddress(new Headers({ "cf-connecting-ip": "9.9.9.9" }), local)).toBe("127.0.0.1");
  });
});

describe("the proof page's live channel cannot be squatted", () => {
  const watch = async (identifier: string, address: string) =>
    call(`/p/${identifier}/live`, {
      headers: { upgrade: "websocket", "cf-connecting-ip": address },
    });

  it("caps watchers per client address, and a page that got none can poll", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await watch(session.connection_identifier, "192.0.2.1"));
    expect(taken.map((response) => response.status)).toEqual([101, 101, 101, 101]);
    for (const response of taken) response.webSocket?.accept();
    expect((await watch(session.connection_identifier, "192.0.2.1")).status).toBe(429);
    const user = await watch(session.connection_identifier, "192.0.2.99");
    expect(user.status).toBe(101);
    user.webSocket?.accept();
    const polled = await callJson<{ state: string; final: boolean }>(
      `/p/${session.connection_identifier}/status`,
      200,
    );
    expect(polled).toMatchObject({ state: "waiting", final: false });
  });

  it("closes a watcher that keeps sending, and every watcher once the session is over", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const chatty = await watch(session.connection_identifier, "192.0.2.2");
    const quiet = await watch(session.connection_identifier, "192.0.2.3");
    const closes = new Map<string, number>();
    for (const [name, response] of [
      ["chatty", chatty],
      ["quiet", quiet],
    ] as const) {
      const socket = response.webSocket;
      if (!socket) throw new Error("no WebSocket");
      socket.addEventListener("close", (event) => closes.set(name, event.code));
      socket.accept();
    }
    for (let i = 0; i < 20; i++) chatty.webSocket?.send("hello?");
    await expect.poll(() => closes.get("chatty")).toBe(1008);
    expect(closes.has("quiet")).toBe(false);
    await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed25519?.openssh ?? "")],
    });
    await expect.poll(() => closes.get("quiet")).toBe(1000);
    expect(
      (
        await callJson<{ state: string; final: boolean }>(
          `/p/${session.connection_identifier}/status`,
          200,
        )
      ).final,
    ).toBe(true);
  });

  it("closes a watcher that has heard nothing for the idle timeout", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Detail>(apiKey, "collect");
    const response = await watch(session.connection_identifier, "192.0.2.4");
    let code: number | null = null;
    response.webSocket?.addEventListener("close", (event) => {
      code = event.code;
    });
    response.webSocket?.accept();
    const stub = objectOf(session.id);
    await runInDurableObject(stub, (_instance, state) => {
      for (const socket of state.getWebSockets()) {
        const watcher = socket.deserializeAttachment() as { heardAt: number };
        socket.serializeAttachment({ ...watcher, heardAt: Date.now() - 11 * 60_000 });
      }
    });
    await runDurableObjectAlarm(stub);
    await expect.poll(() => code).toBe(1001);
  });
});

describe("webhook attempts take the time when they are claimed", () => {
  it("sends one attempt per attempt number, freshly signed, with a slow receiver and the sweeper running", async () => {
    const { apiKey, db, shard } = await newProject();
    const path = `/slow/1500/${crypto.randomUUID()}`;
    const hook = await callJson<{ id: string; secret: string }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: `${env.RECEIVER_URL}${path}`, events: ["ping"] },
    });
    await call(`/api/v1/webhooks/${hook.id}/test/`, { method: "POST", key: apiKey });
    const [invocation] = await db
      .select()
      .from(webhookInvocations)
      .where(eq(webhookInvocations.webhookId, hook.id));
    if (!invocation) throw new Error("no invocation");
    // As if this message's consumer had begun its batch minutes ago, busy with earlier events.
    const startedLongAgo = new Date(Date.now() - 10 * 60_000);
    await db
      .update(webhookInvocations)
      .set({ nextAttemptAt: new Date(Date.now() - 20 * 60_000).toISOString() })
      .where(eq(webhookInvocations.id, invocation.id));
    const message = { invocation_id: invocation.id, attempt: 1 };
    const first = processInvocation(env, shard, message, startedLongAgo);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The sweeper runs while the slow receiver is still answering, and its copy is consumed.
    await sweepDueInvocations(env, shard, new Date());
    const copy = processInvocation(env, shard, message, new Date());
    await Promise.all([first, copy]);
    const received = (await (await fetch(`${env.RECEIVER_URL}/_requests`)).json()) as {
      path: string;
      body: string;
      headers: Record<string, string>;
    }[];
    const requests = received.filter((request) => request.path === path);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    // Standard Webhooks libraries refuse a timestamp more than 5 minutes off.
    expect(() =>
      new Webhook(hook.secret).verify(request?.body ?? "", request?.headers ?? {}),
    ).not.toThrow();
  });
});
