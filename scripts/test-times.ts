/**
 * The slowest test files of a run, from vitest's own JSON report, as docs/testing.md shows them:
 *   npm test -- --reporter=default --reporter=json --outputFile.json=after.json
 *   node scripts/test-times.ts after.json [before.json] [rows]
 * With a second report, each file's seconds in it stand beside (a file split or renamed since
 * shows a dash).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { ROOT } from "./local-dev.ts";

interface Report {
  startTime: number;
  numTotalTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

function fileSeconds(path: string): Map<string, number> {
  const report = JSON.parse(readFileSync(path, "utf8")) as Report;
  return new Map(
    report.testResults.map((file) => [
      relative(ROOT, file.name),
      (file.endTime - file.startTime) / 1000,
    ]),
  );
}

const [afterPath, beforePath, rows = "20"] = process.argv.slice(2);
if (!afterPath) {
  console.error("usage: node scripts/test-times.ts after.json [before.json] [rows]");
  process.exit(1);
}
const after = fileSeconds(afterPath);
const before = beforePath ? fileSeconds(beforePath) : null;
const slowest = [...after].sort((a, b) => b[1] - a[1]).slice(0, Number(rows));
const seconds = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(1));
console.log(before ? "| File | before s | after s |\n|---|---:|---:|" : "| File | s |\n|---|---:|");
for (const [file, time] of slowest)
  console.log(
    before
      ? `| ${file} | ${seconds(before.get(file))} | ${seconds(time)} |`
      : `| ${file} | ${seconds(time)} |`,
  );
const sum = (times: Map<string, number>) => [...times.values()].reduce((a, b) => a + b, 0);
console.log(
  `\nFiles: ${after.size}, their seconds summed: ${sum(after).toFixed(0)}` +
    (before ? ` (before: ${before.size} files, ${sum(before).toFixed(0)} s)` : ""),
);
