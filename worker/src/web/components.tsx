import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./auth.ts";
import { checkedIn, type FormState } from "./forms.ts";

/** A time as the tables show it: to the second, in UTC, and saying so. */
export const shortTime = (time: string) => `${time.slice(0, 19).replace("T", " ")} UTC`;

export function Csrf(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

export function CopyButton(props: { text: string; label?: string }) {
  return (
    <button type="button" class="secondary" data-copy={props.text}>
      {props.label ?? "Copy"}
    </button>
  );
}

export function Status(props: { value: string }) {
  return <span class={`status status-${props.value}`}>{props.value}</span>;
}

/** A button that posts to `action`: the way every change happens without JavaScript. */
export function PostButton(props: {
  action: string;
  csrf: string;
  label: string;
  kind?: "danger" | "secondary";
}) {
  return (
    <form class="inline" method="post" action={props.action}>
      <Csrf token={props.csrf} />
      <button type="submit" class={props.kind ?? ""}>
        {props.label}
      </button>
    </form>
  );
}

/**
 * An action that cannot be undone (revoke a key, delete a session), asked first and without
 * JavaScript: its button opens a box whose checkbox, naming what follows, must be ticked before
 * the form posts; the route refuses a post without it too.
 */
export function ConfirmedPostButton(props: {
  action: string;
  csrf: string;
  label: string;
  /** What happens, as the checkbox's sentence: "I understand that …". */
  consequence: string;
  /** The value the route expects in the form's `confirm` field. */
  confirm: string;
}) {
  return (
    <details class="confirm">
      <summary class="button danger">{props.label}…</summary>
      <form class="stack" method="post" action={props.action}>
        <Csrf token={props.csrf} />
        <label class="check">
          <input type="checkbox" name="confirm" value={props.confirm} required /> I understand that{" "}
          {props.consequence}
        </label>
        <button type="submit" class="danger">
          {props.label}
        </button>
      </form>
    </details>
  );
}

/**
 * A table that never widens the page: on a phone its rows stack, each cell under the label its
 * `data-label` gives (style.ts); with `stacked={false}` it scrolls sideways in its own box.
 */
export function Table(props: {
  head?: string[];
  class?: string;
  stacked?: boolean;
  children: Child;
}) {
  const classes = [props.stacked === false ? "" : "stacked", props.class ?? ""].join(" ").trim();
  return (
    <div class="table-wrap">
      <table class={classes || undefined}>
        {props.head ? (
          <thead>
            <tr>
              {props.head.map((cell) => (
                <th>{cell}</th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** What was wrong with one field, right under it (nothing when it was fine). */
export function FieldError(props: { form?: FormState | undefined; name: string }) {
  const message = props.form?.errors[props.name];
  return message ? (
    <span class="field-error" id={`${props.name}-error`} role="alert">
      {message}
    </span>
  ) : null;
}

/** A form that came back: "fix what is marked", and the problems no field owns. */
export function FormProblems(props: { form?: FormState | undefined }) {
  const { form } = props;
  if (!form) return null;
  const marked = Object.keys(form.errors).length;
  return (
    <div class="flash error" role="alert">
      {marked > 0
        ? `Nothing was saved: ${marked === 1 ? "one field needs" : `${marked} fields need`} fixing below.`
        : "Nothing was saved."}
      {form.general.map((message) => (
        <div>{message}</div>
      ))}
    </div>
  );
}

/** A labelled field with its problem under it. */
export function Field(props: {
  label: Child;
  name: string;
  form?: FormState | undefined;
  children: Child;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control arrives as children
    <label>
      <span>{props.label}</span>
      {props.children}
      <FieldError form={props.form} name={props.name} />
    </label>
  );
}

/** A checkbox with its label, checked as the user left it. */
export function Check(props: {
  name: string;
  form?: FormState | undefined;
  checked?: boolean;
  children: Child;
}) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={props.name}
        checked={checkedIn(props.form, props.name, props.checked)}
      />{" "}
      {props.children}
    </label>
  );
}

/** A one-button form that does something destructive at once (remove, sign out): red. */
export function DangerButton(props: { action: string; csrf: string; label: string }) {
  return (
    <form method="post" action={props.action}>
      <Csrf token={props.csrf} />
      <button type="submit" class="danger">
        {props.label}
      </button>
    </form>
  );
}
