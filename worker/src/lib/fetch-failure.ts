/**
 * Why an outgoing fetch (a webhook delivery, a forge's key list) got no answer, as the rest of a
 * sentence about `host`. The platform names a refused or dropped connection, a DNS failure and a
 * reset alike ("Network connection lost"), so only a passed deadline is called slow.
 */
export function fetchFailure(error: unknown, deadline: AbortSignal, timeoutSeconds: number) {
  if (deadline.aborted) return `did not answer within ${timeoutSeconds} s`;
  const reason = error instanceof Error ? error.message.replace(/\.$/, "") : String(error);
  // The runtime's "internal error; reference = …" names nothing a reader can act on.
  if (INTERNAL_REFERENCE.test(reason)) return "could not be reached";
  return `could not be reached (${reason.slice(0, 120)})`;
}

const INTERNAL_REFERENCE = /internal error|reference\s*=/i;
