import { Csrf } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** An invitation link opened by a signed-in account: join the project, or not. */
export function InvitationPage(props: { page: PageContext; projectName: string; action: string }) {
  return (
    <Layout title="Invitation" page={props.page}>
      <h1>Join {props.projectName}</h1>
      <p>
        You were invited to join the keyproof project <strong>{props.projectName}</strong> as a
        member, signed in as {props.page.account?.email}.
      </p>
      <form method="post" action={props.action}>
        <Csrf token={props.page.csrf} />
        <button type="submit">Join {props.projectName}</button>
      </form>
    </Layout>
  );
}
