import { countedPastHorizon } from "../../db/paginate.ts";
import type { SessionKind as Kind } from "../../protocol/messages.ts";
import { Status, shortTime, Table } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** The project's sessions, both kinds or one, filtered by status, a page at a time. */
const KIND_NAMES: Record<Kind, string> = { collect: "Collection", verify: "Verification" };
/** Every status a list can filter on, with the kinds of session that can have it. */
const STATUSES: [status: string, kinds: Kind[]][] = [
  ["pending", ["collect", "verify"]],
  ["completed", ["collect"]],
  ["verified", ["verify"]],
  ["failed", ["verify"]],
  ["expired", ["collect", "verify"]],
];

interface ListProps {
  page: PageContext;
  project: { id: string; name: string };
  /** `undefined`: both kinds, the list's default. */
  kind?: Kind | undefined;
  status?: string | undefined;
  sessions: {
    id: string;
    kind: Kind;
    status: string;
    externalId: string | null;
    createdAt: string;
  }[];
  offset: number;
  limit: number;
  total: number;
}

export function SessionListPage(props: ListProps) {
  const base = `/projects/${props.project.id}/sessions`;
  const filtered = props.kind !== undefined || props.status !== undefined;
  const query = (offset: number) => {
    const params = new URLSearchParams();
    if (props.kind) params.set("kind", props.kind);
    if (props.status) params.set("status", props.status);
    params.set("offset", String(offset));
    return `${base}?${params}`;
  };
  return (
    <Layout title="Sessions" page={props.page}>
      <div class="title-row">
        <h1>Sessions</h1>
        <div class="actions">
          <a class="button" href={`${base}/new?kind=collect`}>
            New collection session
          </a>
          <a class="button" href={`${base}/new?kind=verify`}>
            New verification session
          </a>
        </div>
      </div>
      <form class="filters" method="get" action={base} data-filters>
        <label>
          Kind
          <select name="kind">
            <option value="" selected={!props.kind}>
              All
            </option>
            {(["collect", "verify"] as const).map((kind) => (
              <option value={kind} selected={props.kind === kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">Any</option>
            {STATUSES.map(([status, kinds]) => (
              <option
                value={status}
                data-kinds={kinds.join(" ")}
                selected={props.status === status}
                hidden={props.kind !== undefined && !kinds.includes(props.kind)}
              >
                {status}
              </option>
            ))}
          </select>
        </label>
        <noscript>
          <button type="submit" class="secondary">
            Filter
          </button>
        </noscript>
      </form>
      {props.total === 0 ? (
        <div class="empty">
          {filtered ? (
            <p>
              No sessions match this filter. <a href={base}>Show every session</a>
            </p>
          ) : (
            <>
              <p>
                <strong>No sessions yet.</strong> A session is one person proving an SSH key: create
                one with a button above to try it, or from your backend with{" "}
                <code>POST /api/v1/ssh/collect/sessions/</code>.
              </p>
              <p>
                <a href="/docs">Read the API reference</a>
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <Table head={["Session", "Kind", "Status", "External id", "Created"]}>
            {props.sessions.map((session) => (
              <tr>
                <td data-label="Session" class="mono">
                  <a href={`${base}/${session.id}`}>{session.id}</a>
                </td>
                <td data-label="Kind">{KIND_NAMES[session.kind]}</td>
                <td data-label="Status">
                  <Status value={session.status} />
                </td>
                <td data-label="External id" class="breakable">
                  {session.externalId ?? ""}
                </td>
                <td data-label="Created">{shortTime(session.createdAt)}</td>
              </tr>
            ))}
          </Table>
          <p class="muted pager">
            {`${props.offset + 1}–${props.offset + props.sessions.length} of ${props.total.toLocaleString("en-US")}${countedPastHorizon(props.total, props) ? "+" : ""}`}{" "}
            {props.offset > 0 ? (
              <a href={query(Math.max(0, props.offset - props.limit))}>Previous</a>
            ) : null}{" "}
            {props.offset + props.sessions.length < props.total ? (
              <a href={query(props.offset + props.limit)}>Next</a>
            ) : null}
          </p>
        </>
      )}
    </Layout>
  );
}
