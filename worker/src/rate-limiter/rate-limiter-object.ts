import { DurableObject } from "cloudflare:workers";
import { consumeSlidingWindow, type RateLimitDecision } from "../domain/rate-limit.ts";
import type { Env } from "../env.ts";

/**
 * One instance per project, so the limit holds for the project as a whole. The log lives in
 * memory: an instance is only evicted after it has been idle for longer than the window, by
 * which time every entry would have expired anyway.
 */
export class RateLimiter extends DurableObject<Env> {
  #hits: number[] = [];

  async consume(limit: number): Promise<RateLimitDecision> {
    return consumeSlidingWindow(this.#hits, limit, Date.now());
  }
}
