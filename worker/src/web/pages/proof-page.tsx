import type { ContinueRefusal } from "../../domain/proof-continue.ts";
import { CLOSE, type ProofStatus } from "../../domain/proof-status.ts";
import { CopyButton } from "../components.tsx";
import { Layout } from "../layout.tsx";

/** A host key as `ssh` shows it on first contact: `ED25519 key fingerprint is SHA256:...`. */
export interface HostKeyFingerprint {
  type?: string | undefined;
  fingerprint: string;
}

export interface ProofPageProps {
  kind: "collect" | "verify";
  identifier: string;
  sshCommand: string;
  signCommand: string;
  banner: string | null;
  /** A test session: the page says so, so no one takes it for the real thing. */
  livemode: boolean;
  hostKeyFingerprints: HostKeyFingerprint[];
  status: ProofStatus;
  /** This browser had the page open before the user was done: it may continue, once. */
  watching: boolean;
}

/** Without JavaScript the page looks again every few seconds. */
const REFRESH_SECONDS = 5;

function Command(props: { id: string; text: string }) {
  return (
    <div class="command">
      <code id={props.id}>{props.text}</code>
      <CopyButton text={props.text} />
    </div>
  );
}

/**
 * The page an integrator sends a user to: what to run, how to check the server, the
 * way around a network without SSH, and the status, live. It shows only what the user may see.
 */
export function ProofPage(props: ProofPageProps) {
  const { status } = props;
  return (
    <Layout
      title={props.kind === "collect" ? "Prove your SSH key" : "Prove you hold your SSH key"}
      bare
      head={
        <noscript>
          <meta http-equiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      }
      scripts={["/app.js", "/proof.js"]}
    >
      <section
        class="proof"
        data-live={`/p/${props.identifier}/live`}
        data-status={`/p/${props.identifier}/status`}
        data-state={status.state}
        data-final={String(status.final)}
        data-continue={props.watching ? `/p/${props.identifier}/continue` : ""}
      >
        <h1>{props.kind === "collect" ? "Prove your SSH key" : "Prove you hold your SSH key"}</h1>
        {props.livemode ? null : (
          <p class="mode mode-test" id="test-mode">
            <strong>TEST MODE</strong> — a test session: proving your key here changes nothing real.
          </p>
        )}
        {props.banner ? <p class="banner">{props.banner}</p> : null}
        <div class="proof-status" aria-live="polite">
          <p class="proof-headline" id="proof-headline">
            {status.headline}
          </p>
          <p class="proof-detail" id="proof-detail">
            {status.detail ?? (status.continues && !props.watching ? CLOSE : "")}
          </p>
          <ul class="proof-keys" id="proof-keys">
            {status.keys.map((key) => (
              <li>
                <code>{key}</code>
              </li>
            ))}
          </ul>
          <p
            class="proof-continue"
            id="proof-continue"
            hidden={!(status.continues && props.watching)}
          >
            <a class="button" id="continue-link" href={`/p/${props.identifier}/continue`}>
              Continue
            </a>{" "}
            <span class="hint">You will be taken back in a moment.</span>
          </p>
        </div>
        <div class="steps">
          <h2>Run this in a terminal</h2>
          <Command id="ssh-command" text={props.sshCommand} />
          <p class="hint">
            Your SSH client proves it holds your key by signing; the private key never leaves your
            computer. To choose a key, add <code>-i ~/.ssh/your_key -o IdentitiesOnly=yes</code>{" "}
            (without <code>IdentitiesOnly</code>, your agent's keys are offered first).
          </p>
          {props.hostKeyFingerprints.length > 0 ? (
            <div class="hint" id="host-keys">
              <p>
                The first time, <code>ssh</code> asks whether to trust the server. Answer yes only
                if the fingerprint it shows is one of these:
              </p>
              <ul class="fingerprints">
                {props.hostKeyFingerprints.map((key) => (
                  <li>
                    {key.type ? <span class="key-type">{key.type}</span> : null}{" "}
                    <code>{key.fingerprint}</code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <h2>No SSH where you are? Sign instead</h2>
          <p class="hint">
            If your network blocks SSH, this proves the same key over HTTPS. Put the path of your
            private key after <code>-f</code>.
          </p>
          <Command id="sign-command" text={props.signCommand} />
        </div>
      </section>
    </Layout>
  );
}

const CONTINUE_REFUSALS: Record<ContinueRefusal, string> = {
  no_return_url: "This proof does not lead anywhere else. You can close this page.",
  not_done: "Your proof is not done yet. Go back to the proof page and follow what it says.",
  not_watched:
    "Only the browser that had the proof page open during the proof can continue from it. You can close this page.",
  too_late: "This proof was finished more than 10 minutes ago. Go back to where you started.",
  used: "You already continued from this proof. You can close this page.",
};

/** The continue step, when it does not send the user on: why, in a sentence. */
export function ContinueRefusedPage(props: { reason: ContinueRefusal; identifier: string }) {
  return (
    <Layout title="Nothing to continue to" bare>
      <section class="proof">
        <h1>Nothing to continue to</h1>
        <p id="continue-refused">{CONTINUE_REFUSALS[props.reason]}</p>
        <p>
          <a href={`/p/${props.identifier}`}>Back to the proof page</a>
        </p>
      </section>
    </Layout>
  );
}

export function ProofNotFoundPage() {
  return (
    <Layout title="No proof page here" bare>
      <section class="proof">
        <h1>No proof page here</h1>
        <p>
          The link is wrong, or the session has expired or been deleted. Ask whoever sent it for a
          new one.
        </p>
      </section>
    </Layout>
  );
}
