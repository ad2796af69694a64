import { Hono } from "hono";

type Env = { Bindings: { DB: D1Database } };

/** The least a Worker can do per request with D1: what keyproof's own layers are measured against. */
const app = new Hono<Env>()
  .post("/items", async (c) => {
    const id = crypto.randomUUID();
    await c.env.DB.prepare(
      "INSERT INTO items (id, project_id, body, created_at) VALUES (?, ?, ?, ?)",
    )
      .bind(id, "p", await c.req.text(), new Date().toISOString())
      .run();
    return c.json({ id }, 201);
  })
  .get("/items/:id", async (c) => {
    const row = await c.env.DB.prepare("SELECT * FROM items WHERE id = ?")
      .bind(c.req.param("id"))
      .first();
    return row ? c.json(row) : c.json({ error: "not found" }, 404);
  })
  .get("/items", async (c) => {
    const { results } = await c.env.DB.prepare(
      "SELECT * FROM items WHERE project_id = ? ORDER BY id DESC LIMIT 100",
    )
      .bind("p")
      .all();
    return c.json({ items: results });
  });

export default app;
