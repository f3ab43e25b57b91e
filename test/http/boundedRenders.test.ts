import t from 'tap';
import { summarizeMatch } from '../../src/domain/matchPayload.js';
import { UNKNOWN_STAT_COLUMNS } from '../../src/domain/statVocabulary.js';
import { matchesTable, playersTable, toCsv, toJsonRows } from '../../src/http/dashboard/clubExport.js';
import { renderMatchPage as renderClubMatchPage, type ClubMatchPage } from '../../src/http/dashboard/views/clubDataPages.js';
import { renderStatsPage } from '../../src/http/dashboard/views/playerPages.js';
import { renderEmbedPage } from '../../src/http/public/views/embedPage.js';
import { renderHistoryPage } from '../../src/http/public/views/historyPage.js';
import { renderMatchMain, renderMatchPage, renderPlaysPage } from '../../src/http/public/views/matchPage.js';
import type { MatchPageView } from '../../src/http/public/views/matchParts/matchPageView.js';
import { phaseScores, thinned } from '../../src/http/public/views/scoreChart.js';
import {
  CHANGE_SHOWN,
  CHART_POINTS,
  CSV_COLUMNS,
  CSV_ROWS,
  DASHBOARD_ROWS,
  EVENTS_SHOWN,
  NAME_SHOWN,
  PAGE_BYTES,
  PHASES_SHOWN,
  PLAYERS_PER_SIDE,
  PLAYS_PAGE_BYTES,
  PLAYS_PER_PAGE,
  SHORT_SHOWN,
} from '../../src/http/views/renderCaps.js';
import type { HistoryEntry } from '../../src/history/historyQueries.js';
import type { ClubMatchDoc } from '../../projections/clubDashboard.js';
import type { PlayerTotals } from '../../projections/clubSeasonTotals.js';
import { longNames, manyActions, manyPeriods, manyPlayers, wideBoxScore } from '../helpers/hostileRenders.js';
import { json, startTestApp } from '../helpers/testApp.js';

const bytes = (text: string) => Buffer.byteLength(text);
const view = (payload: unknown, extra: Partial<MatchPageView> = {}): MatchPageView => ({
  id: 'big-1',
  createdAt: '2026-03-01T18:00:00Z',
  updatedAt: '2026-03-01T20:00:00Z',
  protected: false,
  revision: 2,
  versions: 3,
  publicUrl: 'http://matchlog.test/match/big-1',
  summary: summarizeMatch(JSON.parse(JSON.stringify(payload))),
  ...extra,
});
/** Rows of the first table with this class. */
const rowsOf = (page: string, table: string) => (page.split(`<table class="${table}"`)[1]?.split('</tbody>')[0]?.match(/<tr/g)?.length ?? 1) - 1;

t.test('300 players × 300 stat names no other player has: 24 unknown columns a side, "+k more stats" linking the JSON', async (t) => {
  const page = renderMatchPage(view(wideBoxScore()));
  t.ok(bytes(page) < PAGE_BYTES, `${bytes(page)} bytes`);
  const heads = page
    .split('<table class="player-stats"')
    .slice(1)
    .map((table) => table.split('</thead>')[0]!.match(/<th scope="col" class="num">/g)?.length);
  t.same(heads, [UNKNOWN_STAT_COLUMNS, UNKNOWN_STAT_COLUMNS], 'both sides: the cap, not 45,000 columns');
  t.match(page, `+${150 * 300 - UNKNOWN_STAT_COLUMNS} more stats`);
  t.match(page, '<a href="/api/matches/big-1">the match’s JSON</a>');
  t.match(page, '+90 more players', 'and players beyond PLAYERS_PER_SIDE');
});

t.test('10,000 players: PLAYERS_PER_SIDE rows a side, the totals count them all', async (t) => {
  const page = renderMatchPage(view(manyPlayers()));
  t.ok(bytes(page) < PAGE_BYTES, `${bytes(page)} bytes`);
  t.equal(rowsOf(page, 'player-stats'), PLAYERS_PER_SIDE);
  t.match(page, `+${5_000 - PLAYERS_PER_SIDE} more players of Wide Home`);
  const totals = page.split('<tfoot>')[1]!.split('</tfoot>')[0]!;
  const points = Array.from({ length: 5_000 }, (_, i) => (2 * i) % 30).reduce((a, b) => a + b, 0);
  t.match(totals, `<td class="num">${points}</td>`, 'points of every home player');
});

