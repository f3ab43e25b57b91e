import type { Team } from '../../../domain/club.js';
import { clip } from '../../../domain/clippedText.js';
import type { ActionLine } from '../../../domain/matchPayload.js';
import { clubPlayers } from '../../../domain/clubSync.js';
import { boxScore } from '../../../domain/statVocabulary.js';
import { type ClubMatchDoc, type ClubMatchFromLog, type ClubPlayerCopy, statsOf } from '../../../../projections/clubDashboard.js';
import { countedPlayers } from '../../../../projections/clubSeasonTotals.js';
import type { SyncLogDoc } from '../../../../projections/syncStatus.js';
import { html, SafeHtml } from '../../views/html.js';
import { DASHBOARD_ROWS, more, NAME_SHOWN, PHASES_SHOWN, PLAYERS_PER_SIDE, SHORT_SHOWN } from '../../views/renderCaps.js';
import type { CsvDialect } from '../csvDialect.js';
import { reasonText } from './connectPages.js';
import { dashboardPage, downloads, type Frame, notice, pager, query, scrollRegion, teamNames, when } from './frame.js';
import { teamFilter } from './playerPages.js';
import { matchDecisionControls, settleSideForm } from './matchDecisions.js';

const score = (match: ClubMatchDoc) => `${match.home.score ?? '–'} : ${match.away.score ?? '–'}`;
/** A name from a payload as these pages show it: cut to NAME_SHOWN characters. */
const shown = (name: string | null, fallback: string) => clip(name ?? fallback, NAME_SHOWN);
const matchTitle = (match: ClubMatchDoc) => `${shown(match.home.name, 'Home')} vs ${shown(match.away.name, 'Away')}`;

export interface HomePage {
  clubId: string;
  teams: Team[];
  matches: number;
  /** Matches whose side is unknown: they count for neither side until the admin says which is theirs. */
  sideUnknown: number;
  players: number;
  /** The newest sync that copied a match into the dashboard (with a valid key or flagged); null before the first. */
  lastCopied: SyncLogDoc | null;
  /** The newest attempt, whatever its outcome. */
  latestAttempt: SyncLogDoc | null;
  info: string | null;
}

/**
 * The sync card says what works: when a match was last copied into the dashboard, and, when
 * the newest attempt went otherwise, what happened to it and why (one upload without a key is
 * not a broken sync).
 */
function syncCard(page: HomePage): SafeHtml {
  const { lastCopied, latestAttempt } = page;
  const copied =
    lastCopied === null
      ? html`<p>No match copied into your dashboard yet.</p>`
      : html`<p>Last match copied ${when(lastCopied.at)}${
          lastCopied.outcome === 'unauthenticated'
            ? html` <span class="outcome-unauthenticated">(without a valid app key: flagged)</span>`
            : html` <span class="outcome-synced">(app key valid)</span>`
        }.</p>`;
  const newer = latestAttempt !== null && latestAttempt.outcome === 'skipped' && (lastCopied === null || latestAttempt.position > lastCopied.position);
  const attempt =
    newer && latestAttempt !== null
      ? html`<p class="muted">Latest attempt, ${when(latestAttempt.at)}: <span class="outcome-skipped">skipped</span>, because ${reasonText(latestAttempt)}. \
That match was saved and has its public page; only its copy into your dashboard was skipped.</p>`
      : '';
  return html`<div class="card wide" data-testid="sync-card"><a href="/dashboard/connect/sync-status">Sync status</a>${copied}${attempt}</div>`;
}

/** What needs the admin: matches whose side only they can say. */
const needSideCard = (count: number) =>
  count === 0
    ? ''
    : html`<div class="card need" data-testid="need-side"><span class="big">${count}</span>\
<a href="/dashboard/matches?side=unknown">${count === 1 ? 'match needs' : 'matches need'} your side</a>\
<p class="muted">${count === 1 ? 'It counts' : 'They count'} for neither side until you say which is your team.</p></div>`;

