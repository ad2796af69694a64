/**
 * A vitest worker process ends with the run that started it. Killed outright (a CI timeout's
 * SIGKILL), the runner leaves its workers behind, and they would go on running tests and the
 * processes those start; the channel to the runner closing is the sign it is gone. The guards of
 * what this worker started (scripts/process-guard.ts) then stop those.
 */
const ENDS_WITH_RUNNER = Symbol.for("keyproof.endsWithRunner");
const marked = globalThis as { [ENDS_WITH_RUNNER]?: boolean };
if (!marked[ENDS_WITH_RUNNER] && process.connected) {
  marked[ENDS_WITH_RUNNER] = true;
  process.once("disconnect", () => process.exit(1));
}
