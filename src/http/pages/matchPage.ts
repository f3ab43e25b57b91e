import type { ActionLine, MatchSummary, PlayerLine, ScoreLine } from '../../domain/matchPayload.js';
import { html, type SafeHtml } from './html.js';
import { layout } from './layout.js';

export interface MatchPageView {
  id: string;
  createdAt: string;
  updatedAt: string;
  protected: boolean;
  summary: MatchSummary;
  /** The current version: how many versions there have been. */
  versions?: number;
  /** An old version, from the log: which revision, and the newest one. */
  asOf?: { revision: number; latestRevision: number };
}

export const teamName = (name: string | null, fallback: string) => name ?? fallback;

export function matchTitle(id: string, s: MatchSummary): string {
  return s.home.name || s.away.name ? `${teamName(s.home.name, 'Home')} vs ${teamName(s.away.name, 'Away')}` : `Match ${id}`;
}

const historyUrl = (id: string) => `/match/${id}/history`;

function scoreboard(s: MatchSummary): SafeHtml {
  const score = (n: number | null) => (n === null ? '–' : n);
  return html`<section class="scoreboard" aria-label="score">
  <span class="team home">${teamName(s.home.name, 'Home')}</span>
  <span class="score" data-testid="score">${score(s.home.score)} : ${score(s.away.score)}</span>
  <span class="team away">${teamName(s.away.name, 'Away')}</span>
  ${s.scoreUnit === 'sets' ? html`<span class="muted">sets</span>` : ''}
</section>`;
}

function lineScore(s: MatchSummary): SafeHtml | string {
  if (s.lines.length === 0) return '';
  const cell = (line: ScoreLine, side: 'home' | 'away') => html`<td class="num">${line[side] ?? '–'}</td>`;
  return html`<h2>Score by ${s.lines[0]?.label.startsWith('Set') ? 'set' : 'period'}</h2>
<div class="scroll"><table class="line-score">
<thead><tr><th>Team</th>${s.lines.map((l) => html`<th class="num">${l.label}</th>`)}</tr></thead>
<tbody>
<tr><th>${teamName(s.home.name, 'Home')}</th>${s.lines.map((l) => cell(l, 'home'))}</tr>
<tr><th>${teamName(s.away.name, 'Away')}</th>${s.lines.map((l) => cell(l, 'away'))}</tr>
</tbody></table></div>`;
}

