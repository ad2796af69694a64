/**
 * The planet on one machine: keyproof with D1's primary made R ms away (SIMULATED_D1_PRIMARY_MS)
 * and everything else local, as for a user and an integrator far from the primary with the
 * Worker, the session's object and a D1 replica near them. For R = 0, 90 and 215 ms, in one run:
 * the wall time of each API operation, of a full SSH proof (ssh start → result on the terminal),
 * a signature proof, a proof page load, and how soon a list without a bookmark shows a proof.
 *   node bench/geo.ts [iterations] [distances, comma-separated]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  removeState,
  seedProject,
  startLocalWorker,
} from "../test-support/local-worker.ts";
import { waitForGreeting } from "../test-support/ssh-greeting.ts";
import { machine, median, spawnBridge, sshArgs, table, writeSection } from "./lib.ts";

/**
 * What each operation may add, as a multiple of R: a write answers once its session's object has
 * committed, alone or right after another; a read sent the bookmark of writes whose push is still
 * on its way shows them from their objects (read-your-writes without waiting for D1).
 */
const TARGETS: Record<string, number> = {
  create: 0.25,
  "GET one session": 0.25,
  PATCH: 0.25,
  "event log, with the bookmark": 0.25,
  "list, with the bookmark of the caller's last write": 0.25,
  "list, with the bookmark, right after those writes": 0.25,
  "event log, with the bookmark, right after those writes": 0.25,
  complete: 0.25,
  DELETE: 0.25,
  "PATCH right after a create": 0.25,
  "complete right after a create": 0.25,
  "SSH proof (ssh start → result on the terminal)": 0.25,
  "signature proof (POST to signature_url)": 0.25,
  "proof page load": 0.25,
};

/** What the lines without a target are held to instead. */
const UNTIMED: Record<string, string> = {
  "a list without a bookmark shows the proof": "within 2 s",
};

type Timings = Record<string, number[]>;

