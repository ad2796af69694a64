/**
 * Where the Worker's CPU goes in a proof (an API create, an `ssh` login through a real bridge and a
 * GET, with every push they cause), in `wrangler dev`'s workerd, three ways over the same kind of
 * window: its CPU from /proc; `perf` sampling the whole process, every native frame included, by
 * component; and V8's own profiler over DevTools' protocol, by JavaScript function and file.
 *   node bench/profile.ts [proofs]
 */
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { ROOT } from "../scripts/local-dev.ts";
import { cpuSeconds, machine, pidsMatching, scriptArgs, table, writeSection } from "./lib.ts";
import { proofRig } from "./rig.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools session on the Worker's inspector: one method call at a time, answered by id. */
async function inspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error("the inspector lists no Worker");
  // ws, not Node's own WebSocket, whose handshake wrangler's inspector proxy refuses.
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const call = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

/**
 * Samples by key (a function, a file), most first. Counts, not the samples' time deltas: workerd
 * runs several isolates and its own C++ on one thread, so V8's sampler often cannot take a sample
 * for long stretches, and the next sample's delta would carry that whole stretch.
 */
function samplesBy(profile: Profile, keyOf: (node: ProfileNode) => string): [string, number][] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const sums = new Map<string, number>();
  for (const id of profile.samples) {
    const node = nodes.get(id);
    if (node) sums.set(keyOf(node), (sums.get(keyOf(node)) ?? 0) + 1);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

/** Source maps of the bundles wrangler ran, by their URL: read while they are still there. */
const sourceMaps = new Map<string, SourceMap | null>();

/** The bundle the inspector names `index.js`: wrangler's newest, in `.wrangler/tmp` while it runs. */
function bundlePath(url: string): string {
  if (url !== "index.js") return url;
  const tmp = join(ROOT, ".wrangler", "tmp");
  const newest = readdirSync(tmp)
    .map((dir) => join(tmp, dir, "index.js"))
    .filter((path) => existsSync(`${path}.map`))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest ?? url;
}

function sourceMapOf(url: string): SourceMap | null {
  if (!sourceMaps.has(url)) {
    const path = `${bundlePath(url)}.map`;
    sourceMaps.set(
      url,
      existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, "utf8"))) : null,
    );
  }
  return sourceMaps.get(url) ?? null;
}

