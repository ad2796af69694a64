/** The web app's small scripts; every page works without them but passkeys (CSP allows only these). */

import { CLOSE } from "../domain/proof-status.ts";

/**
 * Every signed-in page's script. Copy buttons: `data-copy` holds the text. List filters
 * (`form[data-filters]`) apply as soon as a choice changes, and a status that the chosen kind of
 * session cannot have is hidden (`data-kinds` on its option) before the page reloads.
 */
export const APP_SCRIPT = `
document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-filters]");
  if (!form) return;
  if (event.target.name === "kind") {
    const kind = event.target.value;
    for (const option of form.querySelectorAll("option[data-kinds]")) {
      option.hidden = kind !== "" && !option.dataset.kinds.split(" ").includes(kind);
      if (option.hidden && option.selected) form.elements.status.value = "";
    }
  }
  form.requestSubmit();
});
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  navigator.clipboard.writeText(button.dataset.copy).then(() => {
    const label = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = label), 1500);
  });
});
`;

/**
 * The proof page's live status: a WebSocket to the session's Durable Object, which sends the
 * status (headline, detail, keys) on every change and closes once the session is over. A page
 * that gets no channel (all taken, a network that blocks WebSockets) asks for the status every
 * few seconds until it has one again; without JavaScript the page refreshes itself instead.
 */
export const PROOF_SCRIPT = `
(() => {
  const root = document.querySelector("[data-live]");
  if (!root) return;
  const POLL_MS = 3000;
  const url = new URL(root.dataset.live, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const statusUrl = new URL(root.dataset.status, location.href);
  let final = root.dataset.final === "true";
  /** The continue step, for the browser that watched the proof; empty for any other. */
  const continueUrl = root.dataset.continue;
  /** Once the user is done: the Continue link, followed by itself after a moment. */
  let following = false;
  const offerContinue = (continues) => {
    const box = document.getElementById("proof-continue");
    if (!continues || !continueUrl || !box) return;
    box.hidden = false;
    if (following) return;
    following = true;
    setTimeout(() => location.assign(continueUrl), 2000);
  };
  const render = (status) => {
    root.dataset.state = status.state;
    final = status.final;
    offerContinue(status.continues);
    document.getElementById("proof-headline").textContent = status.headline;
    document.getElementById("proof-detail").textContent =
      status.detail || (status.continues && !continueUrl ? "${CLOSE}" : "");
    document.getElementById("proof-keys").replaceChildren(
      ...status.keys.map((key) => {
        const item = document.createElement("li");
        const code = document.createElement("code");
        code.textContent = key;
        item.append(code);
        return item;
      }),
    );
  };
  let live = false;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    while (!live && !final) {
      try {
        const response = await fetch(statusUrl, { cache: "no-store" });
        if (response.ok) render(await response.json());
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    polling = false;
  };
  offerContinue(!document.getElementById("proof-continue").hidden);
  let delay = 1000;
  const connect = () => {
    if (final || !("WebSocket" in window)) return poll();
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => (live = true));
    socket.addEventListener("message", (event) => {
      delay = 1000;
      const status = JSON.parse(event.data);
      if (status) render(status);
    });
    socket.addEventListener("close", () => {
      const wasLive = live;
      live = false;
      if (final) return;
      if (!wasLive) poll();
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  };
  connect();
})();
`;

/**
 * Passkeys. A form marked `data-passkey` ("create" or "get") first posts itself (its CSRF token
 * and fields) to `data-options` for WebAuthn's options, hands them to the browser's
 * `navigator.credentials`, then sends the answer as the form's `response` field. The forms are
 * hidden until this script shows them; a browser without WebAuthn's JSON forms is told so.
 */
export const PASSKEY_SCRIPT = `
(() => {
  const supported =
    "PublicKeyCredential" in window && "parseRequestOptionsFromJSON" in PublicKeyCredential;
  const problem = (error) =>
    error.name === "NotAllowedError"
      ? "No passkey was used: cancelled, timed out, or none is saved for this site."
      : error.name === "InvalidStateError"
        ? "This passkey is already registered."
        : error.message;
  for (const form of document.querySelectorAll("form[data-passkey]")) {
    const status = form.querySelector("[data-passkey-status]");
    form.hidden = false;
    if (!supported) {
      for (const button of form.querySelectorAll("button")) button.disabled = true;
      status.textContent = "This browser cannot use passkeys here.";
      continue;
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      status.textContent = "";
      try {
        const body = new FormData(form);
        const asked = await fetch(form.dataset.options, { method: "POST", body });
        if (!asked.ok) throw new Error("keyproof could not start: reload the page and try again.");
        const options = await asked.json();
        const credential =
          form.dataset.passkey === "create"
            ? await navigator.credentials.create({
                publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
              })
            : await navigator.credentials.get({
                publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
              });
        form.elements.response.value = JSON.stringify(credential.toJSON());
        form.submit();
      } catch (error) {
        status.textContent = problem(error);
      }
    });
  }
})();
`;
