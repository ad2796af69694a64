import type { auditLog } from "../../db/directory.ts";
import { AUDIT_KEPT_DAYS } from "../../domain/audit-log.ts";
import { shortTime, Table } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

type AuditRow = typeof auditLog.$inferSelect;

/** What each change reads as, in a sentence's words. */
const ACTION_WORDS: Record<AuditRow["action"], string> = {
  "api_key.created": "created an API key",
  "api_key.revoked": "revoked an API key",
  "webhook.created": "created a webhook",
  "webhook.updated": "changed a webhook",
  "webhook.deleted": "deleted a webhook",
  "member.invited": "invited a member",
  "member.removed": "removed a member",
  "project.renamed": "renamed the project",
  "project.retention_changed": "changed retention",
  "project.test_data_deleted": "deleted all test data",
  "project.second_factor_required": "changed whether members need a second factor",
  "session.redacted": "redacted a session",
  "session.deleted": "deleted a session",
};

/** The project's audit log (owners): each change, who made it, when and from where. */
export function AuditLogPage(props: {
  page: PageContext;
  project: { id: string; name: string };
  rows: AuditRow[];
  offset: number;
  hasMore: boolean;
}) {
  const base = `/projects/${props.project.id}/audit-log`;
  return (
    <Layout title={`${props.project.name} audit log`} page={props.page}>
      <h1>Audit log</h1>
      <p class="muted">
        Every change to this project by a member or an API key, newest first. Kept {AUDIT_KEPT_DAYS}{" "}
        days; deleted with the project. Also at <code>GET /api/v1/audit-log/</code>.
      </p>
      {props.rows.length === 0 ? (
        <p class="muted">No changes yet.</p>
      ) : (
        <Table head={["When", "Who", "What", "Target", "From"]}>
          {props.rows.map((row) => (
            <tr>
              <td data-label="When">{shortTime(row.createdAt)}</td>
              <td data-label="Who" class="breakable">
                {row.actorLabel}{" "}
                <span class="muted">({row.actorType === "api_key" ? "API key" : "member"})</span>
              </td>
              <td data-label="What">
                {ACTION_WORDS[row.action]}
                {Object.entries(row.details).map(([name, value]) => (
                  <span class="muted">
                    {" "}
                    · {name}: {String(value)}
                  </span>
                ))}
              </td>
              <td data-label="Target" class="breakable">
                <code>{row.targetId ?? "—"}</code>
              </td>
              <td data-label="From" class="breakable">
                {row.ipAddress} <span class="muted">{row.userAgent}</span>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <p>
        {props.offset > 0 ? (
          <a href={`${base}?offset=${Math.max(0, props.offset - 50)}`}>Newer</a>
        ) : null}{" "}
        {props.hasMore ? <a href={`${base}?offset=${props.offset + 50}`}>Older</a> : null}
      </p>
    </Layout>
  );
}
