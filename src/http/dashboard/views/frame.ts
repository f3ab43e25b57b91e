import type { Team } from '../../../domain/club.js';
import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';

/** Styles of the club dashboard, on top of the site's (src/http/pages/layout.ts). */
const DASHBOARD_STYLE = new SafeHtml(`
nav.dash { display: flex; gap: .3rem 1.1rem; flex-wrap: wrap; align-items: center; padding: .4rem 0 .6rem; border-bottom: 1px solid var(--line); }
nav.dash a { color: inherit; text-decoration: none; padding: .15rem 0; }
nav.dash a[aria-current="page"] { font-weight: 700; border-bottom: 2px solid var(--accent); }
nav.dash .club { font-weight: 700; margin-right: .6rem; }
nav.dash form { margin-left: auto; }
nav.sub { display: flex; gap: 1rem; margin: .8rem 0 0; font-size: .95rem; }
nav.sub a[aria-current="page"] { font-weight: 700; color: inherit; text-decoration: none; }
form.stack { display: grid; gap: .8rem; max-width: 28rem; margin: 1rem 0; }
label { display: grid; gap: .2rem; font-weight: 600; }
label small, .hint { font-weight: 400; color: var(--muted); }
input[type="text"], input[type="email"], input[type="password"], select { font: inherit; padding: .4rem .55rem; border: 1px solid var(--line); border-radius: .3rem; background: transparent; color: inherit; }
button { font: inherit; padding: .35rem .9rem; border-radius: .3rem; border: 1px solid var(--accent); background: var(--accent); color: var(--on-badge); cursor: pointer; }
button.quiet { background: transparent; color: var(--accent); }
button.danger { background: transparent; border-color: var(--live); color: var(--live); }
form.inline { display: inline-flex; gap: .4rem; align-items: center; margin: 0; flex-wrap: wrap; }
.notice { padding: .6rem .9rem; border-left: 4px solid var(--accent); background: rgba(15, 118, 110, .09); margin: 1rem 0; }
.notice.error { border-left-color: #b91c1c; background: rgba(185, 28, 28, .08); }
.secret { font: 1rem ui-monospace, SFMono-Regular, Menlo, monospace; width: 100%; padding: .55rem; border: 2px solid var(--accent); border-radius: .3rem; background: transparent; color: inherit; }
code.id { font-size: .95rem; padding: .05rem .3rem; background: rgba(127, 127, 127, .15); border-radius: .2rem; }
.outcome-synced { color: #15803d; font-weight: 600; }
.outcome-unauthenticated { color: #b45309; font-weight: 600; }
.outcome-skipped { color: #b91c1c; font-weight: 600; }
.filters { display: flex; gap: .4rem 1rem; flex-wrap: wrap; align-items: end; margin: 1rem 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .8rem; margin: 1rem 0; }
.card { border: 1px solid var(--line); border-radius: .4rem; padding: .7rem .9rem; }
.card .big { font-size: 1.6rem; font-weight: 700; display: block; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
pre.example { overflow-x: auto; padding: .7rem; border: 1px solid var(--line); border-radius: .3rem; font-size: .85rem; }
details.lines { margin: .3rem 0; }
.side-unknown { color: #92400e; font-weight: 600; }
.excluded { color: #991b1b; font-weight: 600; }
@media (prefers-color-scheme: dark) { .side-unknown { color: #fbbf24; } .excluded { color: #fca5a5; } .outcome-synced { color: #4ade80; } .outcome-unauthenticated { color: #fbbf24; } .outcome-skipped { color: #fca5a5; } }
form.settle { margin: .3rem 0; }
.settle-card { border: 1px solid var(--line); border-left: 4px solid #b45309; border-radius: .3rem; padding: .5rem .8rem; margin: .6rem 0; }
.settle-card form.settle button { margin: .2rem .3rem .2rem 0; }
.scroll > table > * > tr > :first-child { min-width: 8rem; max-width: 10rem; }
table.sync-status td:nth-child(2) { min-width: 9rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.no { display: inline-block; min-width: 1.6em; color: var(--muted); font-variant-numeric: tabular-nums; }
abbr[title] { text-decoration: none; cursor: help; }
tfoot th, tfoot td { font-weight: 700; border-top: 2px solid var(--line); }
textarea { font: inherit; padding: .3rem .5rem; border: 1px solid var(--line); border-radius: .3rem; background: transparent; color: inherit; min-width: 12rem; }
/* Phones: the first column (match, player, team) stays in view; a shadow shows there is more to scroll. */
.scroll { background: linear-gradient(to right, Canvas 30%, transparent) left / 2rem 100% no-repeat local, linear-gradient(to left, Canvas 30%, transparent) right / 2rem 100% no-repeat local, radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, .28), transparent) right / .9rem 100% no-repeat scroll; }
.scroll > table > * > tr > :first-child { position: sticky; left: 0; background: Canvas; z-index: 1; }
/* The scrolling box holds its visually hidden labels: positioned against the page, they made the page scroll sideways. */
.scroll { position: relative; }
.card.wide { grid-column: 1 / -1; }
.card p { margin: .3rem 0 0; }
p.scoreboard { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .8rem; font-size: 1.15rem; font-weight: 600; margin: .6rem 0; }
p.scoreboard .team { overflow-wrap: anywhere; }
p.scoreboard .score { font-variant-numeric: tabular-nums; white-space: nowrap; }
label.remember { display: flex; gap: .4rem; align-items: baseline; font-weight: 400; flex-basis: 100%; }
code.prefix, .nowrap, table.line-score th, table.matches td.date, time { white-space: nowrap; }
`);

