/**
 * A proof's whole life, as an integrator pays for it (`runLifecycle`): live, its object's
 * retirement and its erasure at retention, each phase counted by the Worker on a shortened clock,
 * and priced (bench/prices.ts). bench/cost.ts runs it and writes its tables.
 */
import { SCHEDULED_PATH } from "../scripts/local-dev.ts";
import { RETIREMENT_MAY_WAIT } from "../worker/src/domain/retirement.ts";
import type { Count, Meters } from "../worker/src/lib/meter.ts";
import { CONNECTION_LIFETIME_MS } from "../worker/src/protocol/messages.ts";
import { cpuSeconds, pidsMatching, sleep } from "./lib.ts";
import { type LifeUnits, lifecycleBill } from "./prices.ts";
import { COLUMNS, proofRig } from "./rig.ts";

/**
 * Minutes an object keeps a proof at most: it retires at its expiry's alarm, an hour after its
 * create by default, when that comes within 45 minutes of its 15-minute grace (RETIRE_AFTER_MS;
 * session-ending.ts); and days D1 keeps it by default.
 */
export const OBJECT_KEPT_MINUTES = 60;
export const RETENTION_DAYS = 30;
/**
 * The lifecycle's clock: a retirement grace of 20 s and a session's timeout of 80 s (production's
 * 15 minutes and default hour, scaled down by 45), and a retention "day" long enough that 30 of
 * them end after every object may still hold its session (the grace and the alarms a retirement
 * may wait for, and a connection's lifetime: `mayBeHeldForMs`, 260 s here): the sweep then erases
 * from D1 alone, no object asked, as production's does after 30 days. (A 3 s day, 90 s, erased
 * every session through its object: 2 object requests a session where production makes none.)
 */
export interface LifeClock {
  graceSeconds: number;
  timeoutSeconds: number;
  daySeconds: number;
}
export const LIFE_CLOCK: LifeClock = {
  graceSeconds: 20,
  timeoutSeconds: 80,
  daySeconds: erasedAfterObjectsMaySeconds(20),
};
/** The shortest retention day whose 30 days end after an object with this grace may hold its session. */
function erasedAfterObjectsMaySeconds(graceSeconds: number) {
  const heldMs = graceSeconds * 1000 * (1 + RETIREMENT_MAY_WAIT) + CONNECTION_LIFETIME_MS;
  return Math.ceil(heldMs / 1000 / RETENTION_DAYS) + 1;
}

/**
 * The shortest clock the API allows (a timeout is at least 60 s; a day a whole number of seconds),
 * erasure still after retirement but through the objects: for a smoke run, whose figures are not
 * published.
 */
export const SMOKE_LIFE_CLOCK: LifeClock = { graceSeconds: 2, timeoutSeconds: 60, daySeconds: 3 };

/**
 * A proof over its whole life, as an integrator pays for it: created, proved over SSH, read once,
 * its webhook delivered; its object retired (its storage deleted) when the grace is over; erased
 * from its shard by the cron's sweep when its project's retention is; and the bytes it kept in
 * between. Each phase is counted by the Worker for `proofs` proofs at once and divided; the cron's
 * own cost when it has nothing to do is measured first and taken off the erasure. The bytes a
 * session keeps in D1 are `d1BytesPerSession` when given (measured over many more sessions than
 * the lifecycle makes: a 4 KiB page's growth over ten is mostly rounding).
 */
