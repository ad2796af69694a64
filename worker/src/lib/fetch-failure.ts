/**
 * Why an outgoing fetch (a webhook delivery, a forge's key list) got no answer, as the rest of a
 * sentence about `host`. The platform names a refused or dropped connection, a DNS failure and a
 * reset alike ("Network connection lost"), so only a passed deadline is called slow.
 */
export function fetchFailure(error: unknown, deadline: AbortSignal, timeoutSeconds: number) {
  if (deadline.aborted) return `did not answer within ${timeoutSeconds} s`;
  const reason = error instanceof Error ? error.message.replace(/\.$/, "") : String(error);
  return `could not be reached (${reason.slice(0, 120)})`;
}
