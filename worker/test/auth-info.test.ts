import { describe, expect, it } from "vitest";
import { callJson, newProject } from "./helpers.ts";

describe("GET /api/v1/auth/info/", () => {
  it("describes the calling key and its project", async () => {
    const project = await newProject();
    const info = await callJson("/api/v1/auth/info/", 200, { key: project.apiKey });
    expect(info).toMatchObject({
      id: project.keyId,
      name: "test key",
      project_id: project.projectId,
      project_name: "Test project",
      expired_at: null,
    });
    expect(Date.parse(info.created_at as string)).not.toBeNaN();
  });

  it("accepts the path without its trailing slash", async () => {
    const project = await newProject();
    const info = await callJson("/api/v1/auth/info", 200, { key: project.apiKey });
    expect(info.id).toBe(project.keyId);
  });
});
