import { env } from "cloudflare:workers";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { fakeForgeClient } from "../../test-support/fake-forge.ts";
import { configuredForges, expectedAccounts, forgesProblem } from "../src/domain/forges.ts";
import { blobOf, connectAndFinish, finishConnection, openConnection } from "./bridge-calls.ts";
import { call, callJson, expectProblem, locations, newProject } from "./helpers.ts";
import { browserWithProject } from "./web-client.ts";

/** Inside workerd: keys_from against a real HTTP forge on 127.0.0.1 (named `fake`). */

const BASE = "/api/v1/ssh/verify/sessions/";
const forge = fakeForgeClient(env.FORGE_URL);
const { accepted, refused } = env.TEST_KEYS;
const fixture = (label: string) => {
  const found = accepted.find((key) => key.label === label);
  if (!found) throw new Error(`no fixture ${label}`);
  return found;
};
/** An OpenSSH line keyproof refuses (`dsa`, `rsa-1024`). */
const refusedKey = (label: string) => {
  const found = refused[label];
  if (!found) throw new Error(`no refused fixture ${label}`);
  return found;
};
const ed = fixture("ed25519");
const ecdsa = fixture("ecdsa-256");
const rsa = fixture("rsa-3072");

/** A username no other test uses: the fake and the cache are shared by the whole run. */
let counter = 0;
const username = (label: string) => `${label}-${Date.now().toString(36)}-${counter++}`;

type ConfiguredKey = {
  public_key_sha256: string;
  source: string | null;
  verified_at: string | null;
};
type Created = {
  id: string;
  connection_identifier: string;
  keys: ConfiguredKey[];
  skipped_keys: { source: string; public_key: string; reason: string }[];
};

async function create(apiKey: string, body: Record<string, unknown>) {
  return call(BASE, { method: "POST", key: apiKey, body });
}

