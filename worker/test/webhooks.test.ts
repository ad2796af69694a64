import { describe, expect, it } from "vitest";
import { unsafeUrlReason } from "../src/lib/url-safety.ts";
import { ipv6Bytes } from "../src/protocol/ip-addresses.ts";
import { call, callJson, expectProblem, locations, newProject } from "./helpers.ts";

type Hook = Record<string, unknown> & { id: string; secret?: string };

describe("project webhooks", () => {
  it("creates with defaults and shows the secret once, then on request", async () => {
    const { apiKey } = await newProject();
    const hook = await callJson<Hook>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: "https://example.com/hook" },
    });
    expect(hook).toMatchObject({
      session_id: null,
      url: "https://example.com/hook",
      method: "post",
      headers: {},
      events: [],
      retries: 5,
      initial_backoff: 10,
      backoff_multiplier: 2,
      enabled: true,
    });
    expect(hook.id).toMatch(/^wh_/);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const fetched = await callJson<Hook>(`/api/v1/webhooks/${hook.id}/`, 200, { key: apiKey });
    expect(fetched).not.toHaveProperty("secret");
    const secret = await callJson<{ secret: string }>(`/api/v1/webhooks/${hook.id}/secret/`, 200, {
      key: apiKey,
    });
    expect(secret.secret).toBe(hook.secret);
    const list = await callJson<{ items: Hook[]; total: number }>("/api/v1/webhooks/", 200, {
      key: apiKey,
    });
    expect(list.items.map((item) => item.id)).toEqual([hook.id]);
  });

  it("changes fields with PATCH and deletes", async () => {
    const { apiKey } = await newProject();
    const hook = await callJson<Hook>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      body: { url: "https://example.com/a" },
    });
    const patched = await callJson<Hook>(`/api/v1/webhooks/${hook.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      body: {
        method: "put",
        events: ["verified", "verified"],
        headers: { "x-team": "keys" },
        enabled: false,
      },
    });
    expect(patched).toMatchObject({
      url: "https://example.com/a",
      method: "put",
      events: ["verified"],
      headers: { "x-team": "keys" },
      enabled: false,
    });
    expect(
      (await call(`/api/v1/webhooks/${hook.id}/`, { method: "DELETE", key: apiKey })).status,
    ).toBe(204);
    await expectProblem(await call(`/api/v1/webhooks/${hook.id}/`, { key: apiKey }), 404);
  });

  it.each([
    [{ url: "ftp://example.com/x" }, "body.url"],
    [{ url: "not a url" }, "body.url"],
    [{ url: "https://example.com", events: ["key"] }, "body.events[0]"],
    [{ url: "https://example.com", retries: 21 }, "body.retries"],
    [{ url: "https://example.com", backoff_multiplier: 0.5 }, "body.backoff_multiplier"],
    [{ url: "https://example.com", method: "delete" }, "body.method"],
    [
      { url: "https://example.com", headers: { "webhook-signature": "x" } },
      "body.headers.webhook-signature",
    ],
    [{ url: "https://example.com", headers: { "x-ok": "a\r\nb" } }, "body.headers.x-ok"],
    [{ url: "https://user:pw@example.com" }, "body.url"],
  ])("refuses %j at %s", async (body, location) => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call("/api/v1/webhooks/", { method: "POST", key: apiKey, body }),
      400,
    );
    expect(locations(problem)).toContain(location);
  });

  it("keeps another project's webhook invisible", async () => {
    const owner = await newProject();
    const other = await newProject();
    const hook = await callJson<Hook>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: owner.apiKey,
      body: { url: "https://example.com" },
    });
    for (const path of ["", "secret/", "deliveries/"]) {
      await expectProblem(
        await call(`/api/v1/webhooks/${hook.id}/${path}`, { key: other.apiKey }),
        404,
      );
    }
    await expectProblem(
      await call(`/api/v1/webhooks/${hook.id}/test/`, { method: "POST", key: other.apiKey }),
      404,
    );
  });
});

describe("session webhooks", () => {
  it("are created with the session, listed on it, replaced with PUT and gone with it", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ id: string; webhooks: Hook[] }>(
      "/api/v1/ssh/collect/sessions/",
      201,
      {
        method: "POST",
        key: apiKey,
        body: { webhooks: [{ url: "https://example.com/s", events: ["key_collected"] }] },
      },
    );
    const [created] = session.webhooks;
    expect(created).toMatchObject({ session_id: session.id, events: ["key_collected"] });
    expect(created?.secret).toMatch(/^whsec_/);
    const base = `/api/v1/ssh/collect/sessions/${session.id}/webhooks/`;
    const detail = await callJson<{ webhooks: Hook[] }>(
      `/api/v1/ssh/collect/sessions/${session.id}/`,
      200,
      { key: apiKey },
    );
    expect(detail.webhooks.map((hook) => hook.id)).toEqual([created?.id]);
    expect(detail.webhooks[0]).not.toHaveProperty("secret");

    const replaced = await callJson<Hook>(`${base}${created?.id}/`, 200, {
      method: "PUT",
      key: apiKey,
      body: { url: "https://example.com/t" },
    });
    expect(replaced).toMatchObject({ url: "https://example.com/t", events: [], retries: 5 });
    const added = await callJson<Hook>(base, 201, {
      method: "POST",
      key: apiKey,
      body: { url: "https://example.com/u" },
    });
    const list = await callJson<{ items: Hook[] }>(base, 200, { key: apiKey });
    expect(list.items.map((hook) => hook.id)).toEqual([added.id, created?.id]);
    const projectList = await callJson<{ total: number }>("/api/v1/webhooks/", 200, {
      key: apiKey,
    });
    expect(projectList.total).toBe(0);

    await callJson(`/api/v1/ssh/collect/sessions/${session.id}/`, 204, {
      method: "DELETE",
      key: apiKey,
    }).catch(() => undefined);
    await expectProblem(await call(`/api/v1/webhooks/${added.id}/`, { key: apiKey }), 404);
  });

  it("refuses a bad webhook at its index when creating a session", async () => {
    const { apiKey } = await newProject();
    const problem = await expectProblem(
      await call("/api/v1/ssh/collect/sessions/", {
        method: "POST",
        key: apiKey,
        body: { webhooks: [{ url: "https://a.example" }, { url: "gopher://x" }] },
      }),
      400,
    );
    expect(locations(problem)).toEqual(["body.webhooks[1].url"]);
  });

  it("are 404 through a session of the other kind", async () => {
    const { apiKey } = await newProject();
    const session = await callJson<{ id: string }>("/api/v1/ssh/collect/sessions/", 201, {
      method: "POST",
      key: apiKey,
    });
    await expectProblem(
      await call(`/api/v1/ssh/verify/sessions/${session.id}/webhooks/`, { key: apiKey }),
      404,
    );
  });
});

describe("delivery URL safety", () => {
  it.each([
    "http://127.0.0.1/x",
    "http://localhost:8080/",
    "http://10.1.2.3/",
    "http://172.20.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://metadata.google.internal/",
    "http://printer.local/",
    // Trailing dots, and every IPv4 spelling the URL parser accepts.
    "http://localhost./",
    "http://LOCALHOST../",
    "http://metadata.google.internal./",
    "http://127.0.0.1./",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://127.1/",
    "http://0/",
    "http://100.100.100.200/",
    // Translated IPv6 forms: mapped, NAT64, 6to4, Teredo, compatible, in every notation.
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[64:ff9b:1::1]/",
    "http://[2002:7f00:1::]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[::127.0.0.1]/",
    "http://[::]/",
    "http://[fe80::1]/",
    "http://[ff02::1]/",
    // Names that only resolve inside a network.
    "http://metadata/",
    "http://instance-data/latest/",
    "http://router.lan/",
    "http://nas.home.arpa/",
  ])("refuses %s in production", (url) => {
    expect(unsafeUrlReason(url, false)).toMatch(/not allowed/);
    expect(unsafeUrlReason(url, true)).toBeNull();
  });

  it("allows public addresses in production", () => {
    expect(unsafeUrlReason("https://hooks.example.com/keyproof", false)).toBeNull();
    expect(unsafeUrlReason("https://hooks.example.com./keyproof", false)).toBeNull();
    expect(unsafeUrlReason("http://93.184.216.34/", false)).toBeNull();
    expect(unsafeUrlReason("http://[2606:4700:4700::1111]/", false)).toBeNull();
  });

  it("reads IPv6 literals in every notation", () => {
    expect(ipv6Bytes("[::ffff:127.0.0.1]")).toEqual(ipv6Bytes("0:0:0:0:0:ffff:7f00:1"));
    expect(ipv6Bytes("2001:db8::1")?.at(-1)).toBe(1);
    expect(ipv6Bytes("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(ipv6Bytes("1::2::3")).toBeNull();
  });
});
