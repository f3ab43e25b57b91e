import { html, SafeHtml } from './html.js';

const STYLE = new SafeHtml(`
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --accent: #0f766e; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; }
header.site { padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
header.site a { color: inherit; text-decoration: none; font-weight: 700; }
main { max-width: 70rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
h1 { font-size: 1.6rem; margin: .5rem 0; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
.muted { color: var(--muted); }
.scoreboard { display: flex; align-items: center; gap: 1.5rem; font-size: 1.3rem; margin: 1rem 0; flex-wrap: wrap; }
.scoreboard .score { font-size: 2.4rem; font-weight: 700; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid var(--line); }
th { font-weight: 600; }
td.num, th.num { text-align: right; }
.scroll { overflow-x: auto; }
dl.details { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
dl.details dt { color: var(--muted); }
dl.details dd { margin: 0; }
summary { cursor: pointer; font-weight: 600; }
.notice { border-left: 4px solid var(--accent); padding: .4rem .8rem; background: color-mix(in srgb, var(--accent) 10%, transparent); }
nav.pages { display: flex; gap: 1rem; margin: 1rem 0; }
`);

/** The page frame. No scripts anywhere: the Content-Security-Policy forbids them. */
export function layout(title: string, body: SafeHtml, extraStyle: SafeHtml | string = ''): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title} · matchlog</title>
<style>${STYLE}${extraStyle}</style>
</head>
<body>
<header class="site"><a href="/">matchlog</a></header>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** No script may run on our pages; styles only from this inline sheet. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