describe("keys_from: the keys an account lists become configured keys", () => {
  it("adds every usable key with its source; a proof with one of them verifies", async () => {
    const { apiKey } = await newProject();
    const alice = username("alice");
    await forge.setAccounts({ [alice]: { keys: [ed.openssh, `# a comment`, "", ecdsa.openssh] } });
    const session = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys: [{ public_key: rsa.openssh, name: "inline" }], keys_from: [`fake:${alice}`] },
    });
    expect(session.keys.map((key) => [key.public_key_sha256, key.source])).toEqual([
      [rsa.sha256, null],
      [ed.sha256, `fake:${alice}`],
      [ecdsa.sha256, `fake:${alice}`],
    ]);
    expect(session.skipped_keys).toEqual([]);

    const result = await connectAndFinish(session.connection_identifier, {
      keys: [blobOf(ed.openssh)],
    });
    expect(result.outcome).toBe("verified");
    const detail = await callJson<Created & { status: string }>(`${BASE}${session.id}`, 200, {
      key: apiKey,
    });
    expect(detail.status).toBe("verified");
    expect(detail.keys.find((key) => key.source)?.verified_at).not.toBeNull();
    expect(detail).not.toHaveProperty("skipped_keys");

    // The `verified` event names the account of the key that matched; so does the attestation.
    const events = await callJson<{ items: { type: string; payload: { keys?: unknown[] } }[] }>(
      `/api/v1/events/?session_id=${session.id}&type=verified`,
      200,
      { key: apiKey },
    );
    expect(events.items[0]?.payload.keys).toEqual([
      expect.objectContaining({ public_key_sha256: ed.sha256, source: `fake:${alice}` }),
    ]);
    const attestation = await callJson<{ token: string }>(
      `${BASE}${session.id}/attestation/`,
      200,
      {
        key: apiKey,
      },
    );
    expect(decodeJwt(attestation.token).keys).toEqual([
      expect.objectContaining({ public_key_sha256: ed.sha256, source: `fake:${alice}` }),
    ]);
  });

  it("another key is a failed attempt, and the bridge is told whose keys were expected", async () => {
    const { apiKey } = await newProject();
    const bob = username("bob");
    await forge.setAccounts({ [bob]: { keys: [ed.openssh] } });
    const session = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${bob}`], max_attempts: 2 },
    });
    const opened = await openConnection(session.connection_identifier);
    const finished = (await finishConnection(opened, {
      keys: [blobOf(ecdsa.openssh)],
    })) as unknown as {
      outcome: string;
      failed_attempts: number;
      expected_accounts: string[];
    };
    const host = new URL(env.FORGE_URL).host;
    expect(finished).toMatchObject({
      outcome: "no_match",
      failed_attempts: 1,
      expected_accounts: [`${host}/${bob}`],
    });
    // The proof page says the same sentence the terminal prints.
    const page = await (await call(`/p/${session.connection_identifier}`)).text();
    expect(page).toContain(`This session expects a key that ${host}/${bob} lists.`);
  });

  it("skips the keys keyproof refuses and reports why, and keys given twice once", async () => {
    const { apiKey } = await newProject();
    const carol = username("carol");
    const dsa = refusedKey("dsa");
    const short = refusedKey("rsa-1024");
    await forge.setAccounts({
      [carol]: { keys: [dsa, ed.openssh, short, "not a key at all", ed.openssh] },
    });
    const session = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${carol}`] },
    });
    expect(session.keys.map((key) => key.public_key_sha256)).toEqual([ed.sha256]);
    expect(session.skipped_keys.map((key) => [key.source, key.reason])).toEqual([
      [`fake:${carol}`, expect.stringMatching(/DSA/)],
      [`fake:${carol}`, expect.stringMatching(/RSA.*2048|2048.*RSA|1024/)],
      [`fake:${carol}`, expect.any(String)],
      [`fake:${carol}`, "Already given"],
    ]);
    expect(session.skipped_keys[0]?.public_key).toBe(dsa.trim());
  });

  it("answers a burst for one account with one fetch for 60 s, whatever the forge's headers", async () => {
    const { apiKey } = await newProject();
    const dave = username("dave");
    await forge.setAccounts({ [dave]: { keys: [ed.openssh] } });
    for (let i = 0; i < 3; i++) {
      const response = await create(apiKey, { keys_from: [`fake:${dave}`] });
      expect(response.status).toBe(201);
    }
    expect(await forge.requestsFor(dave)).toBe(1);
    // A change on the forge is not seen until the minute is up: the first answer is reused.
    await forge.setAccounts({ [dave]: { keys: [ecdsa.openssh] } });
    const again = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${dave}`] },
    });
    expect(again.keys.map((key) => key.public_key_sha256)).toEqual([ed.sha256]);
    expect(await forge.requestsFor(dave)).toBe(1);
  });
});

describe("keys_from: entries that cannot be used name themselves, and nothing is created", () => {
  async function sessionCount(apiKey: string) {
    const list = await callJson<{ total: number }>(BASE, 200, { key: apiKey });
    return list.total;
  }

  it("refuses an unknown account, an empty list and a list with nothing usable with 400s", async () => {
    const { apiKey } = await newProject();
    const good = username("good");
    const empty = username("empty");
    const useless = username("useless");
    const nobody = username("nobody");
    await forge.setAccounts({
      [good]: { keys: [ed.openssh] },
      [empty]: { keys: [] },
      [useless]: { keys: [refusedKey("dsa")] },
    });
    const host = new URL(env.FORGE_URL).host;
    const cases = [
      [nobody, `There is no account ${host}/${nobody}`],
      [empty, `${host}/${empty} lists no key keyproof can use`],
      [useless, `${host}/${useless} lists no key keyproof can use`],
    ] as const;
    for (const [name, sentence] of cases) {
      const problem = await expectProblem(
        await create(apiKey, { keys_from: [`fake:${good}`, `fake:${name}`] }),
        400,
      );
      expect(locations(problem)).toEqual(["body.keys_from[1]"]);
      expect(problem.errors?.[0]).toMatchObject({ message: sentence, value: `fake:${name}` });
    }
    expect(await sessionCount(apiKey)).toBe(0);
  });

  it("refuses usernames a forge could not have without asking it, and unknown forges", async () => {
    const { apiKey } = await newProject();
    const entries = [
      "fake:a/b",
      "fake:..",
      "fake:a%2fb",
      "fake:al ice",
      "fake: alice",
      "fake:alice\n",
      "fake:",
      "fake:alice:extra",
      "github:-alice",
      "github:al_ice",
      "nowhere:alice",
      "alice",
    ];
    for (const entry of entries) {
      const problem = await expectProblem(await create(apiKey, { keys_from: [entry] }), 400);
      expect(locations(problem), entry).toEqual(["body.keys_from[0]"]);
    }
    const unknown = await expectProblem(
      await create(apiKey, { keys_from: ["nowhere:alice"] }),
      400,
    );
    expect(unknown.detail).toMatch(
      /No forge named "nowhere"; this service knows github, gitlab, codeberg, fake, closed/,
    );
    for (const name of ["a", "b", "..", "a%2fb", "al ice", "alice"])
      expect(await forge.requestsFor(name)).toBe(0);
    expect(await sessionCount(apiKey)).toBe(0);
  });

  it("answers a forge that fails, is slow, or redirects elsewhere with a 503 and Retry-After", async () => {
    const { apiKey } = await newProject();
    const failing = username("failing");
    const slow = username("slow");
    const moved = username("moved");
    const target = username("target");
    const elsewhere = new URL(env.FORGE_URL);
    elsewhere.hostname = "localhost";
    await forge.setAccounts({
      [failing]: { status: 500 },
      [slow]: { keys: [ed.openssh], delayMs: 8_000 },
      [moved]: { redirectTo: `${elsewhere.origin}/${target}.keys` },
      [target]: { keys: [ed.openssh] },
    });
    for (const name of [failing, slow, moved]) {
      const response = await create(apiKey, { keys_from: [`fake:${name}`] });
      const problem = await expectProblem(response, 503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(problem.detail).toMatch(
        /^127.0.0.1:\d+ (did not answer within 5 s|answered 500|redirected to localhost:\d+, which keyproof does not follow); nothing was created\. Try again in a moment\.$/,
      );
      expect(locations(problem)).toEqual(["body.keys_from[0]"]);
    }
    // The redirect off the forge's host was never followed.
    expect(await forge.requestsFor(target)).toBe(0);
    expect(await sessionCount(apiKey)).toBe(0);
  }, 20_000);

  it("follows a redirect within the forge's host", async () => {
    const { apiKey } = await newProject();
    const renamed = username("renamed");
    const current = username("current");
    await forge.setAccounts({
      [renamed]: { redirectTo: `/${current}.keys` },
      [current]: { keys: [ed.openssh] },
    });
    const session = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${renamed}`] },
    });
    expect(session.keys.map((key) => key.source)).toEqual([`fake:${renamed}`]);
  });

  it("counts keys and keys_from together against the 50-key limit, and takes 1 to 5 accounts", async () => {
    const { apiKey } = await newProject();
    const many = username("many");
    await forge.setAccounts({ [many]: { keys: await freshEd25519Keys(49) } });
    const fits = await callJson<Created>(BASE, 201, {
      method: "POST",
      key: apiKey,
      body: { keys: [{ public_key: ed.openssh }], keys_from: [`fake:${many}`] },
    });
    expect(fits.keys).toHaveLength(50);
    const over = await expectProblem(
      await create(apiKey, {
        keys: [{ public_key: ed.openssh }, { public_key: ecdsa.openssh }],
        keys_from: [`fake:${many}`],
      }),
      400,
    );
    expect(locations(over)).toEqual(["body.keys_from"]);
    expect(over.detail).toMatch(/give 51 keys together; a session expects at most 50/);
    const tooMany = await expectProblem(
      await create(apiKey, { keys_from: Array.from({ length: 6 }, (_, i) => `fake:u${i}`) }),
      400,
    );
    expect(locations(tooMany)).toEqual(["body.keys_from"]);
    const nothing = await expectProblem(await create(apiKey, { keys_from: [] }), 400);
    expect(locations(nothing)).toContain("body.keys_from");
    const onCollect = await call("/api/v1/ssh/collect/sessions/", {
      method: "POST",
      key: apiKey,
      body: { keys_from: [`fake:${many}`] },
    });
    expect(onCollect.status).toBe(400);
  });
});