export async function runLifecycle(
  proofs: number,
  d1BytesPerSession?: number,
  clock: LifeClock = LIFE_CLOCK,
) {
  const rig = await proofRig({
    RETIREMENT_GRACE_SECONDS: String(clock.graceSeconds),
    RETENTION_DAY_SECONDS: String(clock.daySeconds),
  });
  const { worker, receiver, api, ssh, settled, meters } = rig;
  const workerd = pidsMatching(`workerd serve.*127.0.0.1:${worker.port}`);
  const cpuMs = () => workerd.reduce((sum, pid) => sum + cpuSeconds(pid), 0) * 1000;
  /** The units of `action` (counts and workerd's CPU), everything it caused included. */
  const phase = async (action: () => Promise<unknown>) => {
    await settled();
    await meters(true);
    const cpu = cpuMs();
    await action();
    const counts = await settled();
    return { counts, cpuMs: cpuMs() - cpu };
  };
  const cron = () => fetch(`${worker.url}${SCHEDULED_PATH}`).then((response) => response.text());
  try {
    await api("GET", "/auth/info/");
    await api("POST", "/webhooks/", { url: `${receiver.url}/ok/life`, events: ["status_changed"] });
    // The cron's own cost, measured before there is anything of this run's to erase: taken off
    // the erasure below. (Run later, it would itself erase the run's earliest sessions.)
    const idle = await phase(cron);
    const ids: string[] = [];
    const bytesBefore = await rig.shardBytes();
    const live = await phase(async () => {
      for (let i = 0; i < proofs; i++) {
        const proof = await api("POST", "/ssh/collect/sessions/", {
          timeout: clock.timeoutSeconds,
        });
        ssh(proof.connection_identifier);
        await api("GET", `/ssh/collect/sessions/${proof.id}/`);
        ids.push(proof.id);
      }
    });
    const closedAt = Date.now();
    const lastExpiry = closedAt + clock.timeoutSeconds * 1000;
    const d1Bytes = d1BytesPerSession ?? ((await rig.shardBytes()) - bytesBefore) / proofs;
    const objectBytes =
      (
        await Promise.all(
          ids.map(
            async (id) =>
              (
                (await (await fetch(`${worker.url}/__dev/sessions/${id}/storage`)).json()) as {
                  bytes: number;
                }
              ).bytes,
          ),
        )
      ).reduce((a, b) => a + b, 0) / proofs;
    // Each object's alarm retires it, its storage deleted: the expiry's, set at create.
    const retirement = await phase(() => sleep(lastExpiry + 3000 - Date.now()));
    // Past the retention (30 three-second days): the cron's sweep erases them from the shard,
    // every one of them in the run measured.
    await sleep(closedAt + RETENTION_DAYS * clock.daySeconds * 1000 + 2000 - Date.now());
    const listed = async () =>
      ((await api("GET", "/ssh/collect/sessions/?limit=1")) as { total: number }).total;
    const kept = await listed();
    if (kept !== proofs) throw new Error(`${proofs - kept} sessions were erased before the sweep`);
    const erasure = await phase(cron);
    const left = await listed();
    if (left !== 0) throw new Error(`${left} sessions were not erased`);
    const per = (key: Count, ...counts: Meters[]) =>
      counts.reduce((sum, one) => sum + one[key], 0) / proofs;
    const erased = (key: Count) => (erasure.counts[key] - idle.counts[key]) / proofs;
    const unit = (key: Count) =>
      per(key, live.counts, retirement.counts) + Math.max(0, erased(key));
    const units: LifeUnits = {
      workerInvocations: unit("workerInvocations"),
      durableObjectRequests: unit("durableObjectRequests"),
      durableObjectRowsRead: unit("durableObjectRowsRead"),
      durableObjectRowsWritten: unit("durableObjectRowsWritten"),
      alarmsSet: unit("alarmsSet"),
      d1RowsRead: unit("d1RowsRead"),
      d1RowsWritten: unit("d1RowsWritten"),
      queueMessages: unit("queueMessages"),
      logLines: unit("logLines"),
      durableObjectActiveMs: unit("durableObjectActiveMs"),
      cpuMs: (live.cpuMs + retirement.cpuMs + Math.max(0, erasure.cpuMs - idle.cpuMs)) / proofs,
      d1Bytes,
      retentionDays: RETENTION_DAYS,
      objectBytes,
      objectKeptMinutes: OBJECT_KEPT_MINUTES,
    };
    const phases = [
      ["live: create, SSH proof, GET, webhook", live.counts],
      ["retirement", retirement.counts],
      ["erasure (the cron's sweep, its idle run taken off)", erasure.counts],
    ] as const;
    const phaseRows = phases.map(([name, counts]) => {
      const of = (key: Count) => (name.startsWith("erasure") ? erased(key) : per(key, counts));
      return [name, ...LIFE_COLUMNS.map(([key]) => round(of(key)))];
    });
    return { units, phaseRows, ...lifecycleBill(units) };
  } finally {
    await rig.stop();
  }
}

export const round = (value: number) => String(Math.round(value * 100) / 100);

export const LIFE_COLUMNS: [Count, string][] = [
  ...COLUMNS.filter(([key]) => key !== "d1WriteTransactions"),
  ["durableObjectActiveMs", "DO active ms"],
];