export function renderHomePage(frame: Frame, page: HomePage): string {
  return dashboardPage(
    frame,
    'Dashboard',
    html`<h1>${frame.clubName}</h1>
${notice(page.info)}
<p>Your club id: <code class="id" data-testid="club-id">${page.clubId}</code></p>
<div class="cards">
<div class="card"><span class="big">${page.teams.length}</span><a href="/dashboard/teams">teams</a></div>
<div class="card"><span class="big">${page.matches}</span><a href="/dashboard/matches">matches synced</a></div>
${needSideCard(page.sideUnknown)}
<div class="card"><span class="big">${page.players}</span><a href="/dashboard/players">players</a></div>
${syncCard(page)}
</div>
${
  page.matches > 0
    ? html`<p class="muted">Connecting another scoring app? Its settings are under <a href="/dashboard/connect">Connect</a>.</p>`
    : html`<h2>Getting started</h2>
<ol>
<li>Under <a href="/dashboard/teams">Teams</a>, add your teams; each gets a <code>teamId</code>.</li>
<li>Under <a href="/dashboard/connect">Connect</a>, generate an app key for your scoring app.</li>
<li>In the app, enter the club id, the team id and the app key. \
Matches it uploads appear under <a href="/dashboard/matches">Matches</a>, <a href="/dashboard/players">Players</a> and <a href="/dashboard/stats">Stats</a>; \
every attempt is listed under <a href="/dashboard/connect/sync-status">Connect → Sync status</a>.</li>
</ol>`
}`,
  );
}

export interface MatchesPage {
  teams: Team[];
  teamId: string | undefined;
  /** Listing only the matches whose side is unknown. */
  onlySideUnknown: boolean;
  /** The CSV dialect the browser's language suggests: its link comes first. */
  csvDialect: CsvDialect;
  /** This page of the club's matches, newest first. */
  matches: ClubMatchDoc[];
  page: number;
  pages: number;
  /** Matches of the whole list (not only this page) whose side is unknown. */
  sideUnknown: number;
  matchUrl: (id: string) => string;
  info: string | null;
}

function standing(match: ClubMatchDoc): SafeHtml {
  if (match.side === null) return html`<span class="side-unknown">side unknown</span>`;
  if (match.excluded) return html`<span class="excluded">excluded</span>`;
  return html`<span class="muted">counted (${match.side === 'home' ? shown(match.home.name, 'home') : shown(match.away.name, 'away')})</span>`;
}

export function renderMatchesPage(frame: Frame, page: MatchesPage): string {
  const names = teamNames(page.teams);
  const unknown = page.sideUnknown;
  const side = page.onlySideUnknown ? 'unknown' : undefined;
  const link = (n: number) => `/dashboard/matches${query({ team: page.teamId, side, page: n > 1 ? n : undefined })}`;
  return dashboardPage(
    frame,
    'Matches',
    html`<h1>Matches</h1>
${notice(page.info)}
${teamFilter('/dashboard/matches', page.teams, page.teamId, { side })}
${downloads('matches', 'the match list', { team: page.teamId }, page.csvDialect)}
${
  unknown > 0
    ? html`<p class="notice" role="status">${unknown} ${unknown === 1 ? 'match has' : 'matches have'} no known side for your team: \
${unknown === 1 ? 'it counts' : 'they count'} for neither side in players and stats until you say which is yours. \
${
  page.onlySideUnknown
    ? html`<a href="/dashboard/matches${query({ team: page.teamId })}">All matches</a>`
    : html`<a href="/dashboard/matches${query({ team: page.teamId, side: 'unknown' })}">Only these</a>`
}</p>`
    : ''
}
${page.matches
  .filter((m) => m.side === null)
  .map(
    (m) =>
      html`<div class="settle-card" data-match-id="${m.matchId}"><a href="/dashboard/matches/${m.matchId}">${matchTitle(m)}</a> \
<span class="muted nowrap">${m.startedAt?.slice(0, 10) ?? ''}</span>\
${settleSideForm(frame.csrfToken, { ...m, teamName: names.get(m.teamId) ?? m.teamId }, 'matches')}</div>`,
  )}
${
  page.matches.length === 0
    ? html`<p class="muted">No synced match yet.</p>`
    : scrollRegion(
        'matches',
        html`<table class="matches">
<thead><tr><th scope="col">Match</th><th scope="col" class="num">Score</th><th scope="col">In stats</th><th scope="col">Date</th>\
<th scope="col">Team</th><th scope="col">Season · category · competition</th><th scope="col" class="num">Players</th>\
<th scope="col" class="num">Actions</th><th scope="col">Sync</th><th scope="col"><span class="visually-hidden">Public page</span></th></tr></thead>
<tbody>${page.matches.map(
          (
            m,
          ) => html`<tr class="match" data-match-id="${m.matchId}" data-side="${m.side ?? 'unknown'}"${m.excluded ? new SafeHtml(' data-excluded="yes"') : ''}>
<th scope="row"><a href="/dashboard/matches/${m.matchId}">${matchTitle(m)}</a></th>
<td class="num score">${score(m)}${m.scoreUnit === 'sets' ? html` <span class="muted">sets</span>` : ''}</td>
<td>${standing(m)}</td>
<td class="date">${m.startedAt?.slice(0, 10) ?? ''}</td>
<td>${names.get(m.teamId) ?? m.teamId}</td>
<td>${clip([m.season, m.category, m.competition].filter((v) => v !== null).join(' · '), NAME_SHOWN * 3)}</td>
<td class="num">${m.side === null ? '' : countedPlayers({ ...m, excluded: false }).length}</td><td class="num">${m.actionCount}</td>
<td><span class="outcome-${m.outcome}">${m.outcome === 'synced' ? 'synced' : 'without valid key'}</span></td>
<td><a href="${page.matchUrl(m.matchId)}">public page</a></td></tr>`,
        )}</tbody></table>`,
      )
}
${pager(page.page, page.pages, link)}`,
  );
}

