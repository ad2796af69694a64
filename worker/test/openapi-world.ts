import { env } from "cloudflare:workers";
import { callJson, createSession, type TestProject } from "./helpers.ts";

const ed = env.TEST_KEYS.accepted.find((key) => key.label === "ed25519");

/**
 * A project with one of everything (sessions of both kinds, their webhooks, a project webhook and
 * a delivery), and a function that fills a document path's parameters with their ids.
 */
export async function world(project: TestProject) {
  const collect = await createSession(project.apiKey, "collect", { multi_connection: true });
  const verify = await createSession(project.apiKey, "verify", {
    keys: [{ public_key: ed?.openssh }],
    multi_connection: true,
  });
  const hook = (path: string) =>
    callJson<{ id: string }>(path, 201, {
      method: "POST",
      key: project.apiKey,
      body: { url: `${env.RECEIVER_URL}/accept/world` },
    });
  const projectHook = await hook("/api/v1/webhooks/");
  const collectHook = await hook(`/api/v1/ssh/collect/sessions/${collect.id}/webhooks/`);
  const verifyHook = await hook(`/api/v1/ssh/verify/sessions/${verify.id}/webhooks/`);
  const delivery = await callJson<{ id: string }>(`/api/v1/webhooks/${projectHook.id}/test/`, 202, {
    method: "POST",
    key: project.apiKey,
  });
  // Test sessions, for the test helpers (only a test key reaches them).
  const testCollect = await createSession(project.testKey, "collect", { multi_connection: true });
  const testVerify = await createSession(project.testKey, "verify", {
    keys: [{ public_key: ed?.openssh }],
    multi_connection: true,
  });
  return (path: string) =>
    path
      .replace(
        /\/test_helpers\/ssh\/(collect|verify)\/sessions\/\{session_id\}/,
        (_, kind: string) =>
          `/test_helpers/ssh/${kind}/sessions/${kind === "collect" ? testCollect.id : testVerify.id}`,
      )
      .replace(
        /\/ssh\/(collect|verify)\/sessions\/\{session_id\}/,
        (_, kind: string) => `/ssh/${kind}/sessions/${kind === "collect" ? collect.id : verify.id}`,
      )
      .replace(
        /\/sessions\/(cs_\w+)\/webhooks\/\{webhook_id\}/,
        `/sessions/$1/webhooks/${collectHook.id}`,
      )
      .replace(
        /\/sessions\/(vs_\w+)\/webhooks\/\{webhook_id\}/,
        `/sessions/$1/webhooks/${verifyHook.id}`,
      )
      .replace("{webhook_id}", projectHook.id)
      .replace("{invocation_id}", delivery.id)
      .replace("{connection_identifier}", collect.connection_identifier);
}
