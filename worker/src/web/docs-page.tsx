import { STATUS_TITLES } from "../lib/errors.ts";
import { OPERATIONS } from "../schemas/openapi.ts";
import { Layout } from "./layout.tsx";

const PROBLEMS: [string, number, string][] = [
  [
    "invalid-request",
    400,
    "Invalid JSON, wrong types, unknown fields or constraint violations; `errors` names each field.",
  ],
  [
    "unauthorized",
    401,
    "Missing, unknown, revoked or expired API key (the answer does not say which).",
  ],
  ["not-found", 404, "Unknown path, or a resource outside the key's project."],
  ["method-not-allowed", 405, "Known path, wrong method; the Allow header lists the right ones."],
  ["conflict", 409, "The action conflicts with the session's state."],
  ["body-too-large", 413, "The body is over 64 KiB."],
  ["unsupported-media-type", 415, "The body is not application/json."],
  ["rate-limited", 429, "The project's rate limit is exceeded; wait for Retry-After seconds."],
  ["internal-error", 500, "A fault on our side; quote the request_id."],
];

/** A server-rendered reference built from the same operation list as the OpenAPI document. */
export function docsPage() {
  const tags = [...new Set(OPERATIONS.map((op) => op.tag))];
  return (
    <Layout title="API reference">
      <h1>keyproof API reference</h1>
      <p>
        Every request carries <code>x-api-key</code>. Bodies are JSON. The machine-readable document
        is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
      </p>
      {tags.map((tag) => (
        <section>
          <h2>{tag}</h2>
          <table>
            <tbody>
              {OPERATIONS.filter((op) => op.tag === tag).map((op) => (
                <tr>
                  <td class="method">{op.method}</td>
                  <td>
                    <code>{op.path}</code>
                  </td>
                  <td>{op.summary}</td>
                  <td>{op.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <h2>Problems</h2>
      <p>
        Errors are <code>application/problem+json</code> with <code>type</code>, <code>title</code>,{" "}
        <code>status</code>, <code>detail</code>, <code>instance</code>, <code>request_id</code>{" "}
        and, where a field can be named, <code>errors[]</code> of <code>location</code>,{" "}
        <code>message</code>, <code>value</code>.
      </p>
      <table>
        <tbody>
          {PROBLEMS.map(([slug, status, text]) => (
            <tr id={`problem-${slug}`}>
              <td>{status}</td>
              <td>{STATUS_TITLES[status as keyof typeof STATUS_TITLES]}</td>
              <td>{text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  );
}