t.test('36,000 actions: PLAYS_PER_PAGE rows on the page, older ones on pages of plays, every page bounded', async (t) => {
  const v = view(manyActions());
  const page = renderMatchPage(v);
  t.ok(bytes(page) < PAGE_BYTES, `${bytes(page)} bytes`);
  t.equal(page.match(/<tr class="(scored)?">/g)?.length, PLAYS_PER_PAGE);
  t.match(page, `Plays 1–${PLAYS_PER_PAGE} of 36000, newest first.`);
  t.match(page, '<a href="/match/big-1?part=plays&amp;page=2" rel="next">Older plays →</a>');
  const second = renderPlaysPage(v, 2)!;
  t.ok(bytes(second) < PAGE_BYTES);
  t.match(second, `Plays ${PLAYS_PER_PAGE + 1}–${2 * PLAYS_PER_PAGE} of 36000`);
  t.match(second, 'rel="prev"');
  t.match(second, '(1000 of 9000 actions here)', 'a set cut by the page says so');
  const last = renderPlaysPage(v, 36)!;
  t.match(last, 'Plays 35001–36000 of 36000');
  t.notMatch(last, 'rel="next"', 'the last page links no further');
  t.equal(renderPlaysPage(v, 37), null, 'no page 37');
  t.equal(renderPlaysPage(v, 0), null);
  const chart = page.split('<figure class="chart wide lead">').slice(1);
  t.equal(chart.length, 1, 'basketball: one lead tracker for the whole game');
  t.ok((chart[0]!.split('</figure>')[0]!.match(/H/g)?.length ?? 0) < CHART_POINTS * 2 + 10, 'its steps thinned to CHART_POINTS');
});

t.test('a score chart keeps the first, the last and every lead change, at most CHART_POINTS', async (t) => {
  const points = Array.from({ length: 5_000 }, (_, i) => ({ home: i, away: i + (i % 500 === 0 ? 2 : 0) - (i % 1000 === 250 ? 2 : 0) }));
  const kept = thinned(points, CHART_POINTS);
  t.ok(kept.length <= CHART_POINTS);
  t.equal(kept[0], points[0]);
  t.equal(kept.at(-1), points.at(-1));
  const lead = (p: { home: number; away: number }) => Math.sign(p.home - p.away);
  for (let i = 1; i < points.length - 1; i += 1) if (lead(points[i]!) !== lead(points[i - 1]!)) t.ok(kept.includes(points[i]!), `lead change at ${i} kept`);
  const realistic = phaseScores(summarizeMatch(manyActions(300)).actionMarks(), PHASES_SHOWN, CHART_POINTS);
  t.ok(
    realistic.every((p) => p.points.length === p.length),
    'a realistic phase is not thinned',
  );
});

