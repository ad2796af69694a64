import type { Env } from "../env.ts";

/**
 * Counters an operator alerts on (docs/operations.md), for what must never pass silently: each
 * is a Workers Analytics Engine data point where the METRICS dataset is bound (one row, the
 * metric's name, its labels), and an in-isolate count that tests and `/__dev/metrics` read.
 */
export const METRIC_NAMES = ["index_push_refused"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

const counts = new Map<MetricName, number>();

export function countMetric(
  env: Pick<Env, "METRICS">,
  name: MetricName,
  labels: Record<string, string> = {},
) {
  counts.set(name, (counts.get(name) ?? 0) + 1);
  env.METRICS?.writeDataPoint({
    indexes: [name],
    blobs: [name, ...Object.entries(labels).map(([key, value]) => `${key}=${value}`)],
    doubles: [1],
  });
}

/** What this isolate counted so far. */
export const metricCounts = () =>
  Object.fromEntries(METRIC_NAMES.map((name) => [name, counts.get(name) ?? 0]));
