/**
 * The slowest test files of a run, from vitest's own JSON report, as docs/testing.md shows them:
 *   npm test -- --reporter=default --reporter=json --outputFile.json=after.json
 *   node scripts/test-times.ts after.json [before.json] [rows]
 * With a second report, each file's seconds in it stand beside, and a file either took long in
 * is listed (a dash where a run did not have it: split or added since).
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
// With a report to compare, a file either run took long in is listed (one split since, too).
const longest = (file: string) => Math.max(after.get(file) ?? 0, before?.get(file) ?? 0);
const files = [...new Set([...after.keys(), ...(before?.keys() ?? [])])];
const slowest = files.sort((a, b) => longest(b) - longest(a)).slice(0, Number(rows));
const seconds = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(1));
console.log(before ? "| File | before s | after s |\n|---|---:|---:|" : "| File | s |\n|---|---:|");
for (const file of slowest)
  console.log(
    before
      ? `| ${file} | ${seconds(before.get(file))} | ${seconds(after.get(file))} |`
      : `| ${file} | ${seconds(after.get(file))} |`,
  );
const sum = (times: Map<string, number>) => [...times.values()].reduce((a, b) => a + b, 0);
console.log(
  `\nFiles: ${after.size}, their seconds summed: ${sum(after).toFixed(0)}` +
    (before ? ` (before: ${before.size} files, ${sum(before).toFixed(0)} s)` : ""),
);
