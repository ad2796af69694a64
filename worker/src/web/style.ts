/** The dark theme's colours: the device's choice, unless the browser chose light (kp_theme). */
const DARK =
  "color-scheme: dark; --accent: #60a5fa; --muted: #9ca3af; --ok: #4ade80; --bad: #f87171; --warn: #fbbf24; --surface: #161b22;";

/** The web app's one stylesheet, served at /app.css. */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #2563eb; --button: #2563eb; --danger: #b91c1c; --muted: #6b7280; --line: #8884; --ok: #15803d; --bad: #b91c1c; --warn: #b45309; --surface: #f6f8fa; --radius: 6px; }
:root[data-theme=light] { color-scheme: light; }
[hidden] { display: none !important; }
@media (prefers-color-scheme: dark) { :root:not([data-theme=light]) { ${DARK} } }
:root[data-theme=dark] { ${DARK} }
footer.site { max-width: 64rem; margin: 2rem auto 0; padding: .75rem 1rem 1.5rem; border-top: 1px solid var(--line); font-size: .9rem; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: Canvas; color: CanvasText; }
header.site { display: flex; align-items: baseline; gap: .25rem 1.25rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; text-decoration: none; color: inherit; }
header .header-project { color: var(--muted); max-width: 14rem; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header nav.links { display: flex; gap: 1rem; flex: 1; white-space: nowrap; }
nav.section-nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0 0 1.5rem; }
header nav a[aria-current=page] { font-weight: 600; color: inherit; text-decoration: none; }
header .account { display: flex; gap: .75rem; align-items: baseline; min-width: 0; }
header.site > .account span, header.site > .account a { max-width: 18rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.menu { display: none; margin-left: auto; position: relative; align-self: center; }
.menu summary { list-style: none; padding: .25rem .7rem; border: 1px solid var(--line); border-radius: var(--radius); }
.menu summary::-webkit-details-marker { display: none; }
.menu nav { position: absolute; right: 0; top: calc(100% + .4rem); z-index: 10; display: grid; gap: .7rem; width: min(16rem, calc(100vw - 2rem)); padding: .9rem 1rem; background: Canvas; border: 1px solid var(--line); border-radius: var(--radius); box-shadow: 0 6px 24px #0003; }
.menu .account { flex-direction: column; align-items: start; gap: .4rem; border-top: 1px solid var(--line); padding-top: .7rem; }
@media (max-width: 60rem) { header.site { align-items: center; } header nav.links, header.site > .account { display: none; } .menu { display: block; } header .header-project { max-width: 40vw; } }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
code, pre, .mono { font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
pre { overflow-x: auto; padding: .75rem; border: 1px solid var(--line); border-radius: 6px; }
.breakable { overflow-wrap: anywhere; }
.delivery-id { white-space: nowrap; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
td, th { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
tbody tr:hover { background: var(--surface); }
.table-wrap { overflow-x: auto; }
@media (max-width: 40rem) {
  .table-wrap table.stacked, .table-wrap table.stacked tbody, .table-wrap table.stacked tr, .table-wrap table.stacked td { display: block; width: 100%; }
  .table-wrap table.stacked thead { display: none; }
  .table-wrap table.stacked tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
  .table-wrap table.stacked td { border: 0; padding: .15rem 0; }
  .table-wrap table.stacked td[data-label] { position: relative; padding-left: 6.5rem; min-height: 1.5rem; }
  .table-wrap table.stacked td[data-label]::before { content: attr(data-label); position: absolute; left: 0; width: 6rem; color: var(--muted); font-size: .85rem; line-height: 1.75; }
}
form.stack { display: grid; gap: .6rem; max-width: 36rem; }
form.inline { display: inline; }
label { display: grid; gap: .2rem; min-width: 0; }
label.check { display: flex; gap: .5rem; align-items: baseline; }
label.check > input { flex: none; }
details.confirm { display: inline-block; vertical-align: top; }
details.confirm > summary { list-style: none; }
details.confirm > summary::-webkit-details-marker { display: none; }
details.confirm[open] > form { margin-top: .5rem; padding: .6rem; border: 1px solid var(--line); border-radius: var(--radius); background: Canvas; }
input, select, textarea, button, .button { font: inherit; padding: .4rem .75rem; border: 1px solid var(--line); border-radius: var(--radius); max-width: 100%; }
input, select, textarea { background: Field; color: FieldText; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
textarea { min-height: 6rem; }
button, .button { background: var(--button); color: #fff; border: 0; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); }
button.link { background: none; border: 0; padding: 0; color: var(--accent); text-decoration: underline; }
button:hover, .button:hover { filter: brightness(1.1); }
button.danger, .button.danger { background: var(--danger); color: #fff; }
.muted { color: var(--muted); }
.flash { padding: .6rem .8rem; border-radius: 6px; margin: .5rem 0 1rem; border: 1px solid; }
.mode { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; margin: 0 0 1rem; padding: .35rem .6rem; border: 1px solid var(--line); border-radius: var(--radius); font-size: .9rem; }
.mode-test { border: 2px dashed var(--warn); color: var(--warn); background: var(--surface); }
.test-mark { color: var(--warn); }
.flash.error { color: var(--bad); border-color: var(--bad); }
.flash.notice { color: var(--ok); border-color: var(--ok); }
.field-error { color: var(--bad); font-size: .9rem; }
.hint, .rule { color: var(--muted); font-size: .92rem; }
.title-row { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .25rem 1rem; margin-bottom: .5rem; }
.title-row h1 { margin: .5rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.empty { border: 1px dashed var(--line); border-radius: var(--radius); padding: .25rem 1rem; margin: 1rem 0; }
.status { font-weight: 600; }
.status-pending, .status-retrying { color: var(--warn); }
.status-completed, .status-verified, .status-succeeded { color: var(--ok); }
.status-failed, .status-expired, .status-cancelled, .status-invalid { color: var(--bad); }
.status-valid { color: var(--ok); }
.key-proof { font-size: .9rem; color: var(--muted); margin: .15rem 0 .35rem; }
.warning { color: var(--bad); }
.copy-row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.copy-row > :first-child { min-width: 0; }
.secret { padding: .5rem; border: 1px dashed var(--accent); border-radius: 6px; }
.filters { display: flex; gap: .5rem; flex-wrap: wrap; align-items: end; margin: .5rem 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr)); gap: 1rem; margin: 1rem 0; }
.card { border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem 1rem; background: var(--surface); min-width: 0; }
.card h2 { font-size: 1rem; margin: 0 0 .5rem; }
.chart { display: block; width: 100%; height: auto; }
.chart .bar { fill: var(--accent); }
.chart .track { fill: var(--line); }
.chart .axis { stroke: var(--line); }
.chart .tick { fill: var(--muted); font: 11px system-ui, sans-serif; }
.chart-numbers { margin: .5rem 0 0; }
main.wide { max-width: 90rem; }
.reference { display: grid; grid-template-columns: 16rem minmax(0, 1fr); gap: 2rem; }
.reference-body { min-width: 0; }
.toc { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; display: grid; gap: .15rem; font-size: .85rem; padding: .5rem 0; }
.toc strong { margin-top: .75rem; }
.toc a { text-decoration: none; }
.operation { border-top: 1px solid var(--line); padding-top: .5rem; margin-top: 1.5rem; }
.operation h3 { font-size: 1.05rem; margin: .5rem 0; }
.operation h4 { font-size: .95rem; margin: 1rem 0 .25rem; }
.method { font: 600 12px ui-monospace, monospace; padding: .1rem .35rem; border-radius: 4px; color: white; background: #4b5563; }
/* The same in both themes: white on each is at least 4.5:1 (WCAG AA), whatever is around it. */
.method-get { background: #0f766e; } .method-post { background: #1d4ed8; } .method-patch, .method-put { background: #b45309; } .method-delete { background: #b91c1c; }
@media (min-width: 40rem) { table.fields td:first-child { white-space: nowrap; } }
.type { color: var(--muted); }
.required { margin-left: .4rem; font-size: .75rem; color: var(--bad); }
.rules { display: block; font-size: .8rem; color: var(--muted); }
.badge { margin-left: .5rem; font-size: .75rem; padding: .05rem .4rem; border: 1px solid var(--ok); color: var(--ok); border-radius: 999px; }
ul.errors { font-size: .9rem; }
details > summary { cursor: pointer; }
.proof { max-width: 42rem; margin: 0 auto; }
.proof h1 { font-size: 1.6rem; }
.proof h2 { font-size: 1.05rem; margin-top: 1.75rem; }
.banner { white-space: pre-wrap; padding: .75rem 1rem; border-radius: var(--radius); background: var(--surface); }
.proof-status { border: 1px solid var(--line); border-left: 6px solid var(--accent); border-radius: var(--radius); padding: 1rem 1.1rem; margin: 1.25rem 0; background: var(--surface); }
[data-state=connected] .proof-status, [data-state=confirming] .proof-status, [data-state=again] .proof-status { border-left-color: var(--warn); }
[data-state=done] .proof-status { border-left-color: var(--ok); }
[data-state=failed] .proof-status { border-left-color: var(--bad); }
.proof-headline { font-size: 1.2rem; font-weight: 600; margin: 0; }
.proof-continue { margin: .9rem 0 0; }
.proof-continue[hidden] { display: none; }
[data-state=waiting] .proof-headline::before, [data-state=connected] .proof-headline::before { content: ""; display: inline-block; width: .6rem; height: .6rem; margin-right: .5rem; border-radius: 50%; background: currentColor; animation: pulse 1.4s ease-in-out infinite; vertical-align: middle; }
@keyframes pulse { 50% { opacity: .25; } }
@media (prefers-reduced-motion: reduce) { .proof-headline::before { animation: none; } }
.proof-detail { margin: .3rem 0 0; color: var(--muted); }
.proof-detail:empty, .proof-keys:empty { display: none; }
.proof-keys { list-style: none; padding: 0; margin: .6rem 0 0; display: grid; gap: .25rem; }
[data-state=done] .steps, [data-state=failed] .steps { display: none; }
.command { display: flex; gap: .5rem; align-items: flex-start; }
.command code { flex: 1; min-width: 0; padding: .6rem .75rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--surface); white-space: pre-wrap; overflow-wrap: anywhere; }
.fingerprints { list-style: none; padding: 0; margin: .25rem 0 0; }
.key-type { display: inline-block; min-width: 4.5rem; font-weight: 600; font-size: .85rem; }
@media (max-width: 60rem) { .reference { grid-template-columns: minmax(0, 1fr); } .toc { position: static; max-height: none; } }
@media (max-width: 40rem) { td, th { padding: .3rem; } main { padding: .6rem; } }
`;
