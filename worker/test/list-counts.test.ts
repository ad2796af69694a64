import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { projects } from "../src/db/directory.ts";
import { TOTAL_COUNTED_PAST_PAGE } from "../src/schemas/common.ts";
import { callJson, createSession, directory } from "./helpers.ts";
import { indexed } from "./session-objects.ts";
import { browserWithProject } from "./web-client.ts";

/**
 * A list's `total` is counted only so far past its page: a count walks every index entry it
 * counts, on the shard's primary, at every list.
 */

const MORE = 150;
const COPIES = TOTAL_COUNTED_PAST_PAGE + MORE;

/**
 * COPIES more sessions for the project of `sessionId`, straight into its shard: copies of that
 * session's row under new ids and identifiers (one statement, as a long history would be there).
 */
async function copiesOf(d1: D1Database, sessionId: string) {
  const columns = (await d1.prepare("PRAGMA table_info(sessions)").all<{ name: string }>()).results
    .map((column) => column.name)
    .filter((name) => name !== "id" && name !== "connection_identifier");
  const list = columns.map((name) => `"${name}"`).join(", ");
  await d1
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO sessions (id, connection_identifier, ${list})
       SELECT substr(id, 1, 13) || printf('%016d', i), 'copy' || printf('%016d', i), ${list}
       FROM sessions, n WHERE id = ?`,
    )
    .bind(COPIES, sessionId)
    .run();
}

async function shardOf(projectId: string) {
  const [project] = await directory()
    .select({ shard: projects.shard })
    .from(projects)
    .where(eq(projects.id, projectId));
  const d1 = (env as unknown as Record<string, D1Database>)[project?.shard ?? ""];
  if (!d1) throw new Error(`no shard for ${projectId}`);
  return d1;
}

describe("a list's total", () => {
  it(`is exact within ${TOTAL_COUNTED_PAST_PAGE.toLocaleString("en-US")} past the page, and says so much and no more beyond`, async () => {
    const { browser, projectId } = await browserWithProject("Counted");
    const keyPage = await browser.follow(
      await browser.post(`/projects/${projectId}/api-keys`, { name: "counts", expires_on: "" }),
    );
    const apiKey =
      /<code id="new-api-key">(kp_live_[0-9a-z]+)<\/code>/.exec(keyPage.html)?.[1] ?? "";
    expect(apiKey, keyPage.html).not.toBe("");
    const first = await createSession(apiKey, "collect");
    await indexed(first.id);
    await copiesOf(await shardOf(projectId), first.id);
    const all = COPIES + 1;
    const list = (query: string) =>
      callJson<{ total: number; has_more: boolean; items: unknown[] }>(
        `/api/v1/ssh/collect/sessions/?${query}`,
        200,
        { key: apiKey },
      );

    // Far from the end: counted up to the horizon past the page, and has_more says more follow.
    const near = await list("limit=10");
    expect(near.items).toHaveLength(10);
    expect(near.total).toBe(10 + TOTAL_COUNTED_PAST_PAGE);
    expect(near.has_more).toBe(true);
    // Within the horizon of the end: exact.
    const late = await list(`offset=${all - 60}&limit=100`);
    expect(late.total).toBe(all);
    expect(late.items).toHaveLength(60);
    expect(late.has_more).toBe(false);

    // The web app says there may be more ("+") only where the count stopped.
    const page = await browser.get(`/projects/${projectId}/sessions`);
    expect(page.html).toMatch(/1–25 of 1,025\+/);
    const last = await browser.get(`/projects/${projectId}/sessions?offset=${all - 10}`);
    expect(last.html).toContain(`of ${all.toLocaleString("en-US")} `);
  });
});
