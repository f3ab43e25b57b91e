import type { Team } from '../../../domain/club.js';
import type { ActionLine } from '../../../domain/matchPayload.js';
import { formatRate, RATE_NAMES, type StatRate } from '../../../domain/statRates.js';
import { type ClubMatchActionsDoc, type ClubMatchDoc, type ClubPlayerCopy, type PlayerStats, statsOf } from '../../../../projections/clubDashboard.js';
import type { SyncLogDoc } from '../../../../projections/syncStatus.js';
import { html, SafeHtml } from '../html.js';
import { OUTCOME_LABELS } from './connectPages.js';
import { current, dashboardPage, type Frame, notice, query, when } from './frame.js';
import { matchDecisionControls, settleSideForm } from './matchDecisions.js';

const teamNames = (teams: Team[]) => new Map(teams.map((team) => [team.teamId, team.name]));

function teamFilter(base: string, teams: Team[], teamId: string | undefined, extra: Record<string, string | undefined> = {}): SafeHtml {
  if (teams.length < 2) return html``;
  return html`<nav class="sub" aria-label="team">
<a href="${base}${query({ ...extra })}"${current(teamId === undefined)}>All teams</a>
${teams.map((team) => html`<a href="${base}${query({ ...extra, team: team.teamId })}"${current(team.teamId === teamId)}>${team.name}</a>`)}
</nav>`;
}

/** Links to the CSV (for spreadsheets) and JSON of what the page shows, with its filter. */
function downloads(table: 'players' | 'matches', what: string, filter: Record<string, string | undefined>): SafeHtml {
  const q = query(filter);
  return html`<p class="downloads">Download ${what}: <a href="/dashboard/export/${table}.csv${q}" download>CSV</a> · <a href="/dashboard/export/${table}.json${q}" download>JSON</a></p>`;
}

const score = (match: ClubMatchDoc) => `${match.home.score ?? '–'} : ${match.away.score ?? '–'}`;
const matchTitle = (match: ClubMatchDoc) => `${match.home.name ?? 'Home'} vs ${match.away.name ?? 'Away'}`;

export interface HomePage {
  clubId: string;
  teams: Team[];
  matches: number;
  players: number;
  latestSync: SyncLogDoc | null;
  info: string | null;
}

export function renderHomePage(frame: Frame, page: HomePage): string {
  const latest = page.latestSync;
  return dashboardPage(
    frame,
    'Dashboard',
    html`<h1>${frame.clubName}</h1>
${notice(page.info)}
<p>Your club id: <code class="id" data-testid="club-id">${page.clubId}</code></p>
<div class="cards">
<div class="card"><span class="big">${page.teams.length}</span><a href="/dashboard/teams">teams</a></div>
<div class="card"><span class="big">${page.matches}</span><a href="/dashboard/matches">matches synced</a></div>
<div class="card"><span class="big">${page.players}</span><a href="/dashboard/players">players</a></div>
<div class="card"><span class="big">${latest ? OUTCOME_LABELS[latest.outcome].split(':')[0] : '—'}</span><a href="/dashboard/connect/sync-status">last sync</a> ${latest ? when(latest.at) : ''}</div>
</div>
<h2>Getting started</h2>
<ol>
<li>Under <a href="/dashboard/teams">Teams</a>, add your teams; each gets a <code>teamId</code>.</li>
<li>Under <a href="/dashboard/connect">Connect</a>, generate an app key for your scoring app.</li>
<li>In the app, enter the club id, the team id and the app key. Matches it uploads appear under <a href="/dashboard/matches">Matches</a>, <a href="/dashboard/players">Players</a> and <a href="/dashboard/stats">Stats</a>; every attempt is listed under <a href="/dashboard/connect/sync-status">Connect → Sync status</a>.</li>
</ol>`,
  );
}

