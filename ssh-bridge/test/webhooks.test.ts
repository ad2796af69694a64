import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedProject } from "../../test-support/local-worker.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../test-support/webhook-receiver.ts";
import { apiClient } from "./helpers/api.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

const ctx = useBridge();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

type Hook = { id: string; secret: string };
type Envelope = {
  event: string;
  event_id: string;
  webhook_id: string;
  webhook_invocation_id: string;
  attempt: number;
  entity: string;
  id: string;
  payload: Record<string, unknown>;
};
type Deliveries = {
  items: { id: string; status: string; attempts: { status_code: number | null }[] }[];
};

/** A fresh path on the receiver; its mode (`ok`, `status/500`, ...) says how it answers. */
const route = (mode = "ok") => `/${mode}/${crypto.randomUUID()}`;

/**
 * A webhook of the shared project, which other files' sessions use at the same time: a test that
 * counts every request a hook receives subscribes it to `ping` alone.
 */
async function projectHook(path: string, body: Record<string, unknown> = {}): Promise<Hook> {
  const url = `${receiver.url}${path}`;
  const hook = await ctx.api.request<Hook>("POST", "/webhooks/", { url, ...body }, 201);
  receiver.trust(path, hook.secret);
  return hook;
}

const envelopes = (path: string) =>
  receiver.requestsTo(path).map((request) => JSON.parse(request.body) as Envelope);

const deliveries = (hookId: string, query = "") =>
  ctx.api.request<Deliveries>("GET", `/webhooks/${hookId}/deliveries/${query}`);

/** Polls `read` until `done` holds or 30 s pass; the caller's assertions say what was missing. */
async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** An API key of a second project in the shared Worker. */
async function strangerKey(): Promise<string> {
  return (await seedProject({ persistTo: inject("persistTo") })).apiKey;
}

