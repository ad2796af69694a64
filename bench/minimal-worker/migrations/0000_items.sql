CREATE TABLE items (id TEXT PRIMARY KEY NOT NULL, project_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX items_project_idx ON items (project_id, id);
