import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp } from '../helpers/testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };
const password = 'correct horse battery';

/** Player names a spreadsheet would misread: separators, quotes, and text that starts like a formula. */
const hostileNames = ['Doe, Jane', 'Ana "Ace" Berg', '=HYPERLINK("http://evil.test","x")', '+33 Kim', '-Lea', '@SUM(A1)'];

t.test('CSV and JSON export of players, stats and matches, for the current filter', async (t) => {
  const s = await startTestApp(t);
  const clubs = createClubCommands({ eventStore: s.engine.eventStore });
  const { clubId, teams } = await clubs.signUp({ clubName: 'Lakeside VC', email: 'export@lakeside.test', password, teams: ['U16 Women'] }, context);
  const teamId = teams[0]?.teamId ?? '';
  const { key } = await clubs.issueAppKey(clubId, '', context);
  const upload = (id: string, season: string, kills: number) =>
    s.app.inject({
      method: 'POST',
      url: '/api/matches',
      headers: { ...json, 'x-app-key': key },
      payload: JSON.stringify({
        id,
        clubId,
        teamId,
        season,
        sport: 'volleyball',
        startedAt: `2026-0${season === '2025/26' ? 3 : 9}-01T18:00:00.000Z`,
        homeTeam: { name: 'Lakeside Herons', teamId, setsWon: 3 },
        awayTeam: { name: 'Hillcrest Owls', setsWon: 1 },
        playerStats: [
          ...hostileNames.map((name, i) => ({ playerId: `h-${i}`, number: i + 1, name, team: 'home', stats: { kills, attackErrors: 1, attacks: 10 } })),
          { playerId: 'a-1', number: 9, name: 'Opponent', team: 'away', stats: { kills: 50 } },
        ],
      }),
    });
  t.equal((await upload('m1', '2025/26', 4)).statusCode, 201);
  t.equal((await upload('m2', '2025/26', 6)).statusCode, 201);
  t.equal((await upload('m3', '2026/27', 1)).statusCode, 201);

  const client = dashboardClient(s.app);
  await client.get('/dashboard/login');
  await client.post('/dashboard/login', { email: 'export@lakeside.test', password });

  const stats = await client.get('/dashboard/stats?season=2025%2F26');
  t.match(
    stats.body,
    /href="\/dashboard\/export\/players.csv\?season=2025%2F26" data-dialect="comma" download>CSV/,
    'the Stats page links the export of its filter',
  );

  const csv = await client.get('/dashboard/export/players.csv?season=2025%2F26');
  t.equal(csv.statusCode, 200);
  t.match(String(csv.headers['content-type']), /^text\/csv; charset=utf-8/);
  t.match(String(csv.headers['content-disposition']), /^attachment; filename="lakeside-vc-players-2025-26.csv"/);
  t.ok(csv.body.startsWith('\uFEFF'), 'a UTF-8 byte order mark, for Excel on Windows');
  const lines = csv.body.slice(1).split('\r\n');
  t.equal(
    lines[0],
    'team,teamId,number,name,position,playerId,matchesPlayed,Kills,Attack errors,Total attacks,Hitting percentage (%)',
    "a header row: the stats in the Stats page's order and words",
  );
  t.equal(lines.length, 1 + hostileNames.length + 1, 'one row per player of the club (not the opponent), and a final line break');
  t.equal(lines[1], `U16 Women,${teamId},1,"Doe, Jane",,h-0,2,10,2,20,40`, 'a comma in a name is quoted; totals over the filtered season only');
  t.equal(lines[2], `U16 Women,${teamId},2,"Ana ""Ace"" Berg",,h-1,2,10,2,20,40`, 'quotes are doubled');
  t.match(lines[3], /,"'=HYPERLINK\(""http:\/\/evil.test"",""x""\)",/, 'a formula is written as text');
  t.match(lines[4], /,'\+33 Kim,/);
  t.match(lines[5], /,'-Lea,/);
  t.match(lines[6], /,'@SUM\(A1\),/);
  t.notOk(csv.body.includes('Opponent'), "the opponent's players are not the club's");

  const asJson = await client.get('/dashboard/export/players.json?season=2025%2F26');
  const body = asJson.json() as { columns: string[]; rows: Record<string, unknown>[] };
  t.same(body.columns, lines[0]?.split(','), 'the JSON twin has the same columns');
  t.same(Object.keys(body.rows[0] ?? {}), body.columns, 'in the same order');
  t.same(body.rows[2]?.name, '=HYPERLINK("http://evil.test","x")', 'JSON keeps names as they are');
  t.equal(body.rows[0]?.Kills, 10, 'numbers stay numbers');

  const all = await client.get('/dashboard/export/players.csv');
  t.match(all.body.split('\r\n')[1], /,h-0,3,11,3,30,26.7$/, 'no filter: every season');

  const matches = await client.get('/dashboard/export/matches.csv');
  const matchLines = matches.body.replace(/^\uFEFF/, '').split('\r\n');
  t.equal(matchLines[0], 'matchId,date,home,away,homeScore,awayScore,scoreUnit,team,teamId,side,counted,season,category,competition,sync,url');
  t.equal(
    matchLines[1],
    `m3,2026-09-01,Lakeside Herons,Hillcrest Owls,3,1,sets,U16 Women,${teamId},home,yes,2026/27,,,synced,http://matchlog.test/match/m3`,
    'newest first',
  );
  t.equal(matchLines.length, 5);

  const other = dashboardClient(s.app);
  t.equal((await other.get('/dashboard/export/players.csv')).statusCode, 303, 'behind the login');
});
