import type { InvitationRow } from "../../db/directory.ts";
import type { ListedApiKey } from "../../domain/api-keys.ts";
import { MAX_RETENTION_DAYS } from "../../schemas/limits.ts";
import type { Webhook } from "../../schemas/webhooks.ts";
import {
  ConfirmedPostButton,
  CopyButton,
  Csrf,
  Field,
  FormProblems,
  PostButton,
  Status,
  shortTime,
  Table,
} from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** A project's settings: API keys, webhooks, members and invitations, retention, and what erases it. */
interface SettingsProps {
  page: PageContext;
  project: { id: string; name: string; retentionDays: number; requireSecondFactor: boolean };
  /** The signed-in account's role: owners manage members and invitations. */
  role: string;
  members: { accountId: string; email: string; role: string }[];
  keys: ListedApiKey[];
  webhooks: Webhook[];
  invitations: InvitationRow[];
  newKey?: { name: string; plaintext: string } | undefined;
  invitationLink?: string | undefined;
  renameForm?: FormState | undefined;
  retentionForm?: FormState | undefined;
  deleteForm?: FormState | undefined;
  apiKeyForm?: FormState | undefined;
}

export function SettingsPage(props: SettingsProps) {
  const { page, project } = props;
  const base = `/projects/${project.id}`;
  const owners = props.members.filter((member) => member.role === "owner").length;
  return (
    <Layout title={`${project.name} settings`} page={page}>
      <h1>Settings</h1>
      {/* Each part of the project's settings is an area of its own: reached from here. */}
      <nav class="section-nav" aria-label="Settings">
        <a href="#retention">Retention</a>
        <a href="#api-keys">API keys</a>
        <a href="#webhooks">Webhooks</a>
        <a href="#members">Members</a>
        <a href="#second-factor">Second factor</a>
        <a href="#test-data">Test data</a>
        <a href="#delete">Delete</a>
        {props.role === "owner" ? <a href={`${base}/audit-log`}>Audit log</a> : null}
      </nav>
      <FormProblems form={props.renameForm} />
      <form class="stack" method="post" action={`${base}/rename`}>
        <Csrf token={page.csrf} />
        <Field name="name" form={props.renameForm} label="Project name">
          <input
            name="name"
            value={typedValue(props.renameForm, "name", project.name)}
            required
            maxlength={100}
          />
        </Field>
        <button type="submit">Rename</button>
      </form>

      <h2 id="retention">Retention</h2>
      {props.role === "owner" ? (
        <RetentionForm {...props} base={base} />
      ) : (
        <p>
          Closed sessions are kept for <strong>{project.retentionDays}</strong>{" "}
          {project.retentionDays === 1 ? "day" : "days"}, then erased everywhere.{" "}
          <span class="muted">Only an owner can change this.</span>
        </p>
      )}

      <h2 id="second-factor">Second factor</h2>
      <p>
        {project.requireSecondFactor
          ? "Members open this project only once their account has a second factor (a passkey or an SSH key): one without is asked to add one first."
          : "Members open this project with their password alone, unless their account has a second factor."}
      </p>
      {props.role === "owner" ? (
        <form method="post" action={`${base}/second-factor`}>
          <Csrf token={page.csrf} />
          <input
            type="hidden"
            name="required"
            value={project.requireSecondFactor ? "false" : "true"}
          />
          <button type="submit">
            {project.requireSecondFactor
              ? "Stop requiring a second factor"
              : "Require a second factor of every member"}
          </button>
        </form>
      ) : null}

      <h2 id="api-keys">API keys</h2>
      {props.newKey ? (
        <div class="secret">
          <p>
            Your new key <strong>{props.newKey.name}</strong>. Copy it now: it is shown only once.
          </p>
          <p class="copy-row">
            <code id="new-api-key">{props.newKey.plaintext}</code>{" "}
            <CopyButton text={props.newKey.plaintext} />
          </p>
        </div>
      ) : null}
      {props.keys.length === 0 ? (
        <p class="muted">No API keys yet: create one to call the API from your backend.</p>
      ) : (
        <Table head={["Name", "Mode", "Key", "Created", "Created by", "Expires", "Last used", ""]}>
          {props.keys.map((key) => (
            <tr>
              <td data-label="Name" class="breakable">
                {key.name}
              </td>
              <td data-label="Mode">
                {key.livemode ? "live" : <strong class="test-mark">test</strong>}
              </td>
              <td data-label="Key" class="mono">
                {key.prefix}…
              </td>
              <td data-label="Created">{shortTime(key.createdAt)}</td>
              <td data-label="Created by" class="breakable">
                {key.creator === null ? (
                  <span class="muted">—</span>
                ) : key.creator.member ? (
                  key.creator.email
                ) : (
                  <>
                    {key.creator.email} <span class="warning">(no longer a member)</span>
                  </>
                )}
              </td>
              <td data-label="Expires">{key.expiredAt ? key.expiredAt.slice(0, 10) : "never"}</td>
              <td data-label="Last used">{key.lastUsedAt ? shortTime(key.lastUsedAt) : "never"}</td>
              <td>
                {key.revokedAt ? (
                  <span class="muted">revoked</span>
                ) : (
                  <ConfirmedPostButton
                    action={`${base}/api-keys/${key.id}/revoke`}
                    csrf={page.csrf}
                    label="Revoke"
                    confirm="revoke"
                    consequence="everything using this key gets 401 from now on"
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <FormProblems form={props.apiKeyForm} />
      <form class="stack" method="post" action={`${base}/api-keys`}>
        <Csrf token={page.csrf} />
        <Field name="name" form={props.apiKeyForm} label="Key name">
          <input
            name="name"
            required
            maxlength={100}
            placeholder="production"
            value={typedValue(props.apiKeyForm, "name")}
          />
        </Field>
        <Field name="mode" form={props.apiKeyForm} label="Mode">
          <select name="mode">
            <option value="live" selected={typedValue(props.apiKeyForm, "mode") !== "test"}>
              Live: real sessions and webhooks
            </option>
            <option value="test" selected={typedValue(props.apiKeyForm, "mode") === "test"}>
              Test: test data and test helpers only
            </option>
          </select>
        </Field>
        <Field name="expires_on" form={props.apiKeyForm} label="Expires on (optional)">
          <input name="expires_on" type="date" value={typedValue(props.apiKeyForm, "expires_on")} />
        </Field>
        <button type="submit">Create API key</button>
      </form>

      <h2 id="webhooks">Webhooks</h2>
      {props.webhooks.length === 0 ? (
        <p class="muted">
          No webhooks yet: add one to hear about every session of this project as it happens.
        </p>
      ) : (
        <Table head={["URL", "Events", "State"]}>
          {props.webhooks.map((hook) => (
            <tr>
              <td data-label="URL" class="breakable">
                <a href={`${base}/webhooks/${hook.id}`}>{hook.url}</a>
              </td>
              <td data-label="Events">
                {hook.events.length === 0 ? "all events" : hook.events.join(", ")}
              </td>
              <td data-label="State">
                <Status value={hook.enabled ? "enabled" : "disabled"} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <p>
        <a class="button" href={`${base}/webhooks/new`}>
          Add a webhook
        </a>
      </p>

      <h2 id="members">Members</h2>
      <ul class="members">
        {props.members.map((member) => {
          const self = member.email === page.account?.email;
          // A project keeps an owner: its only one is not offered a way out.
          const soleOwner = member.role === "owner" && owners === 1;
          return (
            <li>
              <span class="breakable">{member.email}</span>{" "}
              <span class="muted">({member.role})</span>{" "}
              {(self || props.role === "owner") && !(self && soleOwner) ? (
                <PostButton
                  action={`${base}/members/${member.accountId}/remove`}
                  csrf={page.csrf}
                  label={self ? "Leave" : "Remove"}
                  kind="secondary"
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      {props.role === "owner" ? <Invitations {...props} base={base} /> : null}
      {props.role === "owner" ? <DeleteTestData {...props} base={base} /> : null}
      {props.role === "owner" ? <DeleteProject {...props} base={base} /> : null}
    </Layout>
  );
}

/** Owners only: how long closed sessions are kept (shortening it erases sessions). */
function RetentionForm(props: SettingsProps & { base: string }) {
  const { page, project } = props;
  return (
    <>
      <FormProblems form={props.retentionForm} />
      <form class="stack" method="post" action={`${props.base}/retention`}>
        <Csrf token={page.csrf} />
        <Field
          name="retention_days"
          form={props.retentionForm}
          label="Keep closed sessions for (days)"
        >
          <input
            name="retention_days"
            type="number"
            min={1}
            max={MAX_RETENTION_DAYS}
            value={typedValue(props.retentionForm, "retention_days", String(project.retentionDays))}
            required
          />
        </Field>
        <p class="muted">
          A session that accepts no more connections is erased this many days after it closed: its
          keys, connections, events and deliveries, everywhere. Shortening it erases what is now
          past it within minutes.
        </p>
        <button type="submit">Save retention</button>
      </form>
    </>
  );
}

/** Owners only: the project's test data goes, its live data stays. */
function DeleteTestData(props: SettingsProps & { base: string }) {
  return (
    <form class="stack" method="post" action={`${props.base}/test-data/delete`} id="test-data">
      <Csrf token={props.page.csrf} />
      <h2>Delete all test data</h2>
      <p class="muted">
        Erases every test session (with its keys, connections, events and deliveries) and every test
        webhook. Live data is not touched, and test keys keep working.
      </p>
      <label class="check">
        <input type="checkbox" name="confirm" value="delete-test-data" required /> I understand that
        all test data goes, for good
      </label>
      <button type="submit" class="danger">
        Delete all test data
      </button>
    </form>
  );
}

/** Owners only: everything of the project goes, at once and for good. */
function DeleteProject(props: SettingsProps & { base: string }) {
  const { page, base, project } = props;
  return (
    <>
      <h2 id="delete">Delete this project</h2>
      <p class="muted">
        Its API keys stop at once; every session (open ones too, whose commands stop working), its
        keys, connections, events, webhooks and deliveries, and its members and invitations are
        erased. This cannot be undone.
      </p>
      <FormProblems form={props.deleteForm} />
      <form class="stack" method="post" action={`${base}/delete`}>
        <Csrf token={page.csrf} />
        <Field
          name="confirm"
          form={props.deleteForm}
          label={`Type the project's name, ${project.name}, to confirm`}
        >
          <input
            name="confirm"
            value={typedValue(props.deleteForm, "confirm", "")}
            required
            autocomplete="off"
          />
        </Field>
        <button type="submit" class="danger">
          Delete the project
        </button>
      </form>
    </>
  );
}

function Invitations(props: SettingsProps & { base: string }) {
  const { page, base } = props;
  return (
    <>
      <h3>Invitations</h3>
      <p class="muted">
        An invitation is a link: whoever opens it while signed in joins as a member. It works once,
        for 7 days.
      </p>
      {props.invitationLink ? (
        <div class="secret">
          <p>Send this link to the person you invite. It is shown only once.</p>
          <p class="copy-row">
            <code id="invitation-link">{props.invitationLink}</code>{" "}
            <CopyButton text={props.invitationLink} />
          </p>
        </div>
      ) : null}
      {props.invitations.length > 0 ? (
        <Table head={["Created", "Expires", ""]}>
          {props.invitations.map((invitation) => (
            <tr>
              <td data-label="Created">{shortTime(invitation.createdAt)}</td>
              <td data-label="Expires">{shortTime(invitation.expiresAt)}</td>
              <td>
                <RevokeButton
                  action={`${base}/invitations/${invitation.id}/revoke`}
                  csrf={page.csrf}
                />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      <PostButton
        action={`${base}/invitations`}
        csrf={page.csrf}
        label="Create an invitation link"
      />
    </>
  );
}

function RevokeButton(props: { action: string; csrf: string }) {
  return <PostButton action={props.action} csrf={props.csrf} label="Revoke" kind="danger" />;
}
