import { OVERVIEW_DAYS, type ProjectOverview } from "../../domain/project-overview.ts";
import { DailyBars, LabelledBars, ShareBar } from "../charts.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** A project at a glance: its proofs a day, how many counted, the keys they used. */
const percent = (part: number, whole: number) =>
  whole === 0 ? "no connections yet" : `${Math.round((part / whole) * 100)} %`;

/** A project at a glance: the last 30 days of proofs, how often they succeed, which keys. */
export function ProjectHomePage(props: {
  page: PageContext;
  project: { id: string; name: string };
  overview: ProjectOverview;
}) {
  const { page, project, overview } = props;
  const base = `/projects/${project.id}`;
  const proofs = overview.days.reduce((sum, day) => sum + day.proofs, 0);
  const busiest = overview.days.reduce(
    (best, day) => (day.proofs > best.proofs ? day : best),
    overview.days[0] ?? { day: "", proofs: 0 },
  );
  const { counted, finished } = overview.connections;
  const keys = overview.keyTypes.reduce((sum, type) => sum + type.keys, 0);
  const sessions = overview.sessions.collect + overview.sessions.verify;
  return (
    <Layout title={project.name} page={page}>
      <h1>{project.name}</h1>
      <p class="actions">
        <a class="button" href={`${base}/sessions/new?kind=collect`}>
          New collection session
        </a>
        <a class="button" href={`${base}/sessions/new?kind=verify`}>
          New verification session
        </a>
        <a href={`${base}/sessions`}>All sessions</a>
      </p>
      <p class="muted">
        The last {OVERVIEW_DAYS} days: {plural(sessions, "session")} ({overview.sessions.collect}{" "}
        collection, {overview.sessions.verify} verification).
      </p>
      <div class="cards">
        <section class="card">
          <h2>Proofs per day</h2>
          <DailyBars
            days={overview.days}
            label={`${plural(proofs, "proof")} in ${OVERVIEW_DAYS} days; the busiest day ${busiest.day} with ${busiest.proofs}`}
          />
          <p class="chart-numbers">
            <strong>{proofs}</strong> in {OVERVIEW_DAYS} days
            {proofs > 0 ? `; busiest ${busiest.day} (${busiest.proofs})` : ""}
          </p>
        </section>
        <section class="card">
          <h2>Success rate</h2>
          <ShareBar
            part={counted}
            whole={finished}
            label={`${counted} of ${finished} connections proved a key that counted`}
          />
          <p class="chart-numbers">
            <strong>{percent(counted, finished)}</strong>
            {finished > 0 ? ` · ${counted} of ${plural(finished, "connection")} proved a key` : ""}
          </p>
        </section>
        <section class="card">
          <h2>Key types</h2>
          {keys === 0 ? (
            <p class="muted">No keys proven yet.</p>
          ) : (
            <>
              <LabelledBars
                rows={overview.keyTypes.map((type) => ({ name: type.type, value: type.keys }))}
                label={overview.keyTypes.map((type) => `${type.type}: ${type.keys}`).join(", ")}
              />
              <p class="chart-numbers">
                <strong>{keys}</strong> {keys === 1 ? "key" : "keys"} proven
              </p>
            </>
          )}
        </section>
      </div>
      {sessions === 0 ? (
        <p>
          Nothing here yet. Create a session above and give its <code>ssh</code> command to a user,
          or <a href={`${base}/settings`}>create an API key</a> and create one with the API (
          <a href="/docs">reference</a>).
        </p>
      ) : null}
    </Layout>
  );
}

/** `1 session`, `3 sessions`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
