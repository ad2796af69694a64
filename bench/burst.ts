/**
 * `node bench/burst.ts [proofs]`: D1 write transactions per proof when proofs come one at a time
 * and when they come at once, counted by the Worker itself against
 * `wrangler dev`: each proof is an API create and a signature proof (the proof without SSH, so a
 * burst is as concurrent as the machine allows). From the statements those transactions run per
 * proof and D1's one-query-at-a-time limit, the proofs per second one index shard absorbs.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MANY_USERS_VARS, machine, scriptArgs, table, userAddress, writeSection } from "./lib.ts";
import { proofRig } from "./rig.ts";

/**
 * D1 processes one query at a time per database; at about 1 ms a query (D1's own worked example
 * on its limits page, developers.cloudflare.com/d1/platform/limits/), one database runs about
 * 1,000 a second. Each statement of a write transaction is one query: a transaction of 50
 * statements is not 1 ms.
 */
const D1_QUERIES_PER_SECOND = 1_000;

export async function runBurstBench(proofs = 100, write = true) {
  const rig = await proofRig(MANY_USERS_VARS);
  const { api, settled, meters } = rig;
  try {
    await api("GET", "/auth/info/");
    /** `count` proofs: sessions created, then each proved by a signature; all at once or in turn. */
    const run = async (count: number, together: boolean) => {
      await settled();
      await meters(true);
      const create = () => api("POST", "/ssh/collect/sessions/", {});
      const sessions = together
        ? await Promise.all(Array.from({ length: count }, create))
        : await sequence(count, create);
      const signed = sessions.map((session) => ({
        url: session.signature_url as string,
        body: execFileSync("ssh-keygen", ["-Y", "sign", "-n", "keyproof", "-f", rig.keyPath], {
          input: session.signature_challenge as string,
          encoding: "utf8",
          stdio: ["pipe", "pipe", "ignore"],
        }),
      }));
      const send = async ({ url, body }: { url: string; body: string }, i: number) => {
        const response = await fetch(url, {
          method: "POST",
          body,
          headers: { "content-type": "text/plain", "cf-connecting-ip": userAddress(i) },
        });
        const answer = await response.text();
        if (!response.ok) throw new Error(`signature proof: ${response.status} ${answer}`);
      };
      if (together) await Promise.all(signed.map(send));
      else for (const [i, one] of signed.entries()) await send(one, i);
      const counts = await settled();
      const statements = Object.values(counts.d1WriteStatementsBy).reduce((a, b) => a + b, 0);
      return {
        perProof: counts.d1WriteTransactions / count,
        statementsPerProof: statements / count,
        counts,
      };
    };
    const alone = await run(Math.min(20, proofs), false);
    const burst = await run(proofs, true);
    const ceiling = (statements: number) => Math.floor(D1_QUERIES_PER_SECOND / statements);
    const rows = [alone, burst].map((run, i) => [
      i === 0 ? "one at a time (20)" : `${proofs} at once`,
      run.perProof.toFixed(2),
      run.statementsPerProof.toFixed(2),
      ceiling(run.statementsPerProof),
    ]);
    const markdown = `## 10. Bursts: D1 write transactions per proof

\`node bench/burst.ts ${proofs}\` — against \`wrangler dev\`, counted by the Worker itself (\`/__dev/meters\`): each proof is an API create (its push waits, for read-your-writes) and a signature proof (its push follows by the object's alarm), first one at a time, then ${proofs} at once. Every push goes through the index writer (\`worker/src/session-object/index-writer.ts\`), which writes the pushes that arrive while a transaction runs in the next one. The ceiling counts each statement of a write transaction as one query of D1's one-query-at-a-time limit, at ~1 ms a query ([D1 limits](https://developers.cloudflare.com/d1/platform/limits/)); reads come on top. Until this round it divided by transactions, as if a transaction of 25–100 statements took 1 ms, and said ≈ 8,000 proofs/s: §15 measures a shard's capacity across shards.

${table(["Proofs", "D1 write transactions per proof", "statements per proof", "proofs/s one shard absorbs (writes)"], rows)}

Machine: ${machine()}.`;
    if (write) writeSection("burst", markdown);
    return { alone, burst, markdown };
  } finally {
    await rig.stop();
  }
}

async function sequence<T>(count: number, make: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(await make());
  return out;
}

const args = scriptArgs(import.meta.url);
if (args) {
  const [proofs] = args;
  const { markdown } = await runBurstBench(proofs ?? 100);
  console.log(markdown);
  writeFileSync(join(tmpdir(), "keyproof-burst.md"), markdown);
}
