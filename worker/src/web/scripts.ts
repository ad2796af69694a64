/** The web app's two small scripts; every page works without them (CSP allows only these). */

/** Copy buttons: `data-copy` holds the text. */
export const COPY_SCRIPT = `
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
 * status (headline, detail, keys) on every change. Reconnects with backoff until the session is
 * done; without JavaScript the page refreshes itself instead.
 */
export const PROOF_SCRIPT = `
(() => {
  const root = document.querySelector("[data-live]");
  if (!root || !("WebSocket" in window)) return;
  const url = new URL(root.dataset.live, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const finished = () => root.dataset.state === "done" || root.dataset.state === "failed";
  const render = (status) => {
    root.dataset.state = status.state;
    document.getElementById("proof-headline").textContent = status.headline;
    document.getElementById("proof-detail").textContent = status.detail || "";
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
  let delay = 1000;
  const connect = () => {
    const socket = new WebSocket(url);
    socket.addEventListener("message", (event) => {
      delay = 1000;
      const status = JSON.parse(event.data);
      if (status) render(status);
    });
    socket.addEventListener("close", () => {
      if (finished()) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  };
  connect();
})();
`;
