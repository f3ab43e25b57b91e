import type { Team } from '../../../domain/club.js';
import { clip } from '../../../domain/clippedText.js';
import { boxScore, type BoxCell, type BoxScore } from '../../../domain/statVocabulary.js';
import type { PlayerMatchLine } from '../../../../projections/clubDashboard.js';
import type { PlayerTotals } from '../../../../projections/clubSeasonTotals.js';
import type { CsvDialect } from '../csvDialect.js';
import { html, type SafeHtml } from '../../views/html.js';
import { DASHBOARD_ROWS, more, NAME_SHOWN, SHORT_SHOWN } from '../../views/renderCaps.js';
import { current, dashboardPage, downloads, type Frame, pager, query, scrollRegion, teamNames } from './frame.js';

/** Players, Stats and a player's page: season totals from the projection, in the public page's stat vocabulary. */

export function teamFilter(base: string, teams: Team[], teamId: string | undefined, extra: Record<string, string | undefined> = {}): SafeHtml {
  if (teams.length < 2) return html``;
  return html`<nav class="sub" aria-label="team">
<a href="${base}${query({ ...extra })}"${current(teamId === undefined)}>All teams</a>
${teams.map((team) => html`<a href="${base}${query({ ...extra, team: team.teamId })}"${current(team.teamId === teamId)}>${team.name}</a>`)}
</nav>`;
}

const playerHref = (player: Pick<PlayerTotals, 'teamId' | 'key'>) => `/dashboard/player${query({ team: player.teamId, key: player.key })}`;
const who = (player: Pick<PlayerTotals, 'number' | 'name' | 'playerId' | 'key'>) =>
  html`<span class="no">${clip(player.number ?? '', SHORT_SHOWN)}</span> ${clip(player.name ?? player.playerId ?? player.key, NAME_SHOWN)}`;
/** At most DASHBOARD_ROWS of a team's players, and a line saying how many more the downloads have. */
const bounded = <T>(rows: T[]) => (rows.length > DASHBOARD_ROWS ? rows.slice(0, DASHBOARD_ROWS) : rows);
const moreRows = (rows: unknown[]) =>
  rows.length > DASHBOARD_ROWS
    ? html`<p class="muted">${more(rows.length - DASHBOARD_ROWS, 'player', 'players')} not shown: the CSV and JSON downloads list them.</p>`
    : '';
const cell = (c: BoxCell) => html`<td class="num">${c.text}</td>`;
const columnHeads = (box: BoxScore) => box.columns.map((c) => html`<th scope="col" class="num"><abbr title="${c.title}">${c.abbr}</abbr></th>`);
const byTeam = (players: PlayerTotals[]) => [...new Set(players.map((p) => p.teamId))];

export function renderPlayersPage(frame: Frame, teams: Team[], teamId: string | undefined, players: PlayerTotals[]): string {
  const names = teamNames(teams);
  return dashboardPage(
    frame,
    'Players',
    html`<h1>Players</h1>
${teamFilter('/dashboard/players', teams, teamId)}
<p class="muted">Your team's players in the matches that count (side known, not excluded), merged by the app's player id, else by number and name.</p>
${players.length === 0 ? html`<p class="muted">No players yet: they appear when a match is synced and its side is known.</p>` : ''}
${byTeam(players).map((id) => {
  const team = players.filter((p) => p.teamId === id);
  return html`<h2>${names.get(id) ?? id}</h2>
${scrollRegion(
  `players of ${names.get(id) ?? id}`,
  html`<table class="players" data-team="${id}">
<thead><tr><th scope="col">Player</th><th scope="col">Position</th>\
<th scope="col" class="num"><abbr title="Matches played">MP</abbr></th><th scope="col">Player id</th></tr></thead>
<tbody>${bounded(team).map(
    (p) =>
      html`<tr class="player"><th scope="row"><a href="${playerHref(p)}">${who(p)}</a></th><td>${clip(p.position ?? '', SHORT_SHOWN)}</td>\
<td class="num">${p.matchesPlayed}</td><td><code>${clip(p.playerId ?? '', NAME_SHOWN)}</code></td></tr>`,
  )}</tbody>
</table>`,
)}${moreRows(team)}`;
})}`,
  );
}

export interface StatsPage {
  teams: Team[];
  filter: { teamId?: string | undefined; season?: string | undefined; category?: string | undefined; competition?: string | undefined };
  options: { seasons: string[]; categories: string[]; competitions: string[] };
  /** The CSV dialect the browser's language suggests: its link comes first. */
  csvDialect: CsvDialect;
  players: PlayerTotals[];
}

function select(name: string, label: string, values: { value: string; label: string }[], chosen: string | undefined): SafeHtml {
  const options = values.map((v) => html`<option value="${v.value}"${v.value === chosen ? html` selected` : ''}>${v.label}</option>`);
  return html`<label>${label}
<select name="${name}"><option value="">All</option>${options}</select></label>`;
}

