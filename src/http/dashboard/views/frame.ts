import type { Team } from '../../../domain/club.js';
import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import type { CsvDialect } from '../csvDialect.js';

export type DashboardSection = 'home' | 'teams' | 'connect' | 'players' | 'stats' | 'matches';

export interface Frame {
  clubName: string;
  csrfToken: string;
  section: DashboardSection;
}

/** Local times and Copy (src/http/public/assets/dashboard.js); the pages work without it. */
const DASHBOARD_SCRIPT = '/assets/dashboard.js';

const SECTIONS: { section: DashboardSection; href: string; label: string }[] = [
  { section: 'home', href: '/dashboard', label: 'Dashboard' },
  { section: 'teams', href: '/dashboard/teams', label: 'Teams' },
  { section: 'connect', href: '/dashboard/connect', label: 'Connect' },
  { section: 'players', href: '/dashboard/players', label: 'Players' },
  { section: 'stats', href: '/dashboard/stats', label: 'Stats' },
  { section: 'matches', href: '/dashboard/matches', label: 'Matches' },
];

/** Team names by teamId. */
export const teamNames = (teams: Team[]) => new Map(teams.map((team) => [team.teamId, team.name]));

export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

/** A dashboard page: the club's navigation, then the content. */
export function dashboardPage(frame: Frame, title: string, content: SafeHtml): string {
  const nav = html`<nav class="dash" aria-label="dashboard">
<span class="club">${frame.clubName}</span>
${SECTIONS.map((s) => html`<a href="${s.href}"${s.section === frame.section ? new SafeHtml(' aria-current="page"') : ''}>${s.label}</a>`)}
<form method="post" action="/dashboard/logout" class="inline">${csrfField(frame.csrfToken)}<button type="submit" class="quiet">Log out</button></form>
</nav>`;
  return layout(`${title} · ${frame.clubName}`, html`${nav}\n${content}`, 'dashboard', { scripts: [DASHBOARD_SCRIPT] });
}

/** A page outside a session (sign-up, login, errors). */
export const publicDashboardPage = (title: string, content: SafeHtml) => layout(title, content, 'dashboard');

export function notice(text: string | null, kind: 'info' | 'error' = 'info'): SafeHtml | string {
  if (text === null) return '';
  return html`<p class="notice${kind === 'error' ? ' error' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

/** `aria-current` for the link of the current filter. */
export const current = (yes: boolean) => (yes ? new SafeHtml(' aria-current="page"') : '');

/**
 * A time to the minute: in UTC, named, as the page is sent; the dashboard's script rewrites it
 * (`data-local`) in the admin's locale and zone, the zone named, as the public pages do.
 */
export function when(iso: string | null): SafeHtml | string {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  if (iso === null || Number.isNaN(ms)) return iso ?? '';
  const utc = new Date(ms).toISOString();
  return html`<time datetime="${utc}" data-local="datetime">${utc.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A query string from the non-empty values. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A wide table in a box that scrolls sideways on phones: focusable so it scrolls from the
 * keyboard, named for screen readers; the first column stays in view, a shadow cues the scroll.
 */
export const scrollRegion = (label: string, table: SafeHtml) =>
  html`<div class="scroll" tabindex="0" role="region" aria-label="${label} (scrolls sideways)">${table}</div>`;

const CSV_LINKS: Record<CsvDialect, string> = {
  comma: 'CSV',
  semicolon: 'CSV for Excel with ; and decimal commas (German, French, Spanish…)',
};

/**
 * Links to the CSV (for spreadsheets) in both dialects, the one the browser's language suggests
 * first, and the JSON of what a page shows, with its filter.
 */
export function downloads(table: 'players' | 'matches', what: string, filter: Record<string, string | undefined>, suggested: CsvDialect): SafeHtml {
  const dialects: CsvDialect[] = suggested === 'semicolon' ? ['semicolon', 'comma'] : ['comma', 'semicolon'];
  const csv = dialects.map(
    (dialect) =>
      html`<a href="/dashboard/export/${table}.csv${query({ ...filter, dialect: dialect === 'comma' ? undefined : dialect })}" \
data-dialect="${dialect}" download>${CSV_LINKS[dialect]}</a> · `,
  );
  return html`<p class="downloads">Download ${what}: ${csv}<a href="/dashboard/export/${table}.json${query(filter)}" download>JSON</a></p>`;
}

/** "← newer · page n of m · older →" for a list shown a page at a time. */
export function pager(page: number, pages: number, link: (page: number) => string, newer = 'Newer', older = 'Older'): SafeHtml | string {
  if (pages <= 1) return '';
  const newerLink = page > 1 ? html`<a href="${link(page - 1)}">← ${newer}</a>` : '';
  const olderLink = page < pages ? html`<a href="${link(page + 1)}">${older} →</a>` : '';
  return html`<nav class="pager" aria-label="pages">${newerLink} <span>Page ${page} of ${pages}</span> ${olderLink}</nav>`;
}
