import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp, tempDataDir } from '../helpers/testApp.js';

const context = { requestId: 'test', clientAddressClass: 'loopback' };
const password = 'correct horse battery';

/** Python's csv module reads the file as a spreadsheet tool would: bytes first, then rows (utf-8-sig drops the BOM). */
const READ_CSV = `
import csv, json, sys
raw = open(sys.argv[1], 'rb').read()
with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
    rows = list(csv.reader(f))
print(json.dumps({'bom': raw[:3].hex(), 'header': rows[0], 'rows': rows[1:]}))
`;

function python3Missing(): string | null {
  try {
    execFileSync('python3', ['--version']);
    return null;
  } catch {
    return 'python3 not found';
  }
}

t.test("the players CSV as Python's csv module reads it: a BOM, clean headers, every percentage in percent", { skip: python3Missing() ?? false }, async (t) => {
  const s = await startTestApp(t);
  const clubs = createClubCommands({ eventStore: s.engine.eventStore });
  const { clubId, teams } = await clubs.signUp({ clubName: 'Lakeside', email: 'csv@lakeside.test', password, teams: ['U18 Girls', 'U18 Boys'] }, context);
  const [volleyball, basketball] = teams.map((team) => team.teamId);
  const { key } = await clubs.issueAppKey(clubId, '', context);
  const upload = (payload: Record<string, unknown>) =>
    s.app.inject({
      method: 'POST',
      url: '/api/matches',
      headers: { ...json, 'x-app-key': key },
      payload: JSON.stringify({ clubId, side: 'home', ...payload }),
    });
  t.equal(
    (
      await upload({
        id: 'v1',
        teamId: volleyball,
        sport: 'volleyball',
        playerStats: [{ playerId: 'v-1', name: 'Zofia Dąbrowska', team: 'home', stats: { kills: 3, attackErrors: 4, attacks: 3 } }],
      })
    ).statusCode,
    201,
  );
  t.equal(
    (
      await upload({
        id: 'b1',
        teamId: basketball,
        sport: 'basketball',
        playerStats: [{ playerId: 'b-1', name: 'Jürgen Ölçer', team: 'home', stats: { points: 2, fieldGoalsMade: 1, fieldGoalsAttempted: 2 } }],
      })
    ).statusCode,
    201,
  );

  const client = dashboardClient(s.app);
  await client.get('/dashboard/login');
  await client.post('/dashboard/login', { email: 'csv@lakeside.test', password });
  const csv = await client.get('/dashboard/export/players.csv');
  t.equal(csv.statusCode, 200);
  const file = join(tempDataDir(t), 'players.csv');
  writeFileSync(file, csv.rawPayload);
  const read = JSON.parse(execFileSync('python3', ['-c', READ_CSV, file], { encoding: 'utf8' })) as { bom: string; header: string[]; rows: string[][] };

  t.equal(read.bom, 'efbbbf', 'the file starts with the UTF-8 byte order mark');
  t.same(read.header.slice(0, 7), ['team', 'teamId', 'number', 'name', 'position', 'playerId', 'matchesPlayed']);
  t.notOk(
    read.header.some((name) => /made[–-]attempted/i.test(name)),
    `no "made–attempted" in a header: ${read.header.join(' | ')}`,
  );
  t.ok(read.header.includes('Field goals made') && read.header.includes('Field goals attempted'), 'a made–attempted pair is two plain columns');
  const cell = (name: string, column: string) => {
    const row = read.rows.find((r) => r[3] === name);
    return row?.[read.header.indexOf(column)];
  };
  t.equal(cell('Zofia Dąbrowska', 'Hitting percentage (%)'), '-33.3', 'hitting .333 below zero is -33.3 percent');
  t.equal(cell('Jürgen Ölçer', 'Field goal percentage (%)'), '50', 'FG 1 of 2 is 50 percent: the same scale');
  const percentColumns = read.header.filter((name) => name.endsWith('(%)'));
  t.ok(percentColumns.length >= 2, `percentages are marked (%): ${percentColumns.join(', ')}`);
  t.equal(read.rows.length, 2, 'one row per player, accented names read back as sent');
});