/** One team's season totals: the sport's known columns in standard order, unknown stats after, a totals row. */
function teamStats(teamName: string, players: PlayerTotals[]): SafeHtml {
  const box = boxScore(
    players[0]?.sport ?? null,
    players.map((p) => p.totals),
    { rows: DASHBOARD_ROWS },
  );
  return html`<h2>${teamName}</h2>
${scrollRegion(
  `season totals of ${teamName}`,
  html`<table class="stats" data-team="${players[0]?.teamId ?? ''}">
<thead><tr><th scope="col">Player</th><th scope="col" class="num"><abbr title="Matches played">MP</abbr></th>${columnHeads(box)}</tr></thead>
<tbody>${bounded(players).map(
    (p, i) => html`<tr class="player-total"><th scope="row"><a href="${playerHref(p)}">${who(p)}</a></th>\
<td class="num">${p.matchesPlayed}</td>${(box.rows[i] ?? []).map(cell)}</tr>`,
  )}</tbody>
<tfoot><tr><th scope="row">Team</th><td></td>${box.totals.map(cell)}</tr></tfoot>
</table>`,
)}${moreRows(players)}${box.moreStats > 0 ? html`<p class="muted">${more(box.moreStats, 'stat', 'stats')} not shown.</p>` : ''}`;
}

export function renderStatsPage(frame: Frame, page: StatsPage): string {
  const names = teamNames(page.teams);
  const opts = (values: string[]) => values.map((value) => ({ value, label: value }));
  return dashboardPage(
    frame,
    'Stats',
    html`<h1>Stats</h1>
<form method="get" action="/dashboard/stats" class="filters">
${select(
  'team',
  'Team',
  page.teams.map((t) => ({ value: t.teamId, label: t.name })),
  page.filter.teamId,
)}
${select('season', 'Season', opts(page.options.seasons), page.filter.season)}
${select('category', 'Category', opts(page.options.categories), page.filter.category)}
${select('competition', 'Competition', opts(page.options.competitions), page.filter.competition)}
<button type="submit" class="quiet">Filter</button>
</form>
${downloads(
  'players',
  'players and season totals',
  {
    team: page.filter.teamId,
    season: page.filter.season,
    category: page.filter.category,
    competition: page.filter.competition,
  },
  page.csvDialect,
)}
<p class="muted">Totals over the matches that count. \
Percentages are worked out from the totals where their inputs exist \
(e.g. hitting % = (kills − attack errors − attacks blocked) / total attacks, as NCAA and DataVolley count it: a blocked attack is lost); \
a blank means no match gave that stat. \
Hover an abbreviation for its name; a player's name opens their match by match lines.</p>
${
  page.players.length === 0
    ? html`<p class="muted">No stats for this selection.</p>`
    : byTeam(page.players).map((id) =>
        teamStats(
          names.get(id) ?? id,
          page.players.filter((p) => p.teamId === id),
        ),
      )
}`,
  );
}

export interface PlayerPage {
  teamName: string;
  player: PlayerTotals;
  lines: PlayerMatchLine[];
  page: number;
  pages: number;
  pageLink: (page: number) => string;
}

export function renderPlayerPage(frame: Frame, page: PlayerPage): string {
  const { player } = page;
  const box = boxScore(player.sport, [player.totals, ...page.lines.map((line) => line.stats)]);
  const [season, ...lines] = box.rows;
  const against = (line: PlayerMatchLine) => (line.opponent === null ? line.matchId : `vs ${clip(line.opponent, NAME_SHOWN)}`);
  return dashboardPage(
    frame,
    clip(player.name ?? player.key, NAME_SHOWN),
    html`<h1>${who(player)}</h1>
<p class="muted">${page.teamName}${player.position ? ` · ${clip(player.position, SHORT_SHOWN)}` : ''} · \
${player.matchesPlayed} ${player.matchesPlayed === 1 ? 'match' : 'matches'} counted · \
<a href="/dashboard/stats${query({ team: player.teamId })}">all players' stats</a></p>
${scrollRegion(
  `match by match lines of ${clip(player.name ?? player.key, NAME_SHOWN)}`,
  html`<table class="player-lines">
<thead><tr><th scope="col">Match</th>${columnHeads(box)}</tr></thead>
<tbody>${page.lines.map(
    (line, i) =>
      html`<tr><th scope="row"><a href="/dashboard/matches/${line.matchId}">${line.startedAt?.slice(0, 10) ?? ''} ${against(line)}</a></th>\
${(lines[i] ?? []).map(cell)}</tr>`,
  )}</tbody>
<tfoot><tr><th scope="row">All matches</th>${(season ?? []).map(cell)}</tr></tfoot>
</table>`,
)}
${pager(page.page, page.pages, page.pageLink, 'Newer matches', 'Older matches')}`,
  );
}
