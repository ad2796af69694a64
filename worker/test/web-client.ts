import { exports } from "cloudflare:workers";
import { expect } from "vitest";

export interface Page {
  status: number;
  html: string;
  location: string | null;
}

/** A cookie-keeping client for the web app, sending forms the way a browser does. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async request(
    method: string,
    path: string,
    form?: Record<string, string | string[]>,
  ): Promise<Page> {
    const headers = new Headers();
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
      new Request(`http://localhost${path}`, { method, headers, body, redirect: "manual" }),
    );
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get("location"),
    };
  }

  get(path: string) {
    return this.request("GET", path);
  }

  /** Posts a form with this browser's CSRF token, unless `csrf` says otherwise. */
  async post(path: string, form: Record<string, string | string[]> = {}, csrf?: string | null) {
    if (!this.cookies.has("kp_csrf")) await this.get("/signin");
    const token = csrf === undefined ? (this.cookies.get("kp_csrf") ?? "") : csrf;
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
