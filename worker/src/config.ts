import { successLogOneIn } from "./api/request-log.ts";
import { attestationKeysProblem } from "./domain/attestations.ts";
import { forgesProblem } from "./domain/forges.ts";
import type { Env } from "./env.ts";
import { LOG_LEVELS, logLevelOf } from "./lib/log.ts";

/**
 * Settings that would make the Worker wrong, found as it starts: one sentence naming each, so a
 * bad deploy fails at once instead of failing requests later.
 */
export function configurationProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const [name, simulated, what] of [
    ["SIMULATED_D1_PRIMARY_MS", env.SIMULATED_D1_PRIMARY_MS, "slows every D1 write"],
    ["SIMULATED_D1_QUERY_MS", env.SIMULATED_D1_QUERY_MS, "makes D1 take its queries one by one"],
  ] as const) {
    if (simulated === undefined || simulated === "") continue;
    if (env.ENVIRONMENT === "production") {
      problems.push(
        `${name} is a development setting that ${what}; a Worker with ENVIRONMENT=production refuses to start with it set`,
      );
    } else if (!/^\d+$/.test(simulated)) {
      problems.push(`${name} must be a whole number of milliseconds, not "${simulated}"`);
    }
  }
  for (const [name, setting, what] of [
    ["RETENTION_DAY_SECONDS", env.RETENTION_DAY_SECONDS, "shortens how long sessions are kept"],
    [
      "RETIREMENT_GRACE_SECONDS",
      env.RETIREMENT_GRACE_SECONDS,
      "shortens how long a closed session's object keeps it",
    ],
  ] as const) {
    if (setting === undefined || setting === "") continue;
    if (env.ENVIRONMENT === "production") {
      problems.push(
        `${name} is a development setting that ${what}; a Worker with ENVIRONMENT=production refuses to start with it set`,
      );
    } else if (!/^[1-9]\d*$/.test(setting)) {
      problems.push(`${name} must be a whole number of seconds, not "${setting}"`);
    }
  }
  if (logLevelOf(env.LOG_LEVEL) === null)
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not "${env.LOG_LEVEL}"`);
  if (successLogOneIn(env.REQUEST_LOG_SUCCESS_ONE_IN) === null)
    problems.push(
      `REQUEST_LOG_SUCCESS_ONE_IN must be a whole number from 1, not "${env.REQUEST_LOG_SUCCESS_ONE_IN}"`,
    );
  const forges = forgesProblem(env);
  if (forges) problems.push(forges);
  const keys = attestationKeysProblem(env.ATTESTATION_KEYS);
  if (keys) problems.push(keys);
  return problems;
}