/** A side's players in the match, in the same vocabulary as the public page, as bounded (PLAYERS_PER_SIDE, UNKNOWN_STAT_COLUMNS). */
function playerLines(sport: string | null, title: string, players: ClubPlayerCopy[], jsonHref: string): SafeHtml {
  const box = boxScore(
    sport,
    players.map((p) => statsOf(p.stats)),
    { rows: PLAYERS_PER_SIDE },
  );
  const rows = players.slice(0, PLAYERS_PER_SIDE);
  const notes = [
    rows.length < players.length ? more(players.length - rows.length, 'player', 'players') : '',
    box.moreStats > 0 ? more(box.moreStats, 'stat', 'stats') : '',
  ].filter(Boolean);
  const row = (p: ClubPlayerCopy, i: number) =>
    html`<tr><th scope="row"><span class="no">${clip(p.number ?? '', SHORT_SHOWN)}</span> ${shown(p.name ?? p.playerId, '')}</th>\
${(box.rows[i] ?? []).map((c) => html`<td class="num">${c.text}</td>`)}</tr>`;
  return html`${scrollRegion(
    title,
    html`<table class="match-players">
<thead><tr><th scope="col">Player</th>${box.columns.map((c) => html`<th scope="col" class="num"><abbr title="${c.title}">${c.abbr}</abbr></th>`)}</tr></thead>
<tbody>${rows.map(row)}</tbody>
<tfoot><tr><th scope="row">Totals</th>${box.totals.map((c) => html`<td class="num">${c.text}</td>`)}</tr></tfoot></table>`,
  )}${
    notes.length > 0
      ? html`<p class="muted">${notes.join(' and ')} not shown: see <a href="${jsonHref}">the match’s JSON</a>. \
The totals count them all.</p>`
      : ''
  }`;
}

export interface ClubMatchPage {
  teams: Team[];
  match: ClubMatchDoc;
  /** Read from the payload in the log; null when it cannot be read. */
  fromLog: ClubMatchFromLog | null;
  matchUrl: string;
  info: string | null;
}

/**
 * The club's players (from the copy); while the side is unknown, every player of the payload
 * (from the log) by side, for the admin to see which side is theirs.
 */
function playersOfMatch(match: ClubMatchDoc, fromLog: ClubMatchFromLog | null): SafeHtml {
  const jsonHref = `/api/matches/${match.matchId}`;
  const sideName = (side: 'home' | 'away') => (side === 'home' ? shown(match.home.name, 'Home') : shown(match.away.name, 'Away'));
  const players = match.side === null ? (fromLog?.players ?? match.players) : clubPlayers(match.players, match.side);
  if (players.length === 0) return html`<h2>Players</h2><p class="muted">The payload had no players.</p>`;
  if (match.side !== null)
    return html`<h2>Players (${players.length})</h2>${playerLines(match.sport, `players of ${sideName(match.side)}`, players, jsonHref)}`;
  const groups = [
    ...(['home', 'away'] as const).map((side) => ({
      title: `${sideName(side)} (${side})`,
      label: `players of ${sideName(side)}`,
      players: players.filter((p) => p.team === side),
    })),
    { title: 'Side not given', label: 'players whose side the payload does not give', players: players.filter((p) => p.team !== 'home' && p.team !== 'away') },
  ];
  const sideLines = (group: (typeof groups)[number]) =>
    group.players.length === 0 ? '' : html`<h2>${group.title}</h2>${playerLines(match.sport, group.label, group.players, jsonHref)}`;
  return html`${groups.map(sideLines)}`;
}

