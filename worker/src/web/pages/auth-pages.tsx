import { Csrf } from "../components.tsx";
import { Layout, type PageContext } from "../layout.tsx";

export function AuthPage(props: {
  page: PageContext;
  mode: "signin" | "signup";
  next?: string | undefined;
  email?: string;
}) {
  const signin = props.mode === "signin";
  return (
    <Layout title={signin ? "Sign in" : "Sign up"} page={props.page}>
      <h1>{signin ? "Sign in" : "Create your account"}</h1>
      <form class="stack" method="post" action={signin ? "/signin" : "/signup"}>
        <Csrf token={props.page.csrf} />
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <label>
          Email
          <input
            name="email"
            type="email"
            autocomplete="email"
            required
            value={props.email ?? ""}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete={signin ? "current-password" : "new-password"}
            minlength={signin ? undefined : 10}
            required
          />
        </label>
        <button type="submit">{signin ? "Sign in" : "Sign up"}</button>
      </form>
      <p class="muted">
        {signin ? (
          <>
            No account yet? <a href="/signup">Sign up</a>
          </>
        ) : (
          <>
            Already have an account? <a href="/signin">Sign in</a>
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