/** Where a profile node's code was written: a source file and line, through the bundle's map. */
function placeOf(node: ProfileNode): { file: string; line: number } {
  const { url, functionName, lineNumber, columnNumber } = node.callFrame;
  if (!url) return { file: functionName || "(program)", line: 0 };
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  const file = entry?.originalSource ?? url;
  return {
    file: file.replace(/^.*?\/(worker|node_modules)\//, "$1/").replace(/^file:\/\//, ""),
    line: (entry?.originalLine ?? lineNumber) + 1,
  };
}

const fileOf = (node: ProfileNode) => placeOf(node).file;

/** The profile with each node's sampled lines named in the source, while the bundle's map is there. */
function sourced(profile: Profile) {
  const nodes = profile.nodes.map((node) => {
    const { url } = node.callFrame;
    const ticks = (node as { positionTicks?: { line: number; ticks: number }[] }).positionTicks;
    const map = url ? sourceMapOf(url) : null;
    const lines = (ticks ?? []).map(({ line, ticks }) => {
      const entry = map?.findEntry(line - 1, 0) as {
        originalSource?: string;
        originalLine?: number;
      };
      return {
        place: `${entry?.originalSource ?? url}:${(entry?.originalLine ?? line) + 1}`,
        ticks,
      };
    });
    return { ...node, place: placeOf(node), lines };
  });
  return { ...profile, nodes };
}

/** What a native sample was doing, by the first frame from its leaf that says (perf's stacks). */
const COMPONENTS: [string, RegExp][] = [
  ["garbage collection", /CollectGarbage|cppgc::|Scavenger|MarkCompact|ConcurrentMarking/],
  ["SQLite: local D1 and each object's storage", /sqlite3|Sqlite|pager|Btree/],
  ["new Durable Object (its actor and database set up)", /Worker::Actor::(Actor|Impl)/],
  ["structured clone of RPC arguments and results", /Serializer|Deserializer/],
  ["JavaScript: ours, libraries, V8 builtins", /^Builtins_|^v8::|\[JIT\]|^LazyCompile|^Function:/],
  ["workerd: I/O, RPC, scheduling, HTTP", /kj::|capnp::|workerd::|kj_rs|tokio/],
];
const SKIPPED = /tcmalloc|TCMalloc|^__mem|^__str|^operator new|^operator delete|^malloc|^free/;

/** Whatever runs under these frames counts as theirs, wherever its leaf is. */
const ENCLOSING = COMPONENTS.filter(
  ([name]) => name.startsWith("garbage") || name.startsWith("new "),
);

function componentOf(frames: { symbol: string; dso: string }[]): string {
  const enclosing = ENCLOSING.find(([, pattern]) =>
    frames.some(({ symbol }) => pattern.test(symbol)),
  );
  if (enclosing) return enclosing[0];
  for (const { symbol, dso } of frames) {
    if (dso.includes("kernel") || SKIPPED.test(symbol)) continue;
    const name = dso.includes("JIT") ? `[JIT] ${symbol}` : symbol;
    const found = COMPONENTS.find(([, pattern]) => pattern.test(name));
    if (found) return found[0];
  }
  return frames[0]?.dso.includes("kernel") ? "kernel (sockets, files, scheduling)" : "other";
}

/** `perf record` on workerd while `work` runs; samples by component, or null without perf. */
export async function nativeProfile(pids: number[], work: () => Promise<void>) {
  try {
    execFileSync("perf", ["--version"], { stdio: "ignore" });
  } catch {
    await work();
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "keyproof-perf-"));
  const data = join(dir, "perf.data");
  const recorder = spawn(
    "perf",
    ["record", "-q", "-F", "999", "-g", "-o", data, "-p", pids.join(",")],
    {
      stdio: "ignore",
    },
  );
  // perf takes a moment to attach to the processes; what runs before that goes unsampled.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await work();
  const exited = new Promise((resolve) => recorder.once("exit", resolve));
  recorder.kill("SIGINT");
  await exited;
  // perf may be there and still not allowed to record (kernel.perf_event_paranoid): no breakdown.
  let script = "";
  try {
    script = execFileSync("perf", ["script", "-i", data, "-F", "ip,sym,dso"], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const counts = new Map<string, number>();
  for (const sample of script.split(/\n\s*\n/)) {
    const frames = [...sample.matchAll(/^\s*[0-9a-f]+ (.*) \((.*)\)$/gm)].map(
      ([, symbol, dso]) => ({
        symbol: symbol ?? "",
        dso: dso ?? "",
      }),
    );
    if (frames.length === 0) continue;
    const component = componentOf(frames);
    counts.set(component, (counts.get(component) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export async function runProfileBench(proofs = 50, write = true) {
  // As the product runs: without the cost benches' metering.
  const { worker, api, ssh, stop } = await proofRig({ METERING: "off" });
  const proof = async () => {
    const session = await api("POST", "/ssh/collect/sessions/", {});
    ssh(session.connection_identifier);
    await api("GET", `/ssh/collect/sessions/${session.id}/`);
  };
  // The pushes that follow the last answers.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));
  try {
    // Warm: the first proofs compile what the rest run.
    for (let i = 0; i < 3; i++) await proof();
    // This rig's own workerd: others may run on the machine (tests beside a smoke run).
    const pids = pidsMatching(`workerd serve.*127.0.0.1:${worker.port}`);
    const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    let cpuMs = 0;
    const native = await nativeProfile(pids, async () => {
      const before = cpu();
      for (let i = 0; i < proofs; i++) await proof();
      await settle();
      cpuMs = ((cpu() - before) * 1000) / proofs;
    });

    const devtools = await inspector(worker.inspectorPort);
    await devtools.call("Profiler.enable");
    await devtools.call("Profiler.setSamplingInterval", { interval: 100 });
    await devtools.call("Profiler.start");
    for (let i = 0; i < proofs; i++) await proof();
    await settle();
    const { profile } = await devtools.call<{ profile: Profile }>("Profiler.stop");
    devtools.close();
    // The raw profile, for a look line by line (DevTools opens it; `positionTicks` has the lines).
    if (process.env.PROFILE_OUT)
      writeFileSync(process.env.PROFILE_OUT, JSON.stringify(sourced(profile)));
    const outside = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);
    const byFile = samplesBy(profile, fileOf).filter(([file]) => !outside.has(file));
    const inJs = byFile.reduce((sum, [, n]) => sum + n, 0);
    const byFunction = samplesBy(profile, (node) => {
      const { file, line } = placeOf(node);
      return `${node.callFrame.functionName || "(anonymous)"} ${file}:${line}`;
    }).filter(([name]) => ![...outside].some((v8) => name.startsWith(v8)));
    const share = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
    const nativeTotal = native?.reduce((sum, [, n]) => sum + n, 0) ?? 0;
    const nativeTable = native
      ? table(
          ["Component (perf, every thread of workerd)", "share", "ms per proof"],
          native.map(([component, n]) => [
            component,
            share(n, nativeTotal),
            ((cpuMs * n) / nativeTotal).toFixed(1),
          ]),
        )
      : "(`perf` is not installed here, or may not record: no native breakdown.)";
    const markdown = `## 11. Where the Worker's CPU goes

\`node bench/profile.ts ${proofs}\` — ${proofs} proofs one after another, each an API create, a real \`ssh\` login through the bridge and a GET, with every push they cause, under \`wrangler dev\` with wrangler's local trace explorer off (as every bench here) and without metering, as deployed.

**${cpuMs.toFixed(1)} ms of workerd CPU per proof** (user + system, \`/proc\`). By what the process was doing, from \`perf record -g\` over the same ${proofs} proofs (${nativeTotal} samples at 999 Hz; each sample goes to the first frame from its leaf that names a component, allocator frames skipped):

${nativeTable}

The JavaScript, from V8's profiler (DevTools' \`Profiler\`, every 100 µs) over another ${proofs} proofs: shares of the ${inJs} samples taken in JavaScript. V8's sampler takes few samples while workerd runs its own C++ or another isolate (the gaps show as long intervals between samples), so these are shares, not times (the table above has the times); a function's share includes the native work it calls and waits for synchronously, such as a Durable Object stub's call setting up a new object.

${table(
  ["File", "share of JavaScript"],
  byFile.slice(0, 15).map(([file, n]) => [`\`${file}\``, share(n, inJs)]),
)}

The heaviest functions (self):

${table(
  ["Function", "share of JavaScript"],
  byFunction.slice(0, 15).map(([name, n]) => [`\`${name}\``, share(n, inJs)]),
)}

Machine: ${machine()}.`;
    if (write) writeSection("profile", markdown);
    return { cpuMsPerProof: cpuMs, native, byFile, markdown };
  } finally {
    await stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runProfileBench(...args)).markdown);
