import { exports } from "cloudflare:workers";
import { expect } from "vitest";

export interface Page {
  status: number;
  html: string;
  location: string | null;
}

let addresses = 0;

/**
 * A cookie-keeping client for the web app, sending forms the way a browser does: each form
 * carries the CSRF token of the last page that showed one. Each browser has its own client
 * address (as Cloudflare's CF-Connecting-IP would say), so per-address limits see one user each.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly address = `198.18.${(addresses >> 8) & 255}.${addresses++ & 255}`;
  readonly origin: string;
  csrf: string | null = null;
  /** The User-Agent header it sends, if any. */
  userAgent: string | null = null;

  constructor(origin = "http://localhost") {
    this.origin = origin;
  }

  async request(
    method: string,
    path: string,
    form?: Record<string, string | string[]>,
  ): Promise<Page> {
    const headers = new Headers({ "cf-connecting-ip": this.address });
    if (this.userAgent !== null) headers.set("user-agent", this.userAgent);
    if (this.cookies.size > 0)
      headers.set(
        "cookie",
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      );
    let body: URLSearchParams | undefined;
    if (form) {
      body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) {
        for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
      }
      headers.set("content-type", "application/x-www-form-urlencoded");
    }
    const response = await exports.default.fetch(
      new Request(`${this.origin}${path}`, { method, headers, body, redirect: "manual" }),
    );
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      // Signing in or out changes the session, and with it the token its forms carry.
      if (name.endsWith("kp_session")) this.csrf = null;
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await response.text();
    const token = html.match(/name="_csrf" value="([0-9a-z]{32})"/)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, html, location: response.headers.get("location") };
  }

  get(path: string) {
    return this.request("GET", path);
  }

  /** Posts a form with this browser's CSRF token, unless `csrf` says otherwise. */
  async post(path: string, form: Record<string, string | string[]> = {}, csrf?: string | null) {
    if (this.csrf === null) await this.get("/signin");
    const token = csrf === undefined ? (this.csrf ?? "") : csrf;
    return this.request("POST", path, token === null ? form : { ...form, _csrf: token });
  }

  /** Follows a 303 and returns the page it lands on. */
  async follow(page: Page): Promise<Page> {
    expect(page.status, page.html).toBe(303);
    return this.get(page.location ?? "/");
  }
}

export async function signedUpBrowser(
  email = `web-${crypto.randomUUID()}@example.com`,
  password = "correct horse battery",
) {
  const browser = new Browser();
  const page = await browser.post("/signup", { email, password });
  expect(page.status, page.html).toBe(303);
  return { browser, email, password };
}

/** A signed-up browser with one project; returns the project id from the redirect. */
export async function browserWithProject(name = "Web project") {
  const user = await signedUpBrowser();
  const created = await user.browser.post("/projects", { name });
  const projectId = created.location?.match(/\/projects\/(prj_[0-9a-z]+)/)?.[1] ?? "";
  expect(projectId).not.toBe("");
  return { ...user, projectId };
}
