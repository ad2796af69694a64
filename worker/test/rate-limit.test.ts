import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { QUIET_LEASE_MS } from "../src/api/rate-limit-leases.ts";
import {
  consumeSlidingWindow,
  HitLog,
  leaseSlidingWindow,
  settleGrants,
} from "../src/domain/rate-limit.ts";
import { call, directory, expectProblem, newProject } from "./helpers.ts";

describe("project rate limit", () => {
  it("answers 429 at exactly limit + 1, for the project as a whole, with Retry-After", async () => {
    const limit = Number(env.RATE_LIMIT_PER_MINUTE);
    const project = await newProject();
    const { createApiKey } = await import("../src/domain/api-keys.ts");
    const second = await createApiKey(
      { directory: directory(), projectId: project.projectId, now: new Date() },
      { name: "second" },
    );
    const keys = [project.apiKey, second.plaintext];
    for (let i = 0; i < limit; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, limit - i) }, (_, j) =>
          call("/api/v1/auth/info/", { key: keys[(i + j) % 2] }),
        ),
      );
      expect(batch.map((response) => response.status).every((status) => status === 200)).toBe(true);
    }
    const over = await call("/api/v1/auth/info/", { key: second.plaintext });
    const problem = await expectProblem(over, 429);
    expect(problem.detail).toMatch(`${limit} requests per minute`);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    // The isolate told the limiter when it spent its grants' hits, rounded up to the second: not
    // at their leases' ends (QUIET_LEASE_MS for the first half of the limit).
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(QUIET_LEASE_MS / 1000).toBeGreaterThan(1);

    const otherProject = await newProject();
    expect((await call("/api/v1/auth/info/", { key: otherProject.apiKey })).status).toBe(200);
  });

  it("counts a rolling window: room returns as old requests age out", () => {
    const hits = new HitLog();
    for (let i = 0; i < 3; i++) expect(consumeSlidingWindow(hits, 3, 1_000 + i).allowed).toBe(true);
    const refused = consumeSlidingWindow(hits, 3, 30_000);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 31 });
    expect(consumeSlidingWindow(hits, 3, 61_000).allowed).toBe(true);
    expect(consumeSlidingWindow(hits, 3, 61_000).allowed).toBe(false);
    expect(consumeSlidingWindow(hits, 3, 61_002).allowed).toBe(true);
  });

  it("never exceeds the limit however leased hits are spent", () => {
    const hits = new HitLog();
    // Leases of 3 at t=0, spendable until t=2000, logged at 2000.
    expect(leaseSlidingWindow(hits, 5, 3, 0, { leaseMs: 2_000 })).toMatchObject({
      granted: 3,
      remaining: 2,
    });
    expect(leaseSlidingWindow(hits, 5, 3, 0, { leaseMs: 2_000 })).toMatchObject({
      granted: 2,
      remaining: 0,
    });
    expect(leaseSlidingWindow(hits, 5, 1, 1_000, { leaseMs: 2_000 })).toMatchObject({ granted: 0 });
    // Spent at t=1999 at the latest, those hits count until 61,999: nothing before 62,000.
    expect(consumeSlidingWindow(hits, 5, 61_999).allowed).toBe(false);
    expect(consumeSlidingWindow(hits, 5, 62_000).allowed).toBe(true);
  });

  it("counts a grant's hits when they were spent once told, and frees the ones not spent", () => {
    const hits = new HitLog();
    const length = { leaseMs: 2_000, quietLeaseMs: 30_000 };
    // At most half the limit: a quiet lease, logged at its end.
    const grant = leaseSlidingWindow(hits, 10, 4, 0, length);
    expect(grant).toMatchObject({ granted: 4, until: 30_000 });
    // Past half the limit: the short lease.
    expect(leaseSlidingWindow(hits, 10, 4, 0, length)).toMatchObject({ granted: 4, until: 2_000 });
    // The first grant's isolate spent 1 hit by 1 s and tells of it: 3 are free, 1 counts from 1 s.
    settleGrants(hits, [{ until: 30_000, granted: 4, spent: [[1_000, 1]] }], 5_000, 30_000);
    expect(hits.total).toBe(5);
    expect(leaseSlidingWindow(hits, 10, 5, 5_000, length)).toMatchObject({ granted: 5 });
    expect(consumeSlidingWindow(hits, 10, 6_000)).toMatchObject({ allowed: false, retryAfter: 55 });
    // Told again, or told more than it was granted, or of a grant the log never held: no change.
    settleGrants(hits, [{ until: 30_000, granted: 4, spent: [] }], 6_000, 30_000);
    settleGrants(hits, [{ until: 2_000, granted: 4, spent: [[1_000, 5]] }], 6_000, 30_000);
    settleGrants(hits, [{ until: 9_999, granted: 1, spent: [] }], 6_000, 30_000);
    expect(hits.total).toBe(10);
  });

  it("logs a lease of many hits as one entry, so a large limit costs a lease no more", () => {
    const hits = new HitLog();
    // 240,000 a minute, taken in leases of 12,000 (the largest grant, 5 %) every 3 s.
    for (let lease = 0; lease < 20; lease++)
      expect(
        leaseSlidingWindow(hits, 240_000, 12_000, lease * 3_000, { leaseMs: 2_000 }).granted,
      ).toBe(12_000);
    expect(hits.total).toBe(240_000);
    expect(hits.runs).toBe(20);
    // Full: one more fits once the first lease's hits (logged at 2,000) leave, at 62,000.
    expect(consumeSlidingWindow(hits, 240_000, 60_000)).toMatchObject({
      allowed: false,
      retryAfter: 2,
    });
    expect(consumeSlidingWindow(hits, 240_000, 62_000).allowed).toBe(true);
    expect(hits.runs).toBe(20);
  });
});

