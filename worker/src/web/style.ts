/** The web app's one stylesheet, served at /app.css. */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #2563eb; --muted: #6b7280; --line: #8884; --ok: #15803d; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; text-decoration: none; color: inherit; }
header nav { display: flex; flex-wrap: wrap; gap: .75rem; flex: 1; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
code, pre, .mono { font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
pre { overflow-x: auto; padding: .75rem; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
td, th { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.table-wrap { overflow-x: auto; }
form.stack { display: grid; gap: .6rem; max-width: 36rem; }
form.inline { display: inline; }
label { display: grid; gap: .2rem; }
label.check { display: flex; gap: .5rem; align-items: center; }
input, select, textarea, button { font: inherit; padding: .4rem .55rem; border: 1px solid var(--line); border-radius: 6px; }
textarea { min-height: 6rem; }
button, .button { background: var(--accent); color: white; border: 0; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); }
button.danger { background: var(--bad); }
.muted { color: var(--muted); }
.flash { padding: .6rem .8rem; border-radius: 6px; margin: .5rem 0 1rem; border: 1px solid; }
.flash.error { color: var(--bad); border-color: var(--bad); }
.flash.notice { color: var(--ok); border-color: var(--ok); }
.status { font-weight: 600; }
.status-pending, .status-retrying { color: #b45309; }
.status-completed, .status-verified, .status-succeeded { color: var(--ok); }
.status-failed, .status-expired, .status-cancelled { color: var(--bad); }
.copy-row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret { padding: .5rem; border: 1px dashed var(--accent); border-radius: 6px; }
.filters { display: flex; gap: .5rem; flex-wrap: wrap; align-items: end; }
@media (max-width: 40rem) { td, th { padding: .3rem; } main { padding: .6rem; } }
`;

/** /app.js. Copy buttons: a small enhancement; without JavaScript the text is still there to select. */
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
