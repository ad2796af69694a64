/**
 * The Worker's bindings. Those in wrangler.toml are generated into
 * worker/worker-configuration.d.ts by `npm run types` (and `npm test` checks the file is up to
 * date); only the secrets, which wrangler.toml never names, are declared here.
 */
declare global {
  namespace Cloudflare {
    interface Env {
      /** Shared with the bridge; BRIDGE_SECRET_PREVIOUS is still accepted during a rotation. */
      BRIDGE_SECRET?: string;
      BRIDGE_SECRET_PREVIOUS?: string;
      /** Code forges for keys_from, merged over GitHub, GitLab and Codeberg: {"name": "url" | null}. */
      FORGES?: string;
      /** The JWK set that signs attestations: the first key signs, every key is published. */
      ATTESTATION_KEYS?: string;
      /** Development only: every call reaching the D1 primary waits this long (bench/geo.ts). */
      SIMULATED_D1_PRIMARY_MS?: string;
      /** Development only: a primary takes this long a query, one at a time (bench/history.ts). */
      SIMULATED_D1_QUERY_MS?: string;
      /** Development only: the seconds in a retention day, to see erasure happen. */
      RETENTION_DAY_SECONDS?: string;
      /** Development only: seconds after its close a session's object retires (15 minutes). */
      RETIREMENT_GRACE_SECONDS?: string;
      /**
       * Development only: "on" counts the billed units every request causes, read at
       * `/__dev/meters` (bench/cost.ts). Off otherwise: the counting wraps every storage call.
       */
      METERING?: string;
    }
  }
}

export type Env = Cloudflare.Env;
