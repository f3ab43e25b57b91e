import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { toCsv } from '../../src/http/dashboard/clubExport.js';
import { suggestedDialect } from '../../src/http/dashboard/csvDialect.js';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp, tempDataDir } from '../helpers/testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };
const password = 'correct horse battery';

t.test('the semicolon dialect: ";" between fields, decimal commas, the BOM, quoting and formula escaping kept', async (t) => {
  const table = {
    columns: ['name', 'Hitting percentage (%)', 'Kills', 'note'],
    rows: [
      ['Zofia Dąbrowska', -33.3, 12, 'block; then kill'],
      ['=HYPERLINK("x")', 50, 0, '1,5 sets'],
      ['-dash', null, 2.25, null],
    ],
  };
  t.equal(
    toCsv(table, 'semicolon'),
    '\uFEFFname;Hitting percentage (%);Kills;note\r\n' +
      'Zofia Dąbrowska;-33,3;12;"block; then kill"\r\n' +
      '"\'=HYPERLINK(""x"")";50;0;1,5 sets\r\n' +
      "'-dash;;2,25;\r\n",
    'numbers with a decimal comma, not escaped as formulas; text with ";" quoted; text formulas still escaped',
  );
  t.equal(
    toCsv(table),
    '\uFEFFname,Hitting percentage (%),Kills,note\r\n' +
      'Zofia Dąbrowska,-33.3,12,block; then kill\r\n' +
      '"\'=HYPERLINK(""x"")",50,0,"1,5 sets"\r\n' +
      "'-dash,,2.25,\r\n",
    'the comma dialect is unchanged',
  );
});

t.test("the dialect a browser's language suggests: the first language of the highest q", async (t) => {
  const cases: [string | undefined, 'comma' | 'semicolon'][] = [
    ['de-DE,de;q=0.9,en;q=0.8', 'semicolon'],
    ['fr-FR', 'semicolon'],
    ['es-419,es;q=0.9', 'semicolon'],
    ['sl-SI,sl;q=0.9,en-GB;q=0.8', 'semicolon'],
    ['en-US,en;q=0.9,de;q=0.8', 'comma'],
    ['en;q=0.5, fr;q=0.9', 'semicolon'],
    ['en-GB', 'comma'],
    ['*', 'comma'],
    ['de;q=0', 'comma'],
    ['', 'comma'],
    [undefined, 'comma'],
    [`${'xx,'.repeat(10_000)}de`, 'comma'],
  ];
  for (const [header, dialect] of cases) t.equal(suggestedDialect(header), dialect, `${String(header).slice(0, 40)} → ${dialect}`);
});

/** Reads the file as German, French, Spanish or Slovene Excel does: ";" separates fields, "," is the decimal mark. */
const READ_AS_SEMICOLON_LOCALE = `
import csv, json, re, sys
raw = open(sys.argv[1], 'rb').read()
with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
    rows = list(csv.reader(f, delimiter=';'))
def value(cell):
    if re.fullmatch(r'-?\\d+(,\\d+)?', cell):
        return float(cell.replace(',', '.'))
    return cell
print(json.dumps({'bom': raw[:3].hex(), 'header': rows[0], 'rows': [[value(c) for c in r] for r in rows[1:]]}))
`;

function python3Missing(): string | null {
  try {
    execFileSync('python3', ['--version']);
    return null;
  } catch {
    return 'python3 not found';
  }
}

t.test(
  'GET /dashboard/export/players.csv?dialect=semicolon as a semicolon locale reads it; the pages offer both',
  { skip: python3Missing() ?? false },
  async (t) => {
    const s = await startTestApp(t);
    const clubs = createClubCommands({ eventStore: s.engine.eventStore });
    const { clubId, teams } = await clubs.signUp({ clubName: 'Lakeside', email: 'dialect@lakeside.test', password, teams: ['U18 Girls', 'U18 Boys'] }, context);
    const [volleyball, basketball] = teams.map((team) => team.teamId);
    const { key } = await clubs.issueAppKey(clubId, '', context);
    const upload = async (payload: Record<string, unknown>) => {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/matches',
        headers: { ...json, 'x-app-key': key },
        payload: JSON.stringify({ clubId, side: 'home', ...payload }),
      });
      t.equal(res.statusCode, 201);
    };
    await upload({
      id: 'v1',
      teamId: volleyball,
      sport: 'volleyball',
      playerStats: [{ playerId: 'v-1', name: 'Zofia Dąbrowska', team: 'home', stats: { kills: 3, attackErrors: 4, attacks: 3 } }],
    });
    await upload({
      id: 'b1',
      teamId: basketball,
      sport: 'basketball',
      playerStats: [{ playerId: 'b-1', name: 'Jürgen Ölçer; Jr.', team: 'home', stats: { points: 2, fieldGoalsMade: 1, fieldGoalsAttempted: 3 } }],
    });
    const client = dashboardClient(s.app);
    await client.get('/dashboard/login');
    await client.post('/dashboard/login', { email: 'dialect@lakeside.test', password });

    const csv = await client.get('/dashboard/export/players.csv?dialect=semicolon');
    t.equal(csv.statusCode, 200);
    t.match(csv.headers['content-type'], /^text\/csv; charset=utf-8/);
    const file = join(tempDataDir(t), 'players.csv');
    writeFileSync(file, csv.rawPayload);
    const read = JSON.parse(execFileSync('python3', ['-c', READ_AS_SEMICOLON_LOCALE, file], { encoding: 'utf8' })) as {
      bom: string;
      header: string[];
      rows: (string | number)[][];
    };
    t.equal(read.bom, 'efbbbf', 'the BOM is kept');
    t.same(read.header.slice(0, 7), ['team', 'teamId', 'number', 'name', 'position', 'playerId', 'matchesPlayed'], 'the header splits into its columns');
    t.ok(
      read.rows.every((row) => row.length === read.header.length),
      'every row has as many fields as the header: not one column',
    );
    const cell = (name: string, column: string) => read.rows.find((r) => r[3] === name)?.[read.header.indexOf(column)];
    t.equal(cell('Zofia Dąbrowska', 'Hitting percentage (%)'), -33.3, '-33,3 reads as the number -33.3');
    t.equal(cell('Jürgen Ölçer; Jr.', 'Field goal percentage (%)'), 33.3, '33,3 reads as a number; a name with ";" stays one field');
    t.equal(cell('Jürgen Ölçer; Jr.', 'Field goals made'), 1, 'counts are numbers');
    t.notMatch(csv.body, /\d\.\d/, 'no decimal point, which those locales would read as a thousands separator');

    const refused = await client.get('/dashboard/export/players.csv?dialect=tab');
    t.equal(refused.statusCode, 400, 'an unknown dialect is refused');
    t.match(
      refused.body,
      /dialect/,
      `and the answer names the field to fix: ${refused.body
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 200)}`,
    );

    const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const linkOrder = async (url: string, language: string) => {
      const page = await s.app.inject({ method: 'GET', url, headers: { cookie, 'accept-language': language } });
      t.equal(page.statusCode, 200);
      return [...page.body.matchAll(/data-dialect="(\w+)"/g)].map((m) => m[1]);
    };
    t.same(await linkOrder('/dashboard/stats', 'de-DE,de;q=0.9,en;q=0.8'), ['semicolon', 'comma'], 'German: the semicolon CSV first, the other offered too');
    t.same(await linkOrder('/dashboard/matches', 'sl'), ['semicolon', 'comma'], 'Slovene, on Matches too');
    t.same(await linkOrder('/dashboard/stats', 'en-US'), ['comma', 'semicolon'], 'English: the comma CSV first');
  },
);
