/**
 * What a Node process's memory is made of, for bench/bridge-memory.ts: its JS heap from a heap
 * snapshot (the process runs with `--heapsnapshot-signal=SIGUSR2`), in a few kinds, beside its
 * RSS and the RSS of an empty Node started with the same flags.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BRIDGE_NODE_ENV, BRIDGE_NODE_FLAGS } from "../scripts/local-dev.ts";
import { rssMegabytes } from "./lib.ts";

/** The flag a process needs for `heapBreakdown` to snapshot it. */
export const HEAP_SNAPSHOT_OPTIONS = "--heapsnapshot-signal=SIGUSR2";

/** A snapshot's nodes by kind, in MB of their own size. */
export type HeapKinds = Record<string, number>;

const KIND_OF: Record<string, string> = {
  "native:system / JSArrayBufferData": "array buffer data",
  string: "strings",
  "concatenated string": "strings",
  "sliced string": "strings",
  code: "compiled code",
  closure: "objects, arrays and closures",
  object: "objects, arrays and closures",
  array: "objects, arrays and closures",
};

const megabytes = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** Sums a heap snapshot's nodes by kind; the largest single strings and buffers apart. */
export function heapKinds(snapshotPath: string): { kinds: HeapKinds; largest: string[] } {
  const snapshot = JSON.parse(readFileSync(snapshotPath, "utf8"));
  const meta = snapshot.snapshot.meta;
  const fields: string[] = meta.node_fields;
  const types: string[] = meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const sums = new Map<string, number>();
  const largest: [string, number][] = [];
  const nodes: number[] = snapshot.nodes;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + (typeAt ?? 0)] ?? 0] ?? "";
    const name: string = snapshot.strings[nodes[i + (nameAt ?? 0)] ?? 0] ?? "";
    const size = nodes[i + (sizeAt ?? 0)] ?? 0;
    const kind = KIND_OF[type === "native" ? `native:${name}` : type] ?? "V8's own structures";
    sums.set(kind, (sums.get(kind) ?? 0) + size);
    if (size >= 512 * 1024) largest.push([`${type} ${JSON.stringify(name.slice(0, 40))}`, size]);
  }
  const kinds: HeapKinds = {};
  for (const [kind, bytes] of [...sums].sort((a, b) => b[1] - a[1])) kinds[kind] = megabytes(bytes);
  return {
    kinds,
    largest: largest
      .sort((a, b) => b[1] - a[1])
      .map(([what, size]) => `${what}: ${megabytes(size)} MB`),
  };
}

/** Signals `pid` to write a heap snapshot into `dir` (its working directory), and reads it. */
export async function heapBreakdown(pid: number, dir: string) {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  let path: string | undefined;
  let size = -1;
  for (let waited = 0; waited < 120_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const file = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!file) continue;
    path = join(dir, file);
    const now = statSync(path).size;
    // Written at once by the process: done when its size stops moving.
    if (now === size && now > 0) break;
    size = now;
  }
  if (!path) throw new Error(`no heap snapshot from ${pid}`);
  const breakdown = heapKinds(path);
  rmSync(path);
  return breakdown;
}

/** The RSS of an empty Node with the bridge's flags: what any Node process takes. */
export async function emptyNodeRss(): Promise<number> {
  const child = spawn(
    process.execPath,
    [...BRIDGE_NODE_FLAGS, "-e", "setInterval(() => {}, 1000)"],
    {
      env: { ...process.env, ...BRIDGE_NODE_ENV },
      stdio: "ignore",
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rss = rssMegabytes(child.pid ?? 0);
  child.kill();
  return rss;
}
