import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLIENT_TYPES_PATH, clientTypes } from "../../scripts/client-types.ts";
import { ROOT } from "../../scripts/local-dev.ts";
import { stopWithThisProcess } from "../../scripts/process-guard.ts";
import { freePort } from "../../test-support/local-worker.ts";
import { launchChromium, screenshot } from "./helpers/chromium.ts";
import { useBridge } from "./helpers/context.ts";
import { makeKey, runSsh } from "./helpers/ssh.ts";

/** The example integration in Chromium, with a real `ssh` proof. */

const ctx = useBridge();
let browser: Browser;
let example: ChildProcess;
let exampleUrl: string;

let examplePort: number;

/** The example app, as README starts it, on `port`; resolves once it listens. */
function startExample(port: number, keyproofUrl = inject("workerUrl")) {
  const child = spawn(process.execPath, [join(ROOT, "examples", "hosted-flow", "server.ts")], {
    env: {
      ...process.env,
      KEYPROOF_URL: keyproofUrl,
      KEYPROOF_API_KEY: inject("apiKey"),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  stopWithThisProcess(child, { group: false });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const listening = new Promise<ChildProcess>((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("example app on")) resolve(child);
    });
    child.once("exit", (code) =>
      reject(Object.assign(new Error(`the example app exited (${code})`), { code, stderr })),
    );
  });
  return listening;
}

beforeAll(async () => {
  browser = await launchChromium();
  examplePort = await freePort();
  exampleUrl = `http://127.0.0.1:${examplePort}`;
  example = await startExample(examplePort);
});

afterAll(async () => {
  example?.kill("SIGTERM");
  await browser?.close();
});

describe("the example integration (examples/hosted-flow)", () => {
  it("sends the user to the proof page and back with a result it verifies offline", async () => {
    const key = makeKey("ed25519");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(exampleUrl);
    // Its language is named, for screen readers and translation.
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.fill("textarea[name=public_key]", key.publicKey);
    await page.click("button");
    await page.waitForURL(/\/p\/[0-9a-z]{26}$/);
    const identifier = new URL(page.url()).pathname.split("/").pop() ?? "";
    const proof = await runSsh({ port: ctx.bridge.port, user: identifier, keys: [key] });
    expect(proof.stdout).toContain("Verified");
    // The page shows Continue and follows it by itself.
    await page.waitForURL(/\/done\?/, { timeout: 15_000 });
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toMatch(/^[0-9a-f]{32}$/);
    expect(back.searchParams.get("keyproof_session_id")).toMatch(/^vs_/);
    expect(back.searchParams.get("keyproof_status")).toBe("verified");
    expect(back.searchParams.get("keyproof_attestation")?.split(".")).toHaveLength(3);
    expect(await page.getAttribute("#result", "data-status")).toBe("verified");
    expect(await page.textContent("body")).toContain(key.sha256);
    await screenshot(page, "example-verified");
    // On a phone the result fits: the fingerprint wraps rather than widening the page.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    // The webhook arrived too, and its signature checked out.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.textContent("#webhooks");
        },
        { timeout: 10_000 },
      )
      .toContain("verified");
    // The result is this browser's: the same URL in another browser is refused.
    const elsewhere = await fetch(page.url());
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain("not started in this browser");
    // Stopped, it leaves no webhook failing behind it; started again, it listens with one.
    const itsHooks = async () =>
      (
        (await (
          await fetch(`${inject("workerUrl")}/api/v1/webhooks/`, {
            headers: { "x-api-key": inject("apiKey") },
          })
        ).json()) as { items: { url: string }[] }
      ).items.filter((hook) => hook.url.startsWith(exampleUrl));
    example.kill("SIGTERM");
    await new Promise((resolve) => example.once("exit", resolve));
    expect(await itsHooks()).toEqual([]);
    example = await startExample(examplePort);
    expect(await itsHooks()).toHaveLength(1);
    await page.close();
  });

  it("refuses a result that was tampered with, and shows nobody the deliveries it received", async () => {
    const response = await fetch(
      `${exampleUrl}/done?state=nothing&keyproof_attestation=eyJhbGciOiJFZERTQSJ9.e30.AAAA`,
      { headers: { cookie: "example_state=nothing" } },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("could not be checked");
    expect((await fetch(`${exampleUrl}/events`)).status).toBe(404);
  });
});

describe("the example's start", () => {
  it("says in one line that it cannot reach keyproof, naming the URL", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const failure = (await startExample(await freePort(), closed).catch(
      (error: Error) => error,
    )) as Error & { code?: number; stderr?: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr?.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^cannot reach keyproof at ${closed} \\(ECONNREFUSED\\)`)),
    ]);
  });
});

describe("the typed client (client/)", () => {
  it("fetches a remote key set once per URL, and checks the issuer by default", async () => {
    const { verifyAttestation } = await import("@keyproof/client");
    const { generateKeyPair, exportJWK, SignJWT } = await import("jose");
    const { createServer } = await import("node:http");
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const jwk = { ...(await exportJWK(publicKey)), kid: "test", alg: "EdDSA" };
    let fetches = 0;
    const server = createServer((_request, response) => {
      fetches++;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const token = (issuer: string) =>
      new SignJWT({ kind: "verify", status: "verified", keys: [] })
        .setProtectedHeader({ alg: "EdDSA", kid: "test", typ: "keyproof-attestation+jwt" })
        .setIssuer(issuer)
        .setAudience("prj_client")
        .setSubject("vs_client")
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(privateKey);
    try {
      const jwksUrl = `${origin}/.well-known/jwks.json`;
      for (let i = 0; i < 5; i++) {
        const claims = await verifyAttestation(await token(origin), {
          jwksUrl,
          audience: "prj_client",
        });
        expect(claims.sub).toBe("vs_client");
      }
      expect(fetches).toBe(1);
      await expect(
        verifyAttestation(await token("https://elsewhere.example"), {
          jwksUrl,
          audience: "prj_client",
        }),
      ).rejects.toThrow(/iss/);
    } finally {
      server.close();
    }
  });

  it("has types generated from the document the Worker serves", async () => {
    const document = await (await fetch(`${inject("workerUrl")}/api/v1/openapi.json`)).json();
    const checkedIn = readFileSync(join(ROOT, CLIENT_TYPES_PATH), "utf8");
    expect(checkedIn, "client/src/schema.d.ts is out of date: run npm run client:generate").toBe(
      await clientTypes(document),
    );
    // The client names each operation as the document does (`operations["createCollectSession"]`).
    const operationIds = Object.values(
      (document as { paths: Record<string, Record<string, { operationId: string }>> }).paths,
    ).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    const typed = checkedIn
      .slice(checkedIn.indexOf("export interface operations {"))
      .match(/^ {4}[a-zA-Z]+: \{$/gm)
      ?.map((line) => line.trim().replace(": {", ""));
    expect(typed?.sort()).toEqual(operationIds.sort());
    expect(readFileSync(join(ROOT, "client", "src", "index.ts"), "utf8")).toMatch(
      /export type \{[^}]*\boperations\b[^}]*\}/,
    );
  });
});
