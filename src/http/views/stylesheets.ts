import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * Each kind of page's one stylesheet: the site's sheet, then the kind's own, joined in this order
 * (later rules win, as they did in one inline sheet). The CSS files sit in ./styles, copied into
 * dist by the build.
 */
const SHEETS = {
  site: ['site'],
  match: ['site', 'match'],
  embed: ['site', 'match', 'embed'],
  history: ['site', 'history'],
  dashboard: ['site', 'dashboard'],
  club: ['site', 'match', 'club'],
} as const;

export type StylesheetName = keyof typeof SHEETS;

interface Stylesheet {
  name: StylesheetName;
  css: string;
  /** Its address, fingerprinted by its content: a release that changes the CSS changes the address, so browsers may keep it a year. */
  href: string;
}

const source = (file: string) => readFileSync(new URL(`./styles/${file}.css`, import.meta.url), 'utf8');

function stylesheet(name: StylesheetName): Stylesheet {
  const css = SHEETS[name].map(source).join('');
  const fingerprint = createHash('sha256').update(css).digest('hex').slice(0, 16);
  return { name, css, href: `/assets/${name}.${fingerprint}.css` };
}

export const STYLESHEETS: Record<StylesheetName, Stylesheet> = {
  site: stylesheet('site'),
  match: stylesheet('match'),
  embed: stylesheet('embed'),
  history: stylesheet('history'),
  dashboard: stylesheet('dashboard'),
  club: stylesheet('club'),
};
