import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { directoryDb } from "../src/db/databases.ts";
import { type AuditAction, auditLog } from "../src/db/directory.ts";
import { AUDIT_KEPT_DAYS } from "../src/domain/audit-log.ts";
import { sweepExpiredAccess } from "../src/domain/housekeeping.ts";
import { encodeTime } from "../src/lib/ids.ts";
import { call, callJson, createSession, newProject } from "./helpers.ts";
import { browserWithProject, signedUpBrowser } from "./web-client.ts";

interface AuditPage {
  items: {
    action: string;
    actor: { type: string; id: string; label: string };
    target_id: string | null;
    details: Record<string, unknown>;
    ip_address: string;
    user_agent: string;
    created_at: string;
  }[];
  total: number;
  has_more: boolean;
}

const auditLogOf = (apiKey: string, query = "") =>
  callJson<AuditPage>(`/api/v1/audit-log/${query}`, 200, { key: apiKey });

describe("a project's audit log", () => {
  it("records each change an API key makes, with who and from where, newest first", async () => {
    const { apiKey } = await newProject();
    const headers = { "user-agent": "audit-test/1.0" };
    const hook = await callJson<{ id: string }>("/api/v1/webhooks/", 201, {
      method: "POST",
      key: apiKey,
      headers,
      body: { url: "https://example.com/hook" },
    });
    await callJson(`/api/v1/webhooks/${hook.id}/`, 200, {
      method: "PATCH",
      key: apiKey,
      headers,
      body: { enabled: false },
    });
    expect(
      (await call(`/api/v1/webhooks/${hook.id}/`, { method: "DELETE", key: apiKey, headers }))
        .status,
    ).toBe(204);
    await callJson("/api/v1/project/", 200, {
      method: "PATCH",
      key: apiKey,
      headers,
      body: { retention_days: 7 },
    });
    const session = await createSession(apiKey, "collect", { external_id: "private-ext-id" });
    const path = `/api/v1/ssh/collect/sessions/${session.id}/`;
    expect((await call(path, { method: "DELETE", key: apiKey, headers })).status).toBe(204);

    // The session's deletion is written after its answer: it arrives within moments.
    await expect.poll(async () => (await auditLogOf(apiKey)).total).toBe(5);
    const log = await auditLogOf(apiKey);
    expect(log.items.map((entry) => [entry.action, entry.target_id])).toEqual([
      ["session.deleted", session.id],
      ["project.retention_changed", null],
      ["webhook.deleted", hook.id],
      ["webhook.updated", hook.id],
      ["webhook.created", hook.id],
    ]);
    const [deleted, retention, , updated] = log.items;
    expect(retention?.details).toEqual({ retention_days: 7 });
    expect(updated?.details).toEqual({ fields: "enabled" });
    expect(deleted?.details).toEqual({ livemode: true });
    for (const entry of log.items) {
      expect(entry.actor.type).toBe("api_key");
      expect(entry.actor.id).toMatch(/^key_/);
      expect(apiKey.startsWith(entry.actor.label)).toBe(true);
      expect(entry.user_agent).toBe("audit-test/1.0");
      expect(entry.ip_address).not.toBe("");
    }
    // An erased session's id may stay; nothing of its data does.
    expect(JSON.stringify(log)).not.toContain("private-ext-id");
    // Paginated as the other lists.
    const second = await auditLogOf(apiKey, "?offset=1&limit=2");
    expect(second.items.map((entry) => entry.action)).toEqual([
      "project.retention_changed",
      "webhook.deleted",
    ]);
    expect(second).toMatchObject({ total: 5, has_more: true });
  });

  it("records the web app's changes with the member's account, shown to owners only", async () => {
    const { browser, email, projectId } = await browserWithProject("Audited");
    const base = `/projects/${projectId}`;
    expect((await browser.post(`${base}/api-keys`, { name: "ci", mode: "live" })).status).toBe(303);
    const settings = await browser.get(`${base}/settings`);
    const keyId = settings.html.match(/api-keys\/(key_[0-9a-z]+)\/revoke/)?.[1] ?? "";
    expect(keyId).not.toBe("");
    await browser.post(`${base}/api-keys/${keyId}/revoke`, { confirm: "revoke" });
    await browser.post(`${base}/test-data/delete`, { confirm: "delete-test-data" });
    await browser.post(`${base}/retention`, { retention_days: "90" });

    const page = await browser.get(`${base}/audit-log`);
    expect(page.status).toBe(200);
    const rows = [...page.html.matchAll(/<tr>(.*?)<\/tr>/gs)]
      .map((row) => row[1] ?? "")
      .filter((row) => row.includes("data-label"));
    const actions = rows.map((row) => row.match(/data-label="What">([A-Za-z -]+)/)?.[1]?.trim());
    expect(actions).toEqual([
      "changed retention",
      "deleted all test data",
      "revoked an API key",
      "created an API key",
    ]);
    for (const row of rows) {
      expect(row).toContain(email);
      expect(row).toContain(browser.address);
    }
    expect(page.html).toContain(keyId);
    // Someone who is not an owner of the project never sees it.
    const stranger = await signedUpBrowser();
    expect((await stranger.browser.get(`${base}/audit-log`)).status).toBe(404);
  });

  it("keeps each entry AUDIT_KEPT_DAYS, then the cron deletes it", async () => {
    const { apiKey, projectId } = await newProject();
    const directory = directoryDb(env);
    const day = 86_400_000;
    /** An entry made `days` ago: its id carries its time, as every id does. */
    const madeDaysAgo = (days: number, action: AuditAction) => {
      const at = Date.now() - days * day;
      return directory.insert(auditLog).values({
        id: `aud_${encodeTime(at)}${"0".repeat(16)}`,
        projectId,
        actorType: "account",
        actorId: "acc_x",
        actorLabel: "a@example.com",
        action,
        targetId: null,
        details: {},
        ipAddress: "198.51.100.1",
        userAgent: "",
        createdAt: new Date(at).toISOString(),
      });
    };
    await madeDaysAgo(AUDIT_KEPT_DAYS + 1, "project.renamed");
    await madeDaysAgo(AUDIT_KEPT_DAYS - 1, "project.test_data_deleted");
    expect((await auditLogOf(apiKey)).total).toBe(2);
    await sweepExpiredAccess(directory);
    const kept = await auditLogOf(apiKey);
    expect(kept.items.map((entry) => entry.action)).toEqual(["project.test_data_deleted"]);
  });
});
