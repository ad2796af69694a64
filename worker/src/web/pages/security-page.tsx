import type { securityLog, webSessions } from "../../db/directory.ts";
import { SECURITY_LOG_KEPT_DAYS, SECURITY_LOG_SHOWN } from "../../domain/security-log.ts";
import { Csrf, shortTime, Table } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

type SecurityRow = typeof securityLog.$inferSelect;
type BrowserRow = typeof webSessions.$inferSelect;

const EVENT_WORDS: Record<SecurityRow["event"], string> = {
  account_created: "Account created",
  signed_in: "Signed in",
  sign_in_failed: "Sign-in failed: wrong password",
  sign_in_blocked: "Sign-in refused: too many wrong passwords",
  signed_out: "Signed out",
  browser_ended: "A browser signed out from here",
  other_browsers_ended: "Every other browser signed out from here",
};

const WAYS: Record<string, string> = { password: "password", sign_up: "signing up" };

/** The account's own security page: its signed-in browsers and its security log. */
export function SecurityPage(props: {
  page: PageContext;
  browsers: BrowserRow[];
  currentId: string;
  log: SecurityRow[];
}) {
  const { page } = props;
  const others = props.browsers.filter((browser) => browser.id !== props.currentId).length;
  return (
    <Layout title="Account security" page={page}>
      <h1>Account security</h1>
      <h2 id="browsers">Signed-in browsers</h2>
      <Table head={["Since", "From", "Signed in with", ""]}>
        {props.browsers.map((browser) => (
          <tr>
            <td data-label="Since">{shortTime(browser.createdAt)}</td>
            <td data-label="From" class="breakable">
              {browser.ipAddress ?? "—"} <span class="muted">{browser.userAgent ?? ""}</span>
            </td>
            <td data-label="Signed in with">
              {browser.signedInWith ? (WAYS[browser.signedInWith] ?? browser.signedInWith) : "—"}
            </td>
            <td>
              {browser.id === props.currentId ? (
                <strong>This browser</strong>
              ) : (
                <form method="post" action={`/account/browsers/${browser.id}/end`}>
                  <Csrf token={page.csrf} />
                  <button type="submit" class="danger">
                    Sign out
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {others > 0 ? (
        <form method="post" action="/account/browsers/end-others">
          <Csrf token={page.csrf} />
          <button type="submit" class="danger">
            Sign out every other browser ({others})
          </button>
        </form>
      ) : null}
      <h2 id="log">Security log</h2>
      <p class="muted">
        The newest {SECURITY_LOG_SHOWN} of your sign-ins, failed and refused sign-ins and browsers
        signed out, kept {SECURITY_LOG_KEPT_DAYS} days.
      </p>
      <Table head={["When", "What", "From"]}>
        {props.log.map((entry) => (
          <tr>
            <td data-label="When">{shortTime(entry.createdAt)}</td>
            <td data-label="What">{EVENT_WORDS[entry.event]}</td>
            <td data-label="From" class="breakable">
              {entry.ipAddress} <span class="muted">{entry.userAgent}</span>
            </td>
          </tr>
        ))}
      </Table>
    </Layout>
  );
}
