import { html, type SafeHtml } from './html.js';
import { STYLESHEETS, type StylesheetName } from './stylesheets.js';

export interface LayoutOptions {
  /** Extra tags for <head> (sharing cards). */
  head?: SafeHtml;
  /** Same-origin scripts to load (deferred); the CSP allows nothing else. */
  scripts?: string[];
  /** Without the site header (the embeddable widget). */
  bare?: boolean;
}

/** The page frame. Its stylesheet and scripts only from our own origin; every value escaped by `html`. */
export function layout(title: string, body: SafeHtml, stylesheet: StylesheetName = 'site', options: LayoutOptions = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title} · matchlog</title>
${options.head ?? ''}
<link rel="stylesheet" href="${STYLESHEETS[stylesheet].href}">
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

/** No script may run on our pages; styles only from our own stylesheets (no inline style, no style attribute). */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The club dashboard: its own script (local times, Copy), nothing inline, no fetches. */
export const DASHBOARD_CSP = PAGE_CSP.replace("default-src 'none';", "default-src 'none'; script-src 'self';");

/** The match pages: our own scripts (live updates, local times, sorting) and their fetches, nothing inline. */
export const LIVE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; " +
  "style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The embeddable widget: as the match page, but any site may frame it. */
export const EMBED_CSP = LIVE_PAGE_CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');
