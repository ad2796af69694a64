/**
 * Where the Worker's CPU goes in a proof: a CPU profile of `wrangler dev`'s workerd, taken over
 * DevTools' protocol (wrangler's inspector) while proofs run — each an API create, an `ssh` login
 * through a real bridge, and a GET — summed by function and by source file, self time.
 *   node bench/profile.ts [proofs]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import { join } from "node:path";
import WebSocket from "ws";
import { ROOT } from "../scripts/local-dev.ts";
import { proofRig } from "./cost.ts";
import { machine, scriptArgs, table, writeSection } from "./lib.ts";

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

/** Self time by key (a function, a file), in ms, largest first. */
function selfTime(profile: Profile, keyOf: (node: ProfileNode) => string): [string, number][] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const sums = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    if (!node) return;
    const key = keyOf(node);
    sums.set(key, (sums.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
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

export async function runProfileBench(proofs = 50, write = true) {
  // As the product runs: without the cost benches' metering.
  const { worker, api, ssh, stop } = await proofRig({ METERING: "off" });
  try {
    // Warm: the first proof compiles what the rest run.
    const warm = await api("POST", "/ssh/collect/sessions/", {});
    ssh(warm.connection_identifier);
    const devtools = await inspector(worker.inspectorPort);
    await devtools.call("Profiler.enable");
    await devtools.call("Profiler.setSamplingInterval", { interval: 1000 });
    await devtools.call("Profiler.start");
    for (let i = 0; i < proofs; i++) {
      const session = await api("POST", "/ssh/collect/sessions/", {});
      ssh(session.connection_identifier);
      await api("GET", `/ssh/collect/sessions/${session.id}/`);
    }
    // The pushes and deliveries that follow the last answers.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { profile } = await devtools.call<{ profile: Profile }>("Profiler.stop");
    devtools.close();
    const idle = new Set(["(idle)", "(program)", "(garbage collector)"]);
    const byFile = selfTime(profile, fileOf);
    const busy = byFile.filter(([file]) => !idle.has(file)).reduce((sum, [, ms]) => sum + ms, 0);
    const gc = byFile.find(([file]) => file === "(garbage collector)")?.[1] ?? 0;
    const byFunction = selfTime(profile, (node) => {
      const { file, line } = placeOf(node);
      return `${node.callFrame.functionName || "(anonymous)"} ${file}:${line}`;
    }).filter(([name]) => ![...idle].some((v8) => name.startsWith(v8)));
    const perProof = (ms: number) => (ms / proofs).toFixed(2);
    const markdown = `## 11. Where the Worker's CPU goes

\`node bench/profile.ts ${proofs}\` — a CPU profile of \`wrangler dev\`'s workerd (DevTools' \`Profiler\`, sampled every millisecond) over ${proofs} proofs, each an API create, a real \`ssh\` login through the bridge and a GET, with every push and delivery they cause. Self time, ms per proof: **${perProof(busy)} ms of JavaScript** and ${perProof(gc)} ms of garbage collection. The Worker runs without metering (\`METERING\` off), as deployed; the profiler's own sampling makes every figure larger than an unprofiled run's, so it says where the time goes, not how much there is (\`bench/ssh-proofs.ts\` says that).

By source file:

${table(
  ["File", "ms per proof"],
  byFile
    .filter(([file]) => !idle.has(file))
    .slice(0, 15)
    .map(([file, ms]) => [`\`${file}\``, perProof(ms)]),
)}

The heaviest functions:

${table(
  ["Function", "ms per proof"],
  byFunction.slice(0, 15).map(([name, ms]) => [`\`${name}\``, perProof(ms)]),
)}

Machine: ${machine()}.`;
    if (write) writeSection("profile", markdown);
    return { busyMsPerProof: busy / proofs, byFile, markdown };
  } finally {
    await stop();
  }
}

const args = scriptArgs(import.meta.url);
if (args) console.log((await runProfileBench(...args)).markdown);