describe("webhooks end to end", () => {
  it("delivers new_connection, key_collected, status_changed in order, verified by standardwebhooks", async () => {
    const path = route();
    const hook = await projectHook(path);
    const key = makeKey();
    const session = await ctx.api.createSession("collect", { external_id: "user-9" });
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [key] });
    const mine = () => envelopes(path).filter((envelope) => envelope.id === session.id);
    await waitFor(mine, (list) => list.length >= 3);
    expect(mine().map((envelope) => envelope.event)).toEqual([
      "new_connection",
      "key_collected",
      "status_changed",
    ]);
    expect(receiver.requestsTo(path).every((request) => request.verified === true)).toBe(true);
    const [, collected] = mine();
    expect(collected).toMatchObject({ entity: "collect_session", webhook_id: hook.id, attempt: 1 });
    expect(collected?.payload).toMatchObject({
      collect_session_external_id: "user-9",
      key: { public_key_sha256: key.sha256 },
    });
    const requestsOfSession = receiver
      .requestsTo(path)
      .filter((request) => (JSON.parse(request.body) as Envelope).id === session.id);
    expect(requestsOfSession[1]?.headers["webhook-id"]).toBe(collected?.webhook_invocation_id);
  });

  it("delivers verified, and failed_attempt for a wrong key", async () => {
    const path = route();
    await projectHook(path, { events: ["verified", "failed_attempt"] });
    const expected = makeKey();
    const keys = [{ public_key: expected.publicKey }];
    const good = await ctx.api.createSession("verify", { keys });
    const bad = await ctx.api.createSession("verify", { keys, max_attempts: 3 });
    await runSsh({ port: ctx.bridge.port, user: good.connection_identifier, keys: [expected] });
    await runSsh({ port: ctx.bridge.port, user: bad.connection_identifier, keys: [makeKey()] });
    // Delivery is at least once: a busy machine may deliver one twice, so both kinds are awaited.
    await waitFor(
      () => envelopes(path),
      (list) => new Set(list.map((envelope) => envelope.event)).size >= 2,
    );
    const byEvent = Object.fromEntries(
      envelopes(path).map((envelope) => [envelope.event, envelope.id]),
    );
    expect(byEvent).toEqual({ verified: good.id, failed_attempt: bad.id });
  });

  it("retries a failing receiver with the same webhook-id until attempt 3 succeeds", async () => {
    const path = route("fail-times/2");
    const hook = await projectHook(path, {
      events: ["ping"],
      initial_backoff: 1,
      backoff_multiplier: 1,
    });
    await ctx.api.request("POST", `/webhooks/${hook.id}/test/`, undefined, 202);
    const requests = await waitFor(
      () => receiver.requestsTo(path),
      (list) => list.length >= 3,
    );
    expect(requests.map((request) => (JSON.parse(request.body) as Envelope).attempt)).toEqual([
      1, 2, 3,
    ]);
    expect(new Set(requests.map((request) => request.headers["webhook-id"])).size).toBe(1);
    const settled = await waitFor(
      () => deliveries(hook.id),
      (list) => list.items[0]?.status === "succeeded",
    );
    expect(settled.items[0]?.status).toBe("succeeded");
    expect(settled.items[0]?.attempts.map((attempt) => attempt.status_code)).toEqual([
      500, 500, 200,
    ]);
  });

  it("leaves a failed invocation that a manual retry delivers", async () => {
    const path = route("status/500");
    const hook = await projectHook(path, { events: ["ping"], retries: 1, initial_backoff: 1 });
    const ping = await ctx.api.request<{ id: string }>(
      "POST",
      `/webhooks/${hook.id}/test/`,
      undefined,
      202,
    );
    const failed = await waitFor(
      () => deliveries(hook.id, "?status=failed"),
      (list) => list.items.length > 0,
    );
    expect(failed.items.map((delivery) => delivery.id)).toEqual([ping.id]);

    const fixed = route();
    receiver.trust(fixed, hook.secret);
    await ctx.api.request("PATCH", `/webhooks/${hook.id}/`, { url: `${receiver.url}${fixed}` });
    await ctx.api.request(
      "POST",
      `/webhooks/${hook.id}/deliveries/${ping.id}/retry/`,
      undefined,
      202,
    );
    const delivered = await waitFor(
      () => receiver.requestsTo(fixed),
      (list) => list.length >= 1,
    );
    expect(delivered[0]?.headers["webhook-id"]).toBe(ping.id);
    expect(delivered[0]?.verified).toBe(true);
    expect((JSON.parse(delivered[0]?.body ?? "{}") as Envelope).attempt).toBe(3);
  });

  it("delivers to a fast receiver while another webhook's receiver takes 6 s to answer", async () => {
    const slowPath = route("slow/6000");
    const fastPath = route();
    const slow = await projectHook(slowPath, { events: ["ping"] });
    const fast = await projectHook(fastPath, { events: ["ping"] });
    await ctx.api.request("POST", `/webhooks/${slow.id}/test/`, undefined, 202);
    const [held] = await waitFor(
      () => receiver.requestsTo(slowPath),
      (list) => list.length >= 1,
    );
    await ctx.api.request("POST", `/webhooks/${fast.id}/test/`, undefined, 202);
    const [quick] = await waitFor(
      () => receiver.requestsTo(fastPath),
      (list) => list.length >= 1,
    );
    // The fast receiver had its delivery while the slow one was still answering the first.
    expect(quick?.verified).toBe(true);
    expect(quick?.at).toBeLessThan(held?.finishedAt ?? Number.POSITIVE_INFINITY);
    // And the slow receiver's answer, when it came, was recorded as its delivery's.
    const settled = await waitFor(
      () => deliveries(slow.id),
      (list) => list.items[0]?.status === "succeeded",
    );
    expect(settled.items[0]?.attempts.map((attempt) => attempt.status_code)).toEqual([200]);
  });

  it("delivers one event to both a project and a session webhook, honouring filters", async () => {
    const projectPath = route();
    const sessionPath = route();
    const filteredPath = route();
    await projectHook(projectPath, { events: ["status_changed"] });
    await projectHook(filteredPath, { events: ["ping"] });
    const session = await ctx.api.createSession("collect", {
      webhooks: [{ url: `${receiver.url}${sessionPath}`, events: ["status_changed"] }],
    });
    const [sessionHook] = (session as unknown as { webhooks: Hook[] }).webhooks;
    receiver.trust(sessionPath, sessionHook?.secret ?? "");
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [makeKey()] });
    const fromSession = await waitFor(
      () => envelopes(sessionPath),
      (list) => list.length >= 1,
    );
    const fromProject = await waitFor(
      () => envelopes(projectPath).filter((envelope) => envelope.id === session.id),
      (list) => list.length >= 1,
    );
    expect(fromSession.map((envelope) => envelope.event)).toEqual(["status_changed"]);
    expect(fromProject.map((envelope) => envelope.event)).toEqual(["status_changed"]);
    expect(fromSession[0]?.event_id).toBe(fromProject[0]?.event_id);
    expect(receiver.requestsTo(sessionPath)[0]?.verified).toBe(true);
    expect(envelopes(filteredPath).filter((envelope) => envelope.id === session.id)).toEqual([]);
  });

  it("keeps another project's webhook out of reach and silent", async () => {
    const path = route();
    const other = await projectHook(path);
    const stranger = apiClient(ctx.worker.url, await strangerKey());
    await stranger.request("GET", `/webhooks/${other.id}/`, undefined, 404);
    await stranger.request("POST", `/webhooks/${other.id}/test/`, undefined, 404);
    const session = await stranger.createSession("collect");
    await runSsh({ port: ctx.bridge.port, user: session.connection_identifier, keys: [makeKey()] });
    const events = await waitFor(
      () => stranger.request<{ total: number }>("GET", `/events/?session_id=${session.id}`),
      (list) => list.total >= 3,
    );
    expect(events.total).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(envelopes(path).filter((envelope) => envelope.id === session.id)).toEqual([]);
  });
});
