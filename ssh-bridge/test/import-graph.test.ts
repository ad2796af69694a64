import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/local-dev.ts";

/**
 * The house's shape: no module imports itself through others, and the domain
 * returns data the web app renders, never the other way round. Imports are read by TypeScript's
 * own pre-processor, type-only imports included: a circle of types is a circle to a reader too.
 */

/** Every TypeScript file under `dir`, absolute. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Each file's relative imports within `files`, by path from ROOT. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => known.has(target));
    graph.set(
      relative(ROOT, file),
      targets.map((target) => relative(ROOT, target)),
    );
  }
  return graph;
}

/** One circle of imports in `graph`, as the files around it, or null if there is none. */
function findCircle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === "done") return null;
    if (state.get(file) === "open") return [...path.slice(path.indexOf(file)), file];
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(file, "done");
    return null;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return null;
}

const worker = importGraph(sourceFiles(join(ROOT, "worker/src")));
const bridge = importGraph(sourceFiles(join(ROOT, "ssh-bridge/src")));

describe("the import graph", () => {
  it("finds a circle when there is one (the check itself)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(findCircle(graph)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
    expect(
      findCircle(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toBeNull();
  });

  it("has no circle in the Worker or in the bridge", () => {
    expect(worker.size).toBeGreaterThan(100);
    expect(findCircle(worker)).toBeNull();
    expect(findCircle(bridge)).toBeNull();
  });

  it("keeps the domain and the Worker's environment free of the web app", () => {
    const intoWeb = [...worker]
      .filter(([file]) => file.startsWith("worker/src/domain/") || file === "worker/src/app-env.ts")
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith("worker/src/web/"))
          .map((t) => `${file} -> ${t}`),
      );
    expect(intoWeb).toEqual([]);
  });
});
