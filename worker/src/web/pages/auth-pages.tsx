import { MIN_PASSWORD_LENGTH } from "../../domain/accounts.ts";
import { Csrf, Field, FormProblems } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { PASSKEY_PAGE_SCRIPTS, PasskeySignInForm } from "./sign-in-parts.tsx";

/** The other form's link keeps where the user was going (an invitation, a project page). */
const withNext = (path: string, next: string | undefined) =>
  next ? `${path}?next=${encodeURIComponent(next)}` : path;

export function AuthPage(props: {
  page: PageContext;
  mode: "signin" | "signup";
  next?: string | undefined;
  email?: string;
  /** The sign-up form as the user sent it (never its password), when it came back. */
  form?: FormState | undefined;
}) {
  const { form } = props;
  const signin = props.mode === "signin";
  const rule = `At least ${MIN_PASSWORD_LENGTH} characters.`;
  return (
    <Layout
      title={signin ? "Sign in" : "Sign up"}
      page={props.page}
      scripts={signin ? PASSKEY_PAGE_SCRIPTS : undefined}
    >
      <h1>{signin ? "Sign in" : "Create your account"}</h1>
      <FormProblems form={form} />
      <form class="stack" method="post" action={signin ? "/signin" : "/signup"}>
        <Csrf token={props.page.csrf} />
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <Field name="email" form={form} label="Email">
          <input
            name="email"
            type="email"
            autocomplete="email"
            required
            value={typedValue(form, "email", props.email ?? "")}
          />
        </Field>
        <Field name="password" form={form} label="Password">
          <input
            name="password"
            type="password"
            autocomplete={signin ? "current-password" : "new-password"}
            minlength={signin ? undefined : MIN_PASSWORD_LENGTH}
            aria-describedby={signin ? undefined : "password-rule"}
            required
          />
          {signin ? null : (
            <span class="rule" id="password-rule">
              {rule}
            </span>
          )}
        </Field>
        <button type="submit">{signin ? "Sign in" : "Sign up"}</button>
      </form>
      {signin ? (
        <>
          <PasskeySignInForm
            csrf={props.page.csrf}
            next={props.next}
            label="Sign in with a passkey"
          />
          <p>
            <a href={withNext("/signin/ssh", props.next)}>Sign in with an SSH key</a>
          </p>
        </>
      ) : null}
      <p class="muted">
        {signin ? (
          <>
            No account yet? <a href={withNext("/signup", props.next)}>Sign up</a>
          </>
        ) : (
          <>
            Already have an account? <a href={withNext("/signin", props.next)}>Sign in</a>
          </>
        )}
      </p>
    </Layout>
  );
}

export function HomePage(props: { page: PageContext }) {
  return (
    <Layout title="Home" page={props.page}>
      <h1>keyproof</h1>
      <p>
        Prove that a person controls an SSH private key. Create a session, hand the user its{" "}
        <code>ssh</code> command, and read which keys they proved — by API, by webhook, or here.
      </p>
      <p>
        <a class="button" href="/signup">
          Create an account
        </a>{" "}
        or <a href="/signin">sign in</a>. The API is described at <a href="/docs">/docs</a>.
      </p>
    </Layout>
  );
}
