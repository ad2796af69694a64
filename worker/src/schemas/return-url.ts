/**
 * Why `text` cannot be a session's `return_url`, or null when it can: an absolute URL the proof
 * page may send a user's browser to. `https` only, but for `http` when running locally.
 */
export function returnUrlProblem(text: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "return_url must be an absolute URL, such as https://example.com/keyproof/done";
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:"))
    return allowHttp
      ? "return_url must be an http or https URL"
      : "return_url must be an https URL (http only when running locally)";
  if (url.username || url.password) return "return_url may not carry a user name or password";
  return null;
}

/** The parameters the proof page adds to `return_url`. */
export const RETURN_PARAMETERS = {
  sessionId: "keyproof_session_id",
  status: "keyproof_status",
  attestation: "keyproof_attestation",
} as const;

/** `returnUrl` with the result added to its own query, which is kept as it was. */
export function continueUrl(
  returnUrl: string,
  result: { sessionId: string; status: string; attestation: string | null },
): string {
  const url = new URL(returnUrl);
  url.searchParams.set(RETURN_PARAMETERS.sessionId, result.sessionId);
  url.searchParams.set(RETURN_PARAMETERS.status, result.status);
  if (result.attestation) url.searchParams.set(RETURN_PARAMETERS.attestation, result.attestation);
  return url.toString();
}
