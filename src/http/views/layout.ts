import { html, SafeHtml } from './html.js';

/** Colours as variables, light and dark; every pair passes WCAG AA (4.5:1) for text. */
const THEME = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #111827; --muted: #4b5563; --line: #d1d5db; --panel: #f3f4f6;
  --accent: #0f766e; --link: #0b5cad; --home: #0f766e; --away: #b4490b; --live: #b91c1c; --on-badge: #ffffff; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0f172a; --fg: #e5e7eb; --muted: #a3acb9; --line: #334155; --panel: #1e293b;
    --accent: #2dd4bf; --link: #8cc8ff; --home: #2dd4bf; --away: #fdba74; --live: #fca5a5; --on-badge: #0f172a; }
}
`;

const STYLE = new SafeHtml(`${THEME}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--link); }
header.site { padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header.site a { color: inherit; text-decoration: none; font-weight: 700; }
main { max-width: 70rem; margin: 0 auto; padding: .75rem 1rem 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid var(--line); }
th { font-weight: 600; }
td.num, th.num { text-align: right; }
.scroll { overflow-x: auto; max-width: 100%; }
dl.details { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
dl.details dt { color: var(--muted); }
dl.details dd { margin: 0; }
summary { cursor: pointer; font-weight: 600; }
.notice { border-left: 4px solid var(--accent); padding: .4rem .8rem; background: var(--panel); }
nav.pages { display: flex; gap: 1rem; margin: 1rem 0; flex-wrap: wrap; }
code { overflow-wrap: anywhere; }
`);

export interface LayoutOptions {
  /** Extra tags for <head> (sharing cards). */
  head?: SafeHtml;
  /** Same-origin scripts to load (deferred); the CSP allows nothing else. */
  scripts?: string[];
  /** Without the site header (the embeddable widget). */
  bare?: boolean;
}

/** The page frame. Scripts only from our own origin; every value escaped by `html`. */
export function layout(title: string, body: SafeHtml, extraStyle: SafeHtml | string = '', options: LayoutOptions = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title} · matchlog</title>
${options.head ?? ''}
<style>${STYLE}${extraStyle}</style>
${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body>
${options.bare ? '' : html`<header class="site"><a href="/">matchlog</a></header>`}
<main${options.bare ? html` class="bare"` : ''}>
${body}
</main>
</body>
</html>
`.value;
}

/** No script may run on our pages; styles only from this inline sheet. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The match pages: our own scripts (live updates, local times, sorting) and their fetches, nothing inline. */
export const LIVE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The embeddable widget: as the match page, but any site may frame it. */
export const EMBED_CSP = LIVE_PAGE_CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');
