import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./auth.ts";

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
  confirm?: string;
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

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function Table(props: { head?: string[]; class?: string; children: Child }) {
  return (
    <div class="table-wrap">
      <table class={props.class}>
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