describe("the limiter's object", () => {
  const limiterNamed = (name: string) => {
    const id = env.RATE_LIMITER.idFromName(`${name}-${crypto.randomUUID()}`);
    return { id, stub: env.RATE_LIMITER.get(id) };
  };

  /**
   * The object is evicted, as after some seconds idle: the next call, through a new stub, meets a
   * new instance with only what storage kept.
   */
  async function evicted(limiter: ReturnType<typeof limiterNamed>) {
    await runInDurableObject(limiter.stub, (_instance, state) =>
      state.abort("evicted by the test"),
    ).catch(() => undefined);
    return env.RATE_LIMITER.get(limiter.id);
  }

  it("keeps its count across an eviction: the window's hits still count in a new instance", async () => {
    const limiter = limiterNamed("evicted");
    for (let i = 0; i < 5; i++) expect((await limiter.stub.consume(5)).allowed).toBe(true);
    expect((await limiter.stub.consume(5)).allowed).toBe(false);
    const after = await (await evicted(limiter)).consume(5);
    expect(after).toMatchObject({ allowed: false, remaining: 0 });
    expect(after.retryAfter).toBeGreaterThan(50);
    // A grant's hits too: what an isolate was granted before is not granted again.
    const leased = limiterNamed("leased");
    expect(await leased.stub.lease(10, 10, 2_000)).toMatchObject({ granted: 10 });
    const again = await (await evicted(leased)).lease(10, 10, 2_000);
    expect(again).toMatchObject({ granted: 0, allowed: false });
  });

  it("sets its alarm once a window, not at every grant, and an early alarm keeps the window's hits", async () => {
    const { stub } = limiterNamed("one-alarm");
    const alarm = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect((await stub.consume(3)).allowed).toBe(true);
    const first = await alarm();
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await stub.consume(3)).allowed).toBe(true);
    expect(await stub.lease(3, 1, 2_000)).toMatchObject({ granted: 1 });
    // Each set is a row written: the later hits left it where it was.
    expect(await alarm()).toBe(first);
    // Run while the hits are still in the window: they stay counted, and it wakes again for them.
    await runDurableObjectAlarm(stub);
    expect(await alarm()).not.toBeNull();
    expect((await stub.consume(3)).allowed).toBe(false);
  });

  it("forgets what left its window: its alarm deletes the log once nothing is in it", async () => {
    const { stub } = limiterNamed("swept");
    await stub.record(200);
    const kept = () => runInDurableObject(stub, (_instance, state) => state.storage.kv.get("hits"));
    expect(await kept()).toBeDefined();
    // Its window over, the alarm (run now, if it has not run by itself) leaves nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runDurableObjectAlarm(stub);
    expect(await kept()).toBeUndefined();
  });
});