export type DashboardSection = 'home' | 'teams' | 'connect' | 'players' | 'stats' | 'matches';

export interface Frame {
  clubName: string;
  csrfToken: string;
  section: DashboardSection;
}

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
  return layout(`${title} · ${frame.clubName}`, html`${nav}\n${content}`, DASHBOARD_STYLE);
}

/** A page outside a session (sign-up, login, errors). */
export const publicDashboardPage = (title: string, content: SafeHtml) => layout(title, content, DASHBOARD_STYLE);

export function notice(text: string | null, kind: 'info' | 'error' = 'info'): SafeHtml | string {
  if (text === null) return '';
  return html`<p class="notice${kind === 'error' ? ' error' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

/** `aria-current` for the link of the current filter. */
export const current = (yes: boolean) => (yes ? new SafeHtml(' aria-current="page"') : '');

/** ISO time shown in UTC, to the minute. */
export const when = (iso: string | null) => (iso === null ? '' : html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`);

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
export const scrollRegion = (label: string, table: SafeHtml) => html`<div class="scroll" tabindex="0" role="region" aria-label="${label} (scrolls sideways)">${table}</div>`;

/** Links to the CSV (for spreadsheets) and JSON of what a page shows, with its filter. */
export function downloads(table: 'players' | 'matches', what: string, filter: Record<string, string | undefined>): SafeHtml {
  const q = query(filter);
  return html`<p class="downloads">Download ${what}: <a href="/dashboard/export/${table}.csv${q}" download>CSV</a> · <a href="/dashboard/export/${table}.json${q}" download>JSON</a></p>`;
}

/** "← newer · page n of m · older →" for a list shown a page at a time. */
export function pager(page: number, pages: number, link: (page: number) => string, newer = 'Newer', older = 'Older'): SafeHtml | string {
  if (pages <= 1) return '';
  return html`<nav class="pager" aria-label="pages">${page > 1 ? html`<a href="${link(page - 1)}">← ${newer}</a>` : ''} <span>Page ${page} of ${pages}</span> ${page < pages ? html`<a href="${link(page + 1)}">${older} →</a>` : ''}</nav>`;
}
