import { afterEach, describe, expect, it } from "vitest";
import { call, newProject } from "./helpers.ts";
import { holdPrimary, releasePrimary } from "./primary-gate.ts";
import { indexed } from "./session-objects.ts";

/**
 * Read-your-writes without waiting: a list sent the bookmark of writes D1 has not taken shows
 * them, from their objects, while every push is held at D1's primary.
 */

afterEach(releasePrimary);

interface Events {
  items: {
    id: string;
    type: string;
    session_id: string | null;
    payload: Record<string, unknown>;
  }[];
  total: number;
}

interface Listed {
  items: { id: string; external_id: string | null; status: string }[];
  total: number;
  has_more: boolean;
}

/** An API call that sends the caller's last bookmark and keeps the one answered. */
function client(apiKey: string) {
  let bookmark: string | undefined;
  return async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await call(path, {
      ...init,
      key: apiKey,
      headers: bookmark ? { "keyproof-bookmark": bookmark } : {},
    });
    bookmark = response.headers.get("keyproof-bookmark") ?? bookmark;
    return response;
  };
}

/** `promise`'s outcome, or "still waiting" after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<"still waiting">((r) => setTimeout(r, ms, "still waiting"))]);

const base = "/api/v1/ssh/collect/sessions/";

describe("a list sent the bookmark of writes D1 has not taken", () => {
  it("shows each, as it is now, without waiting for their pushes", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    // Two sessions D1 has, before the primary is held.
    const older: string[] = [];
    for (const external_id of ["old-1", "old-2"]) {
      const made = (await (await api(base, { method: "POST", body: { external_id } })).json()) as {
        id: string;
      };
      older.push(made.id);
    }
    for (const id of older) await indexed(id);

    holdPrimary();
    const made: string[] = [];
    for (const external_id of ["new-1", "new-2", "new-3"]) {
      const response = await api(base, { method: "POST", body: { external_id } });
      expect(response.status).toBe(201);
      made.push(((await response.json()) as { id: string }).id);
    }
    // A change to one D1 has, and a deletion of one it has not: both pending too.
    expect(
      (
        await api(`${base}${older[0]}/`, {
          method: "PATCH",
          body: { external_id: "old-1-renamed" },
        })
      ).status,
    ).toBe(200);
    expect((await api(`${base}${made[1]}/`, { method: "DELETE" })).status).toBe(204);

    const listed = await within(
      api(base).then((response) => response.json() as Promise<Listed>),
      5_000,
    );
    expect(listed).not.toBe("still waiting");
    const page = listed as Listed;
    expect(page.items.map((item) => item.external_id)).toEqual([
      "new-3",
      "new-1",
      "old-2",
      "old-1-renamed",
    ]);
    expect(page.total).toBe(4);

    // Pages and filters place them as D1 will: the second page, and a filter on the change.
    const second = (await (await api(`${base}?offset=1&limit=2`)).json()) as Listed;
    expect(second.items.map((item) => item.external_id)).toEqual(["new-1", "old-2"]);
    expect(second).toMatchObject({ total: 4, has_more: true });
    const third = (await (await api(`${base}?offset=3&limit=2`)).json()) as Listed;
    expect(third.items.map((item) => item.external_id)).toEqual(["old-1-renamed"]);
    expect(third).toMatchObject({ total: 4, has_more: false });
    const renamed = (await (await api(`${base}?external_id=old-1-renamed`)).json()) as Listed;
    expect(renamed.items.map((item) => item.id)).toEqual([older[0]]);
    const stale = (await (await api(`${base}?external_id=old-1`)).json()) as Listed;
    expect(stale).toMatchObject({ items: [], total: 0 });

    // Once the pushes land, D1's own answer is the same.
    releasePrimary();
    for (const id of [...made.filter((_, i) => i !== 1), older[0] ?? ""]) await indexed(id);
    const settled = (await (await call(base, { key: apiKey })).json()) as Listed;
    expect(settled.items.map((item) => item.external_id)).toEqual(
      page.items.map((item) => item.external_id),
    );
    // Sent the bookmark again, the list finds D1 has them all: its answer names them no more,
    // only D1's bookmark after them, so later reads ask no object.
    await expect
      .poll(async () => (await api(base)).headers.get("keyproof-bookmark"))
      .toMatch(/^[0-9a-f]{8}(-[0-9a-f]+)+\.[\w-]{22}$/);
  });

  it("shows their events in the event log, and none of a session deleted since", async () => {
    const { apiKey } = await newProject();
    const api = client(apiKey);
    const create = async (external_id: string) =>
      (
        (await (
          await api(base, { method: "POST", body: { external_id, multi_connection: true } })
        ).json()) as {
          id: string;
        }
      ).id;
    // A session completed before the primary is held: its event is D1's.
    const older = await create("older");
    expect((await api(`${base}${older}/complete`, { method: "POST" })).status).toBe(200);
    await indexed(older);

    holdPrimary();
    const fresh = await create("fresh");
    expect((await api(`${base}${fresh}/complete`, { method: "POST" })).status).toBe(200);
    const logged = await within(
      api("/api/v1/events/").then((response) => response.json() as Promise<Events>),
      5_000,
    );
    expect(logged).not.toBe("still waiting");
    const log = logged as Events;
    expect(log.items.map((event) => [event.session_id, event.type])).toEqual([
      [fresh, "status_changed"],
      [older, "status_changed"],
    ]);
    expect(log.total).toBe(2);
    expect(log.items[0]?.payload).toMatchObject({ status: "completed" });
    const own = (await (await api(`/api/v1/events/?session_id=${fresh}`)).json()) as Events;
    expect(own.items.map((event) => event.session_id)).toEqual([fresh]);

    // Deleted, with every push still held: its events are gone from the log at once.
    expect((await api(`${base}${older}/`, { method: "DELETE" })).status).toBe(204);
    const after = (await (await api("/api/v1/events/")).json()) as Events;
    expect(after.items.map((event) => event.session_id)).toEqual([fresh]);
    expect(after.total).toBe(1);

    releasePrimary();
    await indexed(fresh);
    const settled = (await (await call("/api/v1/events/", { key: apiKey })).json()) as Events;
    expect(settled.items.map((event) => event.id)).toEqual(log.items.slice(0, 1).map((e) => e.id));
  });
});