export function renderPlayersPage(frame: Frame, teams: Team[], teamId: string | undefined, players: PlayerStats[]): string {
  const names = teamNames(teams);
  const byTeam = [...new Set(players.map((p) => p.teamId))];
  return dashboardPage(
    frame,
    'Players',
    html`<h1>Players</h1>
${teamFilter('/dashboard/players', teams, teamId)}
<p class="muted">Merged across synced matches by the app's player id, else by number and name.</p>
${players.length === 0 ? html`<p class="muted">No players yet: they appear when a match is synced.</p>` : ''}
${byTeam.map(
  (id) => html`<h2>${names.get(id) ?? id}</h2>
<div class="scroll"><table class="players" data-team="${id}">
<thead><tr><th class="num">#</th><th>Name</th><th>Position</th><th class="num">Matches played</th><th>Player id</th></tr></thead>
<tbody>${players
    .filter((p) => p.teamId === id)
    .map((p) => html`<tr class="player"><td class="num">${p.number ?? ''}</td><td>${p.name ?? ''}</td><td>${p.position ?? ''}</td><td class="num">${p.matchesPlayed}</td><td><code>${p.playerId ?? ''}</code></td></tr>`)}</tbody>
</table></div>`,
)}`,
  );
}

const rateCell = (rates: StatRate[], name: string) => {
  const rate = rates.find((r) => r.name === name);
  return html`<td class="num">${rate ? formatRate(rate.value) : ''}</td>`;
};

export interface StatsPage {
  teams: Team[];
  filter: { teamId?: string | undefined; season?: string | undefined; category?: string | undefined; competition?: string | undefined };
  options: { seasons: string[]; categories: string[]; competitions: string[] };
  players: PlayerStats[];
}

function select(name: string, label: string, values: { value: string; label: string }[], chosen: string | undefined): SafeHtml {
  return html`<label>${label}
<select name="${name}"><option value="">All</option>${values.map((v) => html`<option value="${v.value}"${v.value === chosen ? html` selected` : ''}>${v.label}</option>`)}</select></label>`;
}

export function renderStatsPage(frame: Frame, page: StatsPage): string {
  const names = teamNames(page.teams);
  const opts = (values: string[]) => values.map((value) => ({ value, label: value }));
  const byTeam = [...new Set(page.players.map((p) => p.teamId))];
  const tableFor = (teamId: string) => {
    const players = page.players.filter((p) => p.teamId === teamId);
    const columns = [...new Set(players.flatMap((p) => Object.keys(p.totals)))].sort();
    const rates = RATE_NAMES.filter((name) => players.some((p) => p.rates.some((r) => r.name === name)));
    return html`<h2>${names.get(teamId) ?? teamId}</h2>
<div class="scroll"><table class="stats" data-team="${teamId}">
<thead><tr><th class="num">#</th><th>Player</th><th class="num">MP</th>${columns.map((c) => html`<th class="num">${c}</th>`)}${rates.map((r) => html`<th class="num">${r}</th>`)}</tr></thead>
<tbody>${players.map(
      (p) => html`<tr class="player-total"><td class="num">${p.number ?? ''}</td><td>${p.name ?? p.playerId ?? ''}</td><td class="num">${p.matchesPlayed}</td>${columns.map((c) => html`<td class="num">${p.totals[c] ?? ''}</td>`)}${rates.map((r) => rateCell(p.rates, r))}</tr>`,
    )}</tbody></table></div>
<h3>Per match</h3>
${players.map(
  (p) => html`<details class="lines"><summary>${p.name ?? p.playerId ?? p.key} <span class="muted">· ${p.matchesPlayed} ${p.matchesPlayed === 1 ? 'match' : 'matches'}</span></summary>
<div class="scroll"><table>
<thead><tr><th>Date</th><th>Match</th>${columns.map((c) => html`<th class="num">${c}</th>`)}${rates.map((r) => html`<th class="num">${r}</th>`)}</tr></thead>
<tbody>${p.lines.map(
    (line) => html`<tr><td>${line.startedAt?.slice(0, 10) ?? ''}</td><td><a href="/dashboard/matches/${line.matchId}">${line.opponent === null ? line.matchId : `vs ${line.opponent}`}</a></td>${columns.map((c) => html`<td class="num">${line.stats[c] ?? ''}</td>`)}${rates.map((r) => rateCell(line.rates, r))}</tr>`,
  )}</tbody></table></div></details>`,
)}`;
  };
  return dashboardPage(
    frame,
    'Stats',
    html`<h1>Stats</h1>
<form method="get" action="/dashboard/stats" class="filters">
${select('team', 'Team', page.teams.map((t) => ({ value: t.teamId, label: t.name })), page.filter.teamId)}
${select('season', 'Season', opts(page.options.seasons), page.filter.season)}
${select('category', 'Category', opts(page.options.categories), page.filter.category)}
${select('competition', 'Competition', opts(page.options.competitions), page.filter.competition)}
<button type="submit" class="quiet">Filter</button>
</form>
${downloads('players', 'players and season totals', { team: page.filter.teamId, season: page.filter.season, category: page.filter.category, competition: page.filter.competition })}
<p class="muted">Totals of every numeric stat the apps sent; percentages are computed from the totals where their inputs exist (hitting % = (kills − errors) / attempts; FG %, 3P %, FT % = made / attempted).</p>
${page.players.length === 0 ? html`<p class="muted">No stats for this selection.</p>` : byTeam.map(tableFor)}`,
  );
}