t.test('10,000 sets: PHASES_SHOWN of them in the line score and the play-by-play, "+k more sets"', async (t) => {
  const v = view(manyPeriods());
  const page = renderMatchPage(v);
  t.ok(bytes(page) < PAGE_BYTES, `${bytes(page)} bytes`);
  t.equal(
    page
      .split('<table class="line-score">')[1]!
      .split('</thead>')[0]!
      .match(/<th class="num/g)?.length,
    PHASES_SHOWN + 1,
    'sets shown and the total',
  );
  t.match(page, `+${10_000 - PHASES_SHOWN} more sets in the JSON`);
  t.equal(page.match(/<details class="play-by-play"/g)?.length, PHASES_SHOWN);
  t.match(page, 'part=plays&amp;page=2');
  t.ok(bytes(renderEmbedPage(v)) < 64 * 1024, 'the embed too');
  t.equal(page.match(/<figure class="chart">/g)?.length ?? 0, PHASES_SHOWN);
});

t.test('100 KB names, sport, venue and descriptions: shown cut, the page small', async (t) => {
  const v = view(longNames());
  for (const [name, page] of [
    ['page', renderMatchPage(v)],
    ['embed', renderEmbedPage(v)],
    ['plays', renderPlaysPage(v, 1)!],
  ] as const) {
    t.ok(bytes(page) < 64 * 1024, `${name}: ${bytes(page)} bytes`);
    t.notMatch(page, 'h&amp;&lt;&quot;&#39;'.repeat(NAME_SHOWN), `${name}: no name longer than NAME_SHOWN`);
  }
  t.match(renderMatchPage(v), '…');
});

t.test('plays of long, escaped descriptions: a page of plays ends at PLAYS_PAGE_BYTES of rows and links on', async (t) => {
  const v = view({
    sport: 'volleyball',
    homeTeam: { name: 'Home', setsWon: 0 },
    awayTeam: { name: 'Away', setsWon: 0 },
    actions: Array.from({ length: 2_000 }, (_, i) => ({ set: 1, description: `${'<&>'.repeat(100)} ${i}`, score: { home: i, away: 0 } })),
  });
  const page = renderPlaysPage(v, 1)!;
  const rows = page.match(/<tr class="(scored)?">/g)?.length ?? 0;
  t.ok(rows > 0 && rows < PLAYS_PER_PAGE, `${rows} rows: fewer than PLAYS_PER_PAGE`);
  t.ok(bytes(page) < PLAYS_PAGE_BYTES + 16 * 1024, `${bytes(page)} bytes: the rows' PLAYS_PAGE_BYTES and the page around them`);
  t.match(page, `Plays 1–${rows} of 2000, newest first.`);
  t.match(page, '<a href="/match/big-1?part=plays&amp;page=2" rel="next">Older plays →</a>', 'the rest on further pages');
});

t.test('shirt numbers, positions and short team names: at most SHORT_SHOWN characters shown', async (t) => {
  const page = renderMatchPage(
    view({
      sport: 'volleyball',
      homeTeam: { name: 'Home Club', shortName: 'H'.repeat(10_000), setsWon: 0 },
      awayTeam: { name: 'Away Club', setsWon: 0 },
      playerStats: [{ playerId: 'p1', name: 'Long Number', number: '9'.repeat(10_000), position: 'P'.repeat(10_000), team: 'home', stats: { kills: 1 } }],
    }),
  );
  for (const c of ['9', 'P', 'H']) {
    t.notMatch(page, c.repeat(SHORT_SHOWN), `no run of ${SHORT_SHOWN} "${c}"`);
    t.match(page, `${c.repeat(SHORT_SHOWN - 1)}…`, `"${c}…" cut to ${SHORT_SHOWN} characters`);
  }
});

t.test('football: at most EVENTS_SHOWN goal and card lines a side under the score', async (t) => {
  const actions = Array.from({ length: 200 }, (_, i) => ({
    type: i % 4 === 0 ? 'Yellow Card' : 'Goal',
    team: i % 2 === 0 ? 'home' : 'away',
    playerName: `Scorer ${i}`,
    minute: i % 90,
  }));
  const page = renderMatchPage(view({ sport: 'football', homeTeam: { name: 'Home FC', score: 75 }, awayTeam: { name: 'Away FC', score: 100 }, actions }));
  for (const side of ['home', 'away']) {
    const list = page.split(`<ul class="events ${side}"`)[1]?.split('</ul>')[0] ?? '';
    t.equal(list.match(/<li /g)?.length, EVENTS_SHOWN, `${side}: ${EVENTS_SHOWN} lines of its 100 events`);
  }
});

t.test('history page: one version\'s "what changed" is cut to CHANGE_SHOWN characters', async (t) => {
  const names = Array.from({ length: 100 }, (_, i) => `field_${'x'.repeat(60)}_${i}`);
  const entry: HistoryEntry = {
    revision: 1,
    position: 1,
    type: 'MatchReplaced',
    recordedAt: '2026-03-01T20:00:00Z',
    requestId: null,
    clientAddressClass: null,
    content: { via: 'PUT', protection: 'unprotected' },
    diff: {
      score: null,
      teams: [],
      players: [],
      lines: [],
      stats: [],
      actions: { before: 0, after: 0, added: 0, removed: 0, changed: 0 },
      fields: names.map((field) => ({ field, change: 'added' as const })),
      omitted: 0,
    },
    details: null,
  };
  const page = renderHistoryPage({
    id: 'big-1',
    teams: { home: { name: 'Home' }, away: { name: 'Away' } },
    order: 'oldest',
    page: { entries: [entry], next: null, head: 1, protected: false },
  });
  const changes = page.split('<ul class="changes" aria-label="What changed">')[1]?.split('</ul>')[0] ?? '';
  const text = changes.replace(/<[^>]+>/g, '');
  t.ok(text.length > 0 && text.length <= CHANGE_SHOWN, `${text.length} characters shown`);
  t.match(changes, '…', 'cut, with "…"');
});

t.test('a page over PAGE_BYTES despite the caps: the score and a note linking the JSON', async (t) => {
  // Three groups of 60 players, each with every volleyball stat and 24 unknown ones holding long fractions, and 1,000 plays of escaped words.
  const stats = Object.fromEntries(
    [
      'kills',
      'attackErrors',
      'attacks',
      'assists',
      'aces',
      'serviceErrors',
      'receptionErrors',
      'digs',
      'blockSolos',
      'blockAssists',
      'blocks',
      'blockErrors',
      'points',
      ...Array.from({ length: 24 }, (_, s) => `extra${s}`),
    ].map((key) => [key, Math.PI * 1e9]),
  );
  const payload = {
    sport: 'volleyball',
    homeTeam: { name: 'Wide Home', score: 1 },
    awayTeam: { name: 'Wide Away', score: 1 },
    playerStats: Array.from({ length: 180 }, (_, p) => ({ playerId: `p${p}`, name: `Player ${p}`, number: p, team: ['home', 'away', 'bench'][p % 3], stats })),
    actions: Array.from({ length: 1_000 }, (_, i) => ({ set: 1, description: `"${'<&>'.repeat(60)}" ${i}`, score: { home: i, away: 0 } })),
  };
  const v = view(payload);
  const main = renderMatchMain(v);
  t.match(main, /^<div id="match-main" data-revision="2" data-status="">/, 'the live part keeps its frame');
  t.match(main, 'This match is too large to show in full');
  t.match(main, '<a href="/api/matches/big-1">See the whole match as JSON</a>');
  t.match(main, '<a href="/match/big-1?part=plays&amp;page=1">its play-by-play page by page</a>');
  t.ok(bytes(renderMatchPage(v)) < 64 * 1024);
  const old = renderMatchMain({ ...v, asOf: { revision: 1, latestRevision: 2 } });
  t.match(old, '<a href="/api/matches/big-1?revision=1">', 'an old version links its own JSON');
  t.notMatch(old, 'part=plays', 'and no pages of plays (they are of the current version)');
});

const frame = { clubName: 'Club', csrfToken: 'token', section: 'matches' as const };

t.test('dashboard match page: the same caps', async (t) => {
  const summary = summarizeMatch(manyPlayers(2_000));
  const wide = summarizeMatch(manyActions(5_000));
  const match: ClubMatchDoc = {
    id: 'c:m',
    clubId: 'c',
    teamId: 't',
    matchId: 'm',
    revision: 0,
    syncedAt: '2026-03-01T20:00:00Z',
    outcome: 'synced',
    keyId: null,
    side: 'home',
    sport: 'basketball',
    home: { name: 'x'.repeat(100_000), score: 1 },
    away: summary.away,
    scoreUnit: 'points',
    lines: summarizeMatch(manyPeriods(1_000)).lines,
    startedAt: null,
    season: null,
    category: null,
    competition: null,
    actionCount: 5_000,
    excluded: false,
    players: summary.players.map((p) => ({
      key: p.key,
      team: 'home',
      playerId: p.playerId,
      name: p.name,
      number: p.number,
      position: p.position,
      stats: Object.entries(p.stats),
    })),
  };
  const page: ClubMatchPage = {
    teams: [],
    match,
    fromLog: { actions: wide.actions(), playerNames: [], players: [] },
    matchUrl: 'http://matchlog.test/match/m',
    info: null,
  };
  const html = renderClubMatchPage(frame, page);
  t.ok(bytes(html) < PAGE_BYTES * 2, `${bytes(html)} bytes`);
  t.match(html, `+${2_000 - PLAYERS_PER_SIDE} more players`);
  t.match(html, `+${5_000 - DASHBOARD_ROWS} more actions not shown`);
  t.match(html, `+${1_000 - PHASES_SHOWN} more sets or periods not shown`);
  t.notMatch(html, 'x'.repeat(NAME_SHOWN + 1));
});

const totals = (n: number, stats: (i: number) => Record<string, number>): PlayerTotals[] =>
  Array.from({ length: n }, (_, i) => ({
    teamId: i % 2 === 0 ? 't1' : 't2',
    sport: 'volleyball',
    key: `k${i}`,
    playerId: `p${i}`,
    name: `Player ${i}`,
    number: String(i),
    position: null,
    matchesPlayed: 1,
    totals: stats(i),
  }));

t.test('dashboard stats page: DASHBOARD_ROWS players a team, unknown stats capped', async (t) => {
  const players = totals(2 * (DASHBOARD_ROWS + 5), (i) => ({ kills: i, [`own${i}`]: 1 }));
  const html = renderStatsPage(frame, { teams: [], filter: {}, options: { seasons: [], categories: [], competitions: [] }, players, csvDialect: 'comma' });
  t.equal(html.match(/<tr class="player-total">/g)?.length, 2 * DASHBOARD_ROWS);
  t.match(html, '+5 more players not shown');
  t.match(html, `+${DASHBOARD_ROWS + 5 - UNKNOWN_STAT_COLUMNS} more stats not shown`);
});

t.test('CSV and JSON exports: at most CSV_ROWS rows and CSV_COLUMNS stat columns, a last row saying what was cut', async (t) => {
  const players = totals(CSV_ROWS + 10, (i) => ({ kills: 1, [`s${i % 300}`]: 1, [`t${i % 7}`]: 2 }));
  const table = playersTable(players, (id) => id);
  t.equal(table.rows.length, CSV_ROWS);
  t.ok(table.columns.length <= 7 + CSV_COLUMNS);
  t.ok(table.omitted !== undefined && table.omitted.rows === 10 && table.omitted.columns > 0, JSON.stringify(table.omitted));
  const csv = toCsv(table).trimEnd().split('\r\n');
  t.equal(csv.length, CSV_ROWS + 2, 'header, rows, and the note');
  t.match(csv.at(-1), /^# truncated: 10 more rows and \d+ more stat columns not in this file \(at most 20000 rows and 200 stat columns/);
  t.equal(toJsonRows(table).length, CSV_ROWS);

  const fits = playersTable(
    totals(3, () => ({ kills: 1 })),
    (id) => id,
  );
  t.equal(fits.omitted, undefined, 'nothing cut: no note');
  t.notMatch(toCsv(fits), '#');

  const longName = { ...players[0]!, name: 'n'.repeat(100_000) };
  t.ok(toCsv(playersTable([longName], (id) => id)).length < 2_000, 'a text cell is cut to CSV_CELL_CHARS');

  const match = {
    matchId: 'm',
    startedAt: null,
    home: { name: 'A', score: 1 },
    away: { name: 'B', score: 0 },
    scoreUnit: null,
    teamId: 't',
    side: 'home',
    excluded: false,
    season: null,
    category: null,
    competition: null,
    outcome: 'synced',
  } as unknown as ClubMatchDoc;
  const matches = matchesTable(
    Array.from({ length: CSV_ROWS + 1 }, () => match),
    (id) => id,
    (id) => id,
  );
  t.equal(matches.rows.length, CSV_ROWS);
  t.same(matches.omitted, { rows: 1, columns: 0 });
});

t.test('over a real server: the 300 × 300 upload, its page, live part, embed, plays and history all answer under PAGE_BYTES', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const upload = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'wide-1', ...wideBoxScore() }) });
  t.equal(upload.status, 201);
  for (const path of ['/match/wide-1', '/match/wide-1?part=main', '/match/wide-1/embed', '/match/wide-1/history', '/match/wide-1?revision=0']) {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
    const body = await res.text();
    t.equal(res.status, 200, path);
    t.ok(bytes(body) < PAGE_BYTES, `${path}: ${bytes(body)} bytes`);
  }
  t.match(await (await fetch(`${base}/match/wide-1`)).text(), `+${150 * 300 - UNKNOWN_STAT_COLUMNS} more stats`);

  t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'long-1', ...manyActions(3_000) }) })).status, 201);
  const second = await fetch(`${base}/match/long-1?part=plays&page=2`);
  t.equal(second.status, 200);
  t.match(await second.text(), `Plays ${PLAYS_PER_PAGE + 1}–${2 * PLAYS_PER_PAGE} of 3000`);
  t.equal((await fetch(`${base}/match/long-1?part=plays&page=4`)).status, 404, 'no page 4 of 3,000 plays');
  const bad = await fetch(`${base}/match/long-1?part=plays&page=x`, { headers: { accept: 'application/json' } });
  t.equal(bad.status, 400, 'a malformed page number is a 400');
  t.equal((await fetch(`${base}/match/nope?part=plays&page=1`)).status, 404);
});
