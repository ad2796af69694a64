import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { Csrf } from "./components.tsx";
import type { PageContext } from "./forms.ts";

/**
 * Live or test data: a form, remembered in a cookie, on every page of a project. Test
 * data gets a banner no one can miss; live data a quiet line with the way to the test data.
 */
function ModeSwitch(props: { page: PageContext; project: { id: string } }) {
  const live = props.page.livemode !== false;
  return (
    <form
      class={live ? "mode mode-live" : "mode mode-test"}
      id="mode-switch"
      method="post"
      action={`/projects/${props.project.id}/mode`}
    >
      <Csrf token={props.page.csrf} />
      <input type="hidden" name="livemode" value={live ? "false" : "true"} />
      <input type="hidden" name="back" value={props.page.path ?? ""} />
      <span>
        {live ? (
          "Live data"
        ) : (
          <>
            <strong>TEST DATA</strong> — sessions, webhooks and events made with test keys
            (kp_test_). Nothing here is live.
          </>
        )}
      </span>{" "}
      <button type="submit" class="secondary">
        {live ? "View test data" : "View live data"}
      </button>
    </form>
  );
}

/** What the theme button does next: auto → dark → light → auto. */
const NEXT_THEME = { auto: "dark", dark: "light", light: "auto" } as const;
const THEME_LABELS = { auto: "Theme: auto", dark: "Theme: dark", light: "Theme: light" } as const;

/** The theme switch: a form, so it works without JavaScript; the choice is remembered. */
function ThemeSwitch(props: { page: PageContext }) {
  const current = props.page.theme ?? "auto";
  return (
    <form class="theme" method="post" action="/theme">
      <Csrf token={props.page.csrf} />
      <input type="hidden" name="theme" value={NEXT_THEME[current]} />
      <input type="hidden" name="next" value={props.page.path ?? "/"} />
      <button class="link" type="submit" title="Switch between light, dark and your device's theme">
        {THEME_LABELS[current]}
      </button>
    </form>
  );
}

interface NavLink {
  href: string;
  label: string;
  /** Other paths whose pages sit under this link (a webhook's page under Settings). */
  holds?: string[];
}

/** The signed-in navigation: where a page sits, marked for assistive technology. */
function navLinks(page: PageContext | undefined): NavLink[] {
  const links: NavLink[] = [];
  if (page?.account) links.push({ href: "/projects", label: "Projects" });
  if (page?.project) {
    const base = `/projects/${page.project.id}`;
    links.push(
      { href: base, label: "Overview" },
      { href: `${base}/sessions`, label: "Sessions" },
      { href: `${base}/settings`, label: "Settings", holds: [`${base}/webhooks`] },
    );
  }
  links.push({ href: "/docs", label: "API reference" });
  return links;
}

/** The link holding the current page most closely is the current one. */
function currentLink(links: NavLink[], path: string | undefined): string | undefined {
  if (!path) return undefined;
  const holding = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  let best: { href: string; depth: number } | undefined;
  for (const link of links)
    for (const prefix of [link.href, ...(link.holds ?? [])])
      if (holding(prefix) && prefix.length > (best?.depth ?? -1))
        best = { href: link.href, depth: prefix.length };
  return best?.href;
}

function Navigation(props: { page?: PageContext | undefined }) {
  const links = navLinks(props.page);
  const current = currentLink(links, props.page?.path);
  return (
    <>
      {links.map((link) => (
        <a href={link.href} aria-current={link.href === current ? "page" : undefined}>
          {link.label}
        </a>
      ))}
    </>
  );
}

function Account(props: { page: PageContext & { account: { email: string } } }) {
  return (
    <form class="account" method="post" action="/signout">
      <Csrf token={props.page.csrf} />
      <a class="muted breakable" href="/account/security" title="Account security">
        {props.page.account.email}
      </a>
      <button class="link" type="submit">
        Sign out
      </button>
    </form>
  );
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
  const signedIn = page?.account ? (page as PageContext & { account: { email: string } }) : null;
  return (
    <>
      {/* Without it browsers lay every page out in quirks mode. */}
      {raw("<!DOCTYPE html>")}
      <html lang="en" data-theme={page?.theme}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title} · keyproof</title>
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          <link rel="stylesheet" href="/app.css" />
          {props.head}
        </head>
        <body>
          <header class="site">
            <a class="brand" href={signedIn ? "/projects" : "/"}>
              keyproof
            </a>
            {page?.project && !props.bare ? (
              <span class="header-project breakable">{page.project.name}</span>
            ) : null}
            {props.bare ? null : (
              <>
                <nav class="links" aria-label="Main">
                  <Navigation page={page} />
                </nav>
                {signedIn ? <Account page={signedIn} /> : null}
                {/* On a phone the same links fold into a menu (style.ts shows one or the other). */}
                <details class="menu">
                  <summary>Menu</summary>
                  <nav aria-label="Main">
                    <Navigation page={page} />
                    {signedIn ? <Account page={signedIn} /> : null}
                  </nav>
                </details>
              </>
            )}
          </header>
          <main class={props.wide ? "wide" : undefined}>
            {page?.flash?.error ? (
              <p class="flash error" role="alert">
                {page.flash.error}
              </p>
            ) : null}
            {page?.flash?.notice ? (
              <p class="flash notice" role="status">
                {page.flash.notice}
              </p>
            ) : null}
            {page?.project && !props.bare ? (
              <ModeSwitch page={page} project={page.project} />
            ) : null}
            {props.children}
          </main>
          {page && !props.bare ? (
            <footer class="site">
              <ThemeSwitch page={page} />
            </footer>
          ) : null}
          {(props.scripts ?? ["/app.js"]).map((src) => (
            <script src={src} defer />
          ))}
        </body>
      </html>
    </>
  );
}
