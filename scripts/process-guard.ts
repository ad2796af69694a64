import { type ChildProcess, spawn } from "node:child_process";

/**
 * How often a guard asks whether its process and its child still live, and how long a child
 * told to stop (SIGTERM) has before it is killed.
 */
const GUARD_POLL_SECONDS = 1;
const GUARD_GRACE_SECONDS = 5;

/**
 * A watcher of its own, in a group of its own, that stops the child once this process is gone,
 * however it ended: Ctrl-C, a timeout, SIGKILL. A child started in a group of its own (`detached`:
 * wrangler dev with its workerd, HAProxy) is stopped as a whole group. The watcher ends by itself
 * once the child has. Without it, `kill -9` of `npm start` or of a test run left `wrangler dev`
 * holding its port.
 */
export function stopWithThisProcess(child: ChildProcess, options: { group: boolean }) {
  if (!child.pid) return;
  const target = options.group ? `-${child.pid}` : String(child.pid);
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${target} 2>/dev/null; do sleep ${GUARD_POLL_SECONDS}; done`,
    `kill -0 ${target} 2>/dev/null || exit 0`,
    `kill -TERM ${target} 2>/dev/null`,
    `sleep ${GUARD_GRACE_SECONDS}`,
    `kill -KILL ${target} 2>/dev/null`,
  ].join("\n");
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

/**
 * The same for the children of this process that something else spawns (Miniflare's workerd,
 * under vitest): a watcher notes them by their command line (`pattern`, as `pgrep -f` reads it)
 * while this process lives, and stops those still running once it is gone.
 */
export function stopChildrenWithThisProcess(pattern: string) {
  const parent = process.pid;
  const script = [
    "seen=''",
    `while kill -0 ${parent} 2>/dev/null; do`,
    // (Not this watcher itself, whose own command line names the pattern.)
    `  seen=$(printf '%s\\n' $seen $(pgrep -P ${parent} -f "$1" | grep -vx $$) | sort -u)`,
    `  sleep ${GUARD_POLL_SECONDS}`,
    "done",
    '[ -n "$seen" ] || exit 0',
    "kill -TERM $seen 2>/dev/null",
    `sleep ${GUARD_GRACE_SECONDS}`,
    "kill -KILL $seen 2>/dev/null",
  ].join("\n");
  spawn("sh", ["-c", script, "guard", pattern], { detached: true, stdio: "ignore" }).unref();
}