/** `count` new Ed25519 public keys as OpenSSH lines, made with WebCrypto. */
async function freshEd25519Keys(count: number): Promise<string[]> {
  const name = new TextEncoder().encode("ssh-ed25519");
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const pair = (await crypto.subtle.generateKey("Ed25519", true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const raw = new Uint8Array(
      (await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer,
    );
    const blob = new Uint8Array(4 + name.length + 4 + raw.length);
    const view = new DataView(blob.buffer);
    view.setUint32(0, name.length);
    blob.set(name, 4);
    view.setUint32(4 + name.length, raw.length);
    blob.set(raw, 8 + name.length);
    lines.push(`ssh-ed25519 ${btoa(String.fromCharCode(...blob))} generated-${i}`);
  }
  return lines;
}

describe("keys_from in the web app", () => {
  it("creates a verification session from accounts typed into the form, naming each key's account", async () => {
    const { browser, projectId } = await browserWithProject();
    const form = await browser.get(`/projects/${projectId}/sessions/new?kind=verify`);
    expect(form.html).toContain('name="keys_from"');
    const erin = username("erin");
    const frank = username("frank");
    await forge.setAccounts({
      [erin]: { keys: [ed.openssh, refusedKey("dsa")] },
      [frank]: { keys: [ecdsa.openssh] },
    });
    const detail = await browser.follow(
      await browser.post(`/projects/${projectId}/sessions`, {
        kind: "verify",
        keys_from: `fake:${erin}, fake:${frank}`,
      }),
    );
    const host = new URL(env.FORGE_URL).host;
    expect(detail.html).toContain(ed.sha256);
    expect(detail.html).toContain(`from ${host}/${erin}`);
    expect(detail.html).toContain(`from ${host}/${frank}`);
    expect(detail.html).toContain("1 listed key was skipped");
  });
});

describe("FORGES, the setting", () => {
  it("merges over GitHub, GitLab and Codeberg; null removes one", () => {
    const forges = configuredForges({
      ENVIRONMENT: "production",
      FORGES: JSON.stringify({ corp: "https://git.corp.example/", github: null }),
    });
    expect([...forges.keys()]).toEqual(["gitlab", "codeberg", "corp"]);
    expect(forges.get("corp")?.url).toBe("https://git.corp.example");
    expect(
      expectedAccounts(
        { ENVIRONMENT: "production", FORGES: JSON.stringify({ corp: "https://git.corp.example" }) },
        [
          { source: "corp:alice" },
          { source: "corp:alice" },
          { source: "codeberg:bob" },
          { source: null },
        ],
      ),
    ).toEqual(["git.corp.example/alice", "codeberg.org/bob"]);
  });

  it("states what is wrong with a setting it cannot use, and refuses private addresses in production", () => {
    const problem = (FORGES: string, ENVIRONMENT = "production") =>
      forgesProblem({ FORGES, ENVIRONMENT });
    expect(problem("{}")).toBeNull();
    expect(problem("not json")).toMatch(/FORGES is not JSON/);
    expect(problem("[]")).toMatch(/must be a JSON object/);
    expect(problem('{"Corp": "https://git.example"}')).toMatch(/lowercase/);
    expect(problem('{"corp": 7}')).toMatch(/must be a URL or null/);
    expect(problem('{"corp": "http://127.0.0.1:3000"}')).toMatch(/cannot be used/);
    expect(problem('{"corp": "http://127.0.0.1:3000"}', "development")).toBeNull();
  });
});
