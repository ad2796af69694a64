import { Csrf, DangerButton, Field, FormProblems } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** The account's projects, and the form that makes one. */
export function ProjectsPage(props: {
  page: PageContext;
  projects: { id: string; name: string; role: string; createdAt: string }[];
  /** The signed-in account: a member leaves a project from here. */
  accountId?: string;
  /** The new-project form as the user sent it, when it came back with problems. */
  form?: FormState | undefined;
}) {
  const { form } = props;
  return (
    <Layout title="Projects" page={props.page}>
      <h1>Projects</h1>
      {props.projects.length === 0 ? (
        <p class="muted">
          No projects yet. A project holds your sessions, API keys and webhooks: name one below.
        </p>
      ) : (
        <ul class="project-list">
          {props.projects.map((project) => (
            <li>
              <a class="breakable" href={`/projects/${project.id}`}>
                {project.name}
              </a>{" "}
              <span class="muted">({project.role})</span>
              {project.role === "member" && props.accountId ? (
                <DangerButton
                  action={`/projects/${project.id}/members/${props.accountId}/remove`}
                  csrf={props.page.csrf}
                  label="Leave"
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h2>New project</h2>
      <FormProblems form={form} />
      <form class="stack" method="post" action="/projects">
        <Csrf token={props.page.csrf} />
        <Field name="name" form={form} label="Name">
          <input name="name" required maxlength={100} value={typedValue(form, "name")} />
        </Field>
        <button type="submit">Create project</button>
      </form>
      {props.projects.some((project) => project.role === "owner") ? null : (
        <>
          <h2 id="account">Delete your account</h2>
          <p class="muted">
            You own no project, so your account can go: your sign-in, memberships and invitations
            are erased, and you are signed out. This cannot be undone.
          </p>
          <form method="post" action="/projects/account/delete">
            <Csrf token={props.page.csrf} />
            <button type="submit" class="danger">
              Delete my account
            </button>
          </form>
        </>
      )}
    </Layout>
  );
}
