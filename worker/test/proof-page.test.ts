import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  blobOf,
  connectAndFinish,
  finishConnection,
  internal,
  openConnection,
} from "./bridge-calls.ts";
import { call, createSession, newProject } from "./helpers.ts";
import { changeHeldSession } from "./session-objects.ts";

const ed25519 = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

interface Session {
  id: string;
  connection_identifier: string;
  proof_url: string;
  sign_command: string;
  ssh_command: string;
}

const page = async (identifier: string) => {
  const response = await call(`/p/${identifier}`);
  return { status: response.status, html: await response.text() };
};

/** The proof page's live channel, as the page's script opens it. */
async function watch(identifier: string) {
  const response = await call(`/p/${identifier}/live`, { headers: { upgrade: "websocket" } });
  expect(response.status).toBe(101);
  const socket = response.webSocket;
  if (!socket) throw new Error("no WebSocket");
  const received: { state: string; headline: string; keys: string[] }[] = [];
  const waiters: (() => void)[] = [];
  socket.addEventListener("message", (event) => {
    received.push(JSON.parse(event.data as string));
    for (const wake of waiters.splice(0)) wake();
  });
  socket.accept();
  return {
    received,
    /** The next status whose state is `state`. */
    async next(state: string) {
      for (let i = 0; i < 50; i++) {
        const found = received.find((status) => status.state === state);
        if (found) return found;
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      throw new Error(`no "${state}" status; got ${JSON.stringify(received)}`);
    },
    close: () => socket.close(),
  };
}

describe("the hosted proof page", () => {
  it("shows the command, the host keys, the signature way and the banner, and nothing private", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "verify", {
      external_id: "customer-secret-42",
      ssh_banner: "Acme asks you to prove your key.\n<b>Second line</b>",
      keys: [{ name: "alice-laptop", public_key: ed25519?.openssh }],
    });
    expect(session.proof_url).toBe(`${env.PUBLIC_URL}/p/${session.connection_identifier}`);
    const { status, html } = await page(session.connection_identifier);
    expect(status).toBe(200);
    expect(html).toContain(session.ssh_command);
    expect(html).toContain(session.sign_command.replaceAll("'", "&#39;"));
    // Named as ssh names it on first contact when the setting says; bare when it does not.
    expect(html).toMatch(/<span class="key-type">ED25519<\/span> <code>SHA256:hostkeyone<\/code>/);
    expect(html).toMatch(/<li> <code>SHA256:hostkeytwo<\/code>/);
    expect(html).toContain("Acme asks you to prove your key.\n&lt;b&gt;Second line&lt;/b&gt;");
    expect(html).toContain("Waiting for you to connect.");
    expect(html).toContain('<meta http-equiv="refresh" content="5"/>');
    for (const secret of ["customer-secret-42", "alice-laptop", ed25519?.sha256 ?? "", session.id])
      expect(html).not.toContain(secret);
  });

  it("is a 404 for unknown, deleted and expired sessions", async () => {
    const { apiKey } = await newProject();
    expect((await page("0".repeat(26))).status).toBe(404);
    expect((await page("not-an-identifier")).status).toBe(404);
    const deleted = await createSession<Session>(apiKey, "collect");
    await call(`/api/v1/ssh/collect/sessions/${deleted.id}/`, { method: "DELETE", key: apiKey });
    const gone = await page(deleted.connection_identifier);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain("No proof page here");
    expect(
      (
        await call(`/p/${deleted.connection_identifier}/live`, {
          headers: { upgrade: "websocket" },
        })
      ).status,
    ).toBe(404);
    for (const row of [
      { status: "expired" as const },
      // Past its expiry, before the alarm has run.
      { status: "pending" as const, expiredAt: new Date(Date.now() - 1000).toISOString() },
    ]) {
      const expired = await createSession<Session>(apiKey, "collect");
      await changeHeldSession(expired.id, row);
      expect((await page(expired.connection_identifier)).status).toBe(404);
    }
  });

  it("pushes every step live: connected, confirming, done with the fingerprint", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "collect", { must_confirm: true });
    const live = await watch(session.connection_identifier);
    expect((await live.next("waiting")).headline).toBe("Waiting for you to connect.");
    const opened = await openConnection(session.connection_identifier);
    expect((await live.next("connected")).headline).toContain("Connected");
    const view = {
      sha256: ed25519?.sha256 ?? "",
      algorithm: "ssh-ed25519",
      bits: 256,
      certified: false,
    };
    await internal(`/internal/v1/connections/${opened.connectionId}/progress`, {
      session_id: opened.sessionId,
      confirming: [view],
    });
    const confirming = await live.next("confirming");
    expect(confirming.headline).toContain("press y");
    // Nothing of a key awaiting its `y` is shown before the user agreed.
    expect(confirming.keys).toEqual([]);
    await finishConnection(opened, { keys: [blobOf(ed25519?.openssh ?? "")], confirmed: true });
    const done = await live.next("done");
    expect(done.keys).toEqual([`${view.sha256} (ED25519 256)`]);
    live.close();
    // The page as it renders now, for a reload.
    expect((await page(session.connection_identifier)).html).toContain(
      "Done: your key was received.",
    );
  });

  it("tells a verification user what a failed attempt means", async () => {
    const { apiKey } = await newProject();
    const session = await createSession<Session>(apiKey, "verify", {
      keys: [{ public_key: ed25519?.openssh }],
      max_attempts: 2,
    });
    const other = env.TEST_KEYS.accepted.find((key) => key.label === "ecdsa-256");
    await connectAndFinish(session.connection_identifier, { keys: [blobOf(other?.openssh ?? "")] });
    const { html } = await page(session.connection_identifier);
    expect(html).toContain("That key is not one this session expects.");
    expect(html).toContain("1 attempt left.");
  });
});
