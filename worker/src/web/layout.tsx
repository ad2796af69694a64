import type { Child } from "hono/jsx";

const STYLE = `
:root { color-scheme: light dark; --accent: #2563eb; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }
code, pre { font: 14px ui-monospace, monospace; }
pre { overflow-x: auto; padding: .75rem; border: 1px solid #8884; border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #8884; vertical-align: top; }
.method { font-weight: 600; text-transform: uppercase; }
a { color: var(--accent); }
`;

export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · keyproof</title>
        <style>{STYLE}</style>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