/** A match as the club sees it: with the admin's decisions applied (projections/clubDashboard.ts withDecisions). */
type DecidedMatch = ClubMatchDoc & { counted: boolean; excluded: boolean };

export interface MatchesPage {
  teams: Team[];
  teamId: string | undefined;
  matches: DecidedMatch[];
  matchUrl: (id: string) => string;
  info: string | null;
}

function standing(match: DecidedMatch): SafeHtml {
  if (match.side === null) return html`<span class="side-unknown">side unknown</span>`;
  if (match.excluded) return html`<span class="excluded">excluded</span>`;
  return html`<span class="muted">counted (${match.side === 'home' ? match.home.name ?? 'home' : match.away.name ?? 'away'})</span>`;
}

export function renderMatchesPage(frame: Frame, page: MatchesPage): string {
  const names = teamNames(page.teams);
  const unknown = page.matches.filter((m) => m.side === null).length;
  return dashboardPage(
    frame,
    'Matches',
    html`<h1>Matches</h1>
${notice(page.info)}
${teamFilter('/dashboard/matches', page.teams, page.teamId)}
${downloads('matches', 'the match list', { team: page.teamId })}
${unknown > 0 ? html`<p class="notice" role="status">${unknown} ${unknown === 1 ? 'match has' : 'matches have'} no known side for your team: ${unknown === 1 ? 'it counts' : 'they count'} for neither side in players and stats until you say which is yours.</p>` : ''}
${page.matches.length === 0
  ? html`<p class="muted">No synced match yet.</p>`
  : html`<div class="scroll"><table class="matches">
<thead><tr><th>Match</th><th>Date</th><th class="num">Score</th><th>Team</th><th>In stats</th><th>Season · category · competition</th><th class="num">Players</th><th class="num">Actions</th><th>Sync</th><th></th></tr></thead>
<tbody>${page.matches.map(
      (m) => html`<tr class="match" data-match-id="${m.matchId}" data-side="${m.side ?? 'unknown'}"${m.excluded ? new SafeHtml(' data-excluded="yes"') : ''}>
<td><a href="/dashboard/matches/${m.matchId}">${matchTitle(m)}</a></td>
<td>${m.startedAt?.slice(0, 10) ?? ''}</td>
<td class="num">${score(m)}${m.scoreUnit === 'sets' ? html` <span class="muted">sets</span>` : ''}</td>
<td>${names.get(m.teamId) ?? m.teamId}</td>
<td>${standing(m)}${m.side === null ? html`<br>${settleSideForm(frame.csrfToken, m, 'matches')}` : ''}</td>
<td>${[m.season, m.category, m.competition].filter((v) => v !== null).join(' · ')}</td>
<td class="num">${m.side === null ? '' : m.players.length}</td><td class="num">${m.actionCount}</td>
<td><span class="outcome-${m.outcome}">${m.outcome === 'synced' ? 'synced' : 'without valid key'}</span></td>
<td><a href="${page.matchUrl(m.matchId)}">public page</a></td></tr>`,
    )}</tbody></table></div>`}`,
  );
}