/** "attackErrors" → "attack errors", "attack.kills" → "attack kills". */
const statLabel = (key: string) => key.replace(/[._]/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

function playerTable(title: string, players: PlayerLine[]): SafeHtml {
  const columns = [...new Set(players.flatMap((p) => Object.keys(p.stats)))].sort();
  return html`<h3>${title}</h3>
<div class="scroll"><table class="player-stats">
<thead><tr><th class="num">#</th><th>Player</th><th>Pos</th>${columns.map((c) => html`<th class="num" title="${c}">${statLabel(c)}</th>`)}</tr></thead>
<tbody>${players.map(
    (p) => html`<tr><td class="num">${p.number ?? ''}</td><td>${p.name ?? p.playerId ?? ''}</td><td>${p.position ?? ''}</td>${columns.map(
      (c) => html`<td class="num">${p.stats[c] ?? 0}</td>`,
    )}</tr>`,
  )}</tbody></table></div>`;
}

function playerStats(s: MatchSummary): SafeHtml | string {
  if (s.players.length === 0) return '';
  const sides = [
    { key: 'home', title: teamName(s.home.name, 'Home') },
    { key: 'away', title: teamName(s.away.name, 'Away') },
  ];
  const known = new Set(sides.map((side) => side.key));
  const groups = sides
    .map((side) => ({ title: side.title, players: s.players.filter((p) => p.team === side.key) }))
    .concat([{ title: 'Players', players: s.players.filter((p) => p.team === null || !known.has(p.team)) }])
    .filter((g) => g.players.length > 0);
  return html`<h2>Player stats</h2>${groups.map((g) => playerTable(g.title, g.players))}`;
}

function playByPlay(s: MatchSummary): SafeHtml | string {
  if (s.actions.length === 0) return '';
  const names = new Map(s.players.filter((p) => p.playerId !== null).map((p) => [p.playerId, p.name ?? p.playerId]));
  const side = (team: string | null) =>
    team === 'home' ? teamName(s.home.name, 'Home') : team === 'away' ? teamName(s.away.name, 'Away') : (team ?? '');
  const columns: { title: string; numeric?: boolean; cell: (a: ActionLine) => string | number | null }[] = [
    { title: '#', numeric: true, cell: (a) => a.seq },
    { title: 'Phase', cell: (a) => a.phase },
    { title: 'Clock', cell: (a) => a.clock },
    { title: 'Team', cell: (a) => (a.team === null ? null : side(a.team)) },
    { title: 'Player', cell: (a) => (a.playerId === null ? null : (names.get(a.playerId) ?? a.playerId)) },
    { title: 'Action', cell: (a) => a.description },
    { title: 'Score', numeric: true, cell: (a) => a.score },
  ];
  // Columns no action fills (a volleyball app sends no clock) are left out.
  const shown = columns.filter((c) => s.actions.some((a) => c.cell(a) !== null));
  const cls = (c: (typeof columns)[number]) => (c.numeric ? 'num' : null);
  return html`<h2>Play-by-play</h2>
<details class="play-by-play"><summary>${s.actions.length} actions</summary>
<div class="scroll"><table>
<thead><tr>${shown.map((c) => html`<th class="${cls(c)}">${c.title}</th>`)}</tr></thead>
<tbody>${s.actions.map((a) => html`<tr>${shown.map((c) => html`<td class="${cls(c)}">${c.cell(a) ?? ''}</td>`)}</tr>`)}</tbody></table></div></details>`;
}

function provenance(view: MatchPageView): SafeHtml {
  const created = html`created <time datetime="${view.createdAt}">${view.createdAt}</time>`;
  const protection = view.protected ? ' · write-protected' : '';
  if (view.asOf) {
    return html`<p class="notice" role="note">This is the match as it was at revision ${view.asOf.revision}, stored <time datetime="${view.updatedAt}">${view.updatedAt}</time>.
<a href="/match/${view.id}">See the current version</a> or <a href="${historyUrl(view.id)}">its whole history</a>.</p>
<p class="muted">Match <code>${view.id}</code> · ${created}${protection}</p>`;
  }
  const updates = (view.versions ?? 1) - 1;
  const updated =
    updates > 0
      ? html` · <a href="${historyUrl(view.id)}">updated ${updates} ${updates === 1 ? 'time' : 'times'}</a>; last at <time datetime="${view.updatedAt}">${view.updatedAt}</time>`
      : html` · <a href="${historyUrl(view.id)}">history</a>`;
  return html`<p class="muted">Match <code>${view.id}</code> · ${created}${updated}${protection}</p>`;
}

export function renderMatchPage(view: MatchPageView): string {
  const s = view.summary;
  const title = matchTitle(view.id, s);
  const query = view.asOf ? `?revision=${view.asOf.revision}` : '';
  return layout(
    view.asOf ? `${title} (revision ${view.asOf.revision})` : title,
    html`<h1>${title}</h1>
${provenance(view)}
${scoreboard(s)}
${s.details.length > 0 ? html`<dl class="details">${s.details.map((d) => html`<dt>${d.label}</dt><dd>${d.value}</dd>`)}</dl>` : ''}
${lineScore(s)}
${playerStats(s)}
${playByPlay(s)}
<p class="muted"><a href="/api/matches/${view.id}${query}">This match as JSON</a></p>`,
  );
}

export function renderNotFoundPage(id: string): string {
  return layout('Match not found', html`<h1>Match not found</h1><p>There is no match with id <code>${id}</code>.</p>`);
}