export function renderMatchPage(frame: Frame, page: ClubMatchPage): string {
  const { match, fromLog } = page;
  const names = teamNames(page.teams);
  const side = (team: string | null) => (team === 'home' ? shown(match.home.name, 'Home') : team === 'away' ? shown(match.away.name, 'Away') : shown(team, ''));
  const playerNames = new Map(fromLog?.playerNames ?? []);
  const who = (a: ActionLine) => (a.playerId === null ? '' : shown(playerNames.get(a.playerId) ?? a.playerId, ''));
  const lines = match.lines.slice(0, PHASES_SHOWN);
  const actions = fromLog?.actions.slice(0, DASHBOARD_ROWS) ?? [];
  const moreActions = (fromLog?.actions.length ?? 0) - actions.length;
  return dashboardPage(
    frame,
    matchTitle(match),
    html`<h1>${matchTitle(match)}</h1>
${notice(page.info)}
<p class="muted">${match.startedAt?.slice(0, 10) ?? ''} · team ${names.get(match.teamId) ?? match.teamId} · \
${[match.season, match.category, match.competition].filter((v) => v !== null).join(' · ')} · \
synced ${when(match.syncedAt)} · <a href="${page.matchUrl}">public page</a></p>
<p class="scoreboard" aria-label="score"><span class="team">${shown(match.home.name, 'Home')}</span> \
<span class="score">${score(match)}</span> <span class="team">${shown(match.away.name, 'Away')}</span></p>
<section class="standing" aria-label="in the club's numbers">
<p>${
      match.side === null
        ? html`<strong class="side-unknown">Side unknown.</strong> The upload did not say which side is your team, \
and neither name matched your team or its aliases, so this match counts for neither side.`
        : match.excluded
          ? html`<strong class="excluded">Excluded</strong> from players and stats.`
          : html`Counts for your team as the <strong>${match.side}</strong> side (${side(match.side)}).`
    }</p>
${matchDecisionControls(frame.csrfToken, { ...match, teamName: names.get(match.teamId) ?? match.teamId }, 'match')}
</section>
${
  lines.length > 0
    ? scrollRegion(
        'score by set or period',
        html`<table class="line-score"><thead><tr><th scope="col"><span class="visually-hidden">Team</span></th>\
${lines.map((l) => html`<th scope="col" class="num">${l.label}</th>`)}</tr></thead>
<tbody><tr><th scope="row">${shown(match.home.name, 'Home')}</th>${lines.map((l) => html`<td class="num">${l.home ?? '–'}</td>`)}</tr>
<tr><th scope="row">${shown(match.away.name, 'Away')}</th>${lines.map((l) => html`<td class="num">${l.away ?? '–'}</td>`)}</tr></tbody></table>`,
      )
    : ''
}
${lines.length < match.lines.length ? html`<p class="muted">${more(match.lines.length - lines.length, 'set or period', 'sets or periods')} not shown.</p>` : ''}
${playersOfMatch(match, fromLog)}
<h2>Actions (${fromLog?.actions.length ?? 0})</h2>
${
  fromLog === null || fromLog.actions.length === 0
    ? html`<p class="muted">The payload had no play-by-play.</p>`
    : scrollRegion(
        'play-by-play',
        html`<table class="actions">
<thead><tr><th scope="col" class="num">#</th><th scope="col">Phase</th><th scope="col">Clock</th><th scope="col">Team</th>\
<th scope="col">Player</th><th scope="col">Action</th><th scope="col" class="num">Score</th></tr></thead>
<tbody>${actions.map(
          (a) =>
            html`<tr class="action"><td class="num">${a.seq ?? ''}</td><td>${a.phase ?? ''}</td><td>${a.clock ?? ''}</td><td>${side(a.team)}</td>\
<td>${who(a)}</td><td>${a.description}</td><td class="num">${a.score ?? ''}</td></tr>`,
        )}</tbody></table>`,
      )
}
${
  moreActions > 0
    ? html`<p class="muted">${more(moreActions, 'action', 'actions')} not shown: \
<a href="${page.matchUrl}">the public page</a> has them all, page by page.</p>`
    : ''
}`,
  );
}