/** Runs `command` and resolves with its wall time in ms once it exits 0. */
function timed(command: string, args: string[], input?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (data) => (stderr += data));
    child.stdin.end(input ?? "");
    child.on("close", (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${command} exited ${code}: ${stderr.slice(0, 300)}`)),
    );
  });
}

async function measureAt(distanceMs: number, iterations: number, dir: string, keyPath: string) {
  const worker = await startLocalWorker({
    vars: { SIMULATED_D1_PRIMARY_MS: String(distanceMs) },
  });
  const { apiKey } = await seedProject(worker);
  const bridgePort = await freePort();
  const bridge = await spawnBridge(worker, {
    port: bridgePort,
    hostKeyDir: join(dir, "bridge-keys"),
  });
  await waitForGreeting(bridgePort);
  let bookmark = "first-unconstrained";
  /** A timed API call; it keeps the newest bookmark, as a client reading its own writes does. */
  const api = async (method: string, path: string, body?: unknown, send = true) => {
    const started = performance.now();
    const response = await fetch(`${worker.url}/api/v1${path}`, {
      method,
      headers: {
        "x-api-key": apiKey,
        "content-type": "application/json",
        ...(send ? { "keyproof-bookmark": bookmark } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    bookmark = response.headers.get("keyproof-bookmark") ?? bookmark;
    return { ms, json: text ? JSON.parse(text) : null };
  };
  const timings: Timings = {};
  const add = (name: string, ms: number) => {
    timings[name] ??= [];
    timings[name].push(ms);
  };
  try {
    // Warm: the isolate, its cached API key, the rate limiter's grants.
    await api("GET", "/auth/info/");
    for (let i = 0; i < iterations; i++) {
      const created = await api("POST", "/ssh/collect/sessions/", { multi_connection: true });
      add("create", created.ms);
      const id = created.json.id as string;
      const identifier = created.json.connection_identifier as string;
      add("GET one session", (await api("GET", `/ssh/collect/sessions/${id}/`)).ms);
      add(
        "PATCH",
        (await api("PATCH", `/ssh/collect/sessions/${id}/`, { external_id: `geo-${i}` })).ms,
      );
      const afterPatch = await api("GET", `/ssh/collect/sessions/?external_id=geo-${i}`);
      if (afterPatch.json.items.length !== 1)
        throw new Error("a list with the bookmark missed a write");
      add("list, with the bookmark of the caller's last write", afterPatch.ms);
      add("event log, with the bookmark", (await api("GET", `/events/?session_id=${id}`)).ms);
      const page = performance.now();
      const pageResponse = await fetch(`${worker.url}/p/${identifier}`);
      await pageResponse.text();
      add("proof page load", performance.now() - page);
      add(
        "SSH proof (ssh start → result on the terminal)",
        await timed("ssh", sshArgs(bridgePort, keyPath, identifier)),
      );
      // How soon a list without a bookmark, read near the caller, shows the bridge's change.
      const proven = performance.now();
      for (;;) {
        const list = await api(
          "GET",
          `/ssh/collect/sessions/?external_id=geo-${i}`,
          undefined,
          false,
        );
        const connections = (
          await api("GET", `/events/?session_id=${id}&type=key_collected`, undefined, false)
        ).json;
        if (list.json.items.length > 0 && connections.items.length > 0) break;
        if (performance.now() - proven > 10_000) throw new Error("the proof never reached a list");
      }
      add("a list without a bookmark shows the proof", performance.now() - proven);
      const session = (await api("GET", `/ssh/collect/sessions/${id}/`)).json;
      const armored = execFileSync("ssh-keygen", ["-Y", "sign", "-n", "keyproof", "-f", keyPath], {
        input: session.signature_challenge,
        encoding: "utf8",
        stdio: ["pipe", "pipe", "ignore"],
      });
      const signed = performance.now();
      const answer = await fetch(session.signature_url, {
        method: "POST",
        body: armored,
        headers: { "content-type": "text/plain" },
      });
      await answer.text();
      if (!answer.ok) throw new Error(`signature: ${answer.status}`);
      add("signature proof (POST to signature_url)", performance.now() - signed);
      add("complete", (await api("POST", `/ssh/collect/sessions/${id}/complete/`)).ms);
      add("DELETE", (await api("DELETE", `/ssh/collect/sessions/${id}/`)).ms);
      // Back to back, as a script makes them: each write at once after the one before, then a
      // list with the last bookmark, which must show them (read-your-writes).
      const next = await api("POST", "/ssh/collect/sessions/", {});
      add(
        "PATCH right after a create",
        (await api("PATCH", `/ssh/collect/sessions/${next.json.id}/`, { external_id: `b2b-${i}` }))
          .ms,
      );
      const third = await api("POST", "/ssh/collect/sessions/", { multi_connection: true });
      add(
        "complete right after a create",
        (await api("POST", `/ssh/collect/sessions/${third.json.id}/complete/`)).ms,
      );
      const listed = await api("GET", `/ssh/collect/sessions/?external_id=b2b-${i}`);
      if (listed.json.items.length !== 1)
        throw new Error("a list with the bookmark missed a write");
      add("list, with the bookmark, right after those writes", listed.ms);
      const logged = await api("GET", `/events/?session_id=${third.json.id}`);
      if (logged.json.items.length !== 1)
        throw new Error("the event log with the bookmark missed the completion");
      add("event log, with the bookmark, right after those writes", logged.ms);
    }
    return timings;
  } finally {
    bridge.kill("SIGTERM");
    await worker.stop();
    removeState(worker);
  }
}

export async function runGeoBench(iterations = 10, distances = [0, 90, 215], write = true) {
  const dir = mkdtempSync(join(tmpdir(), "keyproof-bench-geo-"));
  const keyPath = join(dir, "user_key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", keyPath]);
  const byDistance = new Map<number, Timings>();
  for (const distance of distances)
    byDistance.set(distance, await measureAt(distance, iterations, dir, keyPath));
  const base = byDistance.get(distances[0] ?? 0) ?? {};
  const names = Object.keys(base);
  const far = distances.slice(1);
  const rows = names.map((name) => {
    const at0 = median(base[name] ?? []);
    const cells = far.map((distance) => {
      const value = median(byDistance.get(distance)?.[name] ?? []);
      const added = value - at0;
      const target = TARGETS[name];
      const verdict = target === undefined ? "" : added <= target * distance ? " ✓" : " ✗";
      return `${value.toFixed(1)} (+${added.toFixed(1)}${verdict})`;
    });
    const target = TARGETS[name];
    return [
      name,
      at0.toFixed(1),
      ...cells,
      target === undefined ? (UNTIMED[name] ?? "") : `≤ ${target} R`,
    ];
  });
  const markdown = `## 7. Geography: D1's primary far away (SIMULATED_D1_PRIMARY_MS)

\`node bench/geo.ts ${iterations} ${distances.join(",")}\` — for each distance R, a fresh \`wrangler dev\` with \`SIMULATED_D1_PRIMARY_MS=R\` (every write, and every read that is not a replica read, waits R first) and a real bridge; ${iterations} rounds, one after another, each: create, GET, PATCH, a list and the event log with the caller's bookmark, a proof page load, a full \`ssh\` proof, a list *without* a bookmark polled until it shows the proof, a signature proof, complete, DELETE; then back to back as a script makes them, a create and at once a PATCH, a create and at once complete, and a list with the last bookmark, which must show the PATCH (read-your-writes: shown from the sessions' objects, without waiting for their pushes). Median wall time in ms; in brackets what R added over R = 0, with ✓ where it meets the target.

${table(["Operation", "R = 0", ...far.map((r) => `R = ${r}`), "target (added)"], rows)}

Machine: ${machine()}.`;
  if (write) writeSection("geo", markdown);
  return { byDistance, markdown };
}

const [iterationsArg, distancesArg] = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}`) {
  const distances = distancesArg?.split(",").map(Number) ?? [0, 90, 215];
  console.log((await runGeoBench(Number(iterationsArg ?? 10), distances)).markdown);
}