function playerLines(players: ClubPlayerCopy[]): SafeHtml {
  const lines = players.map((p) => ({ ...p, stats: statsOf(p.stats) }));
  const columns = [...new Set(lines.flatMap((p) => Object.keys(p.stats)))].sort();
  return html`<div class="scroll"><table class="match-players">
<thead><tr><th class="num">#</th><th>Player</th><th>Pos</th>${columns.map((c) => html`<th class="num">${c}</th>`)}</tr></thead>
<tbody>${lines.map((p) => html`<tr><td class="num">${p.number ?? ''}</td><td>${p.name ?? p.playerId ?? ''}</td><td>${p.position ?? ''}</td>${columns.map((c) => html`<td class="num">${p.stats[c] ?? ''}</td>`)}</tr>`)}</tbody></table></div>`;
}

export interface ClubMatchPage {
  teams: Team[];
  match: DecidedMatch;
  actions: ClubMatchActionsDoc | null;
  matchUrl: string;
  info: string | null;
}

export function renderMatchPage(frame: Frame, page: ClubMatchPage): string {
  const { match, actions } = page;
  const names = teamNames(page.teams);
  const side = (team: string | null) => (team === 'home' ? (match.home.name ?? 'Home') : team === 'away' ? (match.away.name ?? 'Away') : (team ?? ''));
  const playerNames = new Map(actions?.playerNames ?? []);
  const who = (a: ActionLine) => (a.playerId === null ? '' : (playerNames.get(a.playerId) ?? a.playerId));
  return dashboardPage(
    frame,
    matchTitle(match),
    html`<h1>${matchTitle(match)}</h1>
${notice(page.info)}
<p class="muted">${match.startedAt?.slice(0, 10) ?? ''} · team ${names.get(match.teamId) ?? match.teamId} · ${[match.season, match.category, match.competition].filter((v) => v !== null).join(' · ')} · synced ${when(match.syncedAt)} · <a href="${page.matchUrl}">public page</a></p>
<section class="scoreboard" aria-label="score"><span>${match.home.name ?? 'Home'}</span><span class="score">${score(match)}</span><span>${match.away.name ?? 'Away'}</span></section>
<section class="standing" aria-label="in the club's numbers">
<p>${match.side === null
  ? html`<strong class="side-unknown">Side unknown.</strong> The upload did not say which side is your team, and neither name matched your team or its aliases, so this match counts for neither side.`
  : match.excluded
    ? html`<strong class="excluded">Excluded</strong> from players and stats.`
    : html`Counts for your team as the <strong>${match.side}</strong> side (${side(match.side)}).`}</p>
${matchDecisionControls(frame.csrfToken, match, 'match')}
</section>
${match.lines.length > 0
  ? html`<div class="scroll"><table class="line-score"><thead><tr><th></th>${match.lines.map((l) => html`<th class="num">${l.label}</th>`)}</tr></thead>
<tbody><tr><th>${match.home.name ?? 'Home'}</th>${match.lines.map((l) => html`<td class="num">${l.home ?? '–'}</td>`)}</tr>
<tr><th>${match.away.name ?? 'Away'}</th>${match.lines.map((l) => html`<td class="num">${l.away ?? '–'}</td>`)}</tr></tbody></table></div>`
  : ''}
<h2>${match.side === null ? 'Players of both sides' : 'Players'} (${match.players.length})</h2>
${match.players.length === 0 ? html`<p class="muted">The payload had no players.</p>` : playerLines(match.players)}
<h2>Actions (${actions?.actions.length ?? 0})</h2>
${actions === null || actions.actions.length === 0
  ? html`<p class="muted">The payload had no play-by-play.</p>`
  : html`<div class="scroll"><table class="actions">
<thead><tr><th class="num">#</th><th>Phase</th><th>Clock</th><th>Team</th><th>Player</th><th>Action</th><th class="num">Score</th></tr></thead>
<tbody>${actions.actions.map(
      (a) => html`<tr class="action"><td class="num">${a.seq ?? ''}</td><td>${a.phase ?? ''}</td><td>${a.clock ?? ''}</td><td>${side(a.team)}</td><td>${who(a)}</td><td>${a.description}</td><td class="num">${a.score ?? ''}</td></tr>`,
    )}</tbody></table></div>`}`,
  );
}
