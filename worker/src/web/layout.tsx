import type { Child } from "hono/jsx";
import { Csrf } from "./components.tsx";

export interface PageContext {
  csrf: string;
  account?: { email: string } | undefined;
  project?: { id: string; name: string } | undefined;
  flash?: { error?: string | undefined; notice?: string | undefined };
}

export function Layout(props: {
  title: string;
  page?: PageContext;
  /** Use the whole width (the API reference, with its contents column). */
  wide?: boolean;
  /** For the people a session is for, not its integrator: no navigation. */
  bare?: boolean;
  /** More for the head (the proof page's refresh without JavaScript). */
  head?: Child;
  scripts?: string[];
  children: Child;
}) {
  const { page } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · keyproof</title>
        <link rel="stylesheet" href="/app.css" />
        {props.head}
      </head>
      <body>
        <header>
          <a class="brand" href="/">
            keyproof
          </a>
          {props.bare ? null : (
            <nav>
              {page?.account ? <a href="/projects">Projects</a> : null}
              {page?.project ? (
                <>
                  <a href={`/projects/${page.project.id}/sessions`}>Sessions</a>
                  <a href={`/projects/${page.project.id}/settings`}>Settings</a>
                </>
              ) : null}
              <a href="/docs">API reference</a>
            </nav>
          )}
          {page?.account ? (
            <form class="inline" method="post" action="/signout">
              <Csrf token={page.csrf} />
              <span class="muted">{page.account.email} </span>
              <button class="secondary" type="submit">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        <main class={props.wide ? "wide" : undefined}>
          {page?.flash?.error ? <p class="flash error">{page.flash.error}</p> : null}
          {page?.flash?.notice ? <p class="flash notice">{page.flash.notice}</p> : null}
          {props.children}
        </main>
        {(props.scripts ?? ["/app.js"]).map((src) => (
          <script src={src} defer />
        ))}
      </body>
    </html>
  );
}
