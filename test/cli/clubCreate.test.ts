import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { dashboardClient } from '../helpers/browserless.js';
import { fixtureText } from '../helpers/fixtures.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { json, seedFields, startTestApp, tempDataDir } from '../helpers/testApp.js';

async function cli(args: string[], env: Record<string, string>, stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    env,
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  });
  return { code, out: out.join(''), err: err.join('') };
}

t.test('club-create makes a club the dashboard and the API know', async (t) => {
  const dataDir = tempDataDir(t);
  const env = { DATA_DIR: dataDir, MATCHLOG_ADMIN_PASSWORD: 'correct horse battery' };
  const result = await cli(
    ['club-create', '--name', 'Lakeside VC', '--email', 'ops@lakeside.test', '--team', 'U16 Women', '--team', 'U18 Men', '--app-key', '--json'],
    env,
  );
  t.equal(result.code, 0, result.err);
  const created = JSON.parse(result.out) as { clubId: string; teams: { teamId: string; name: string }[]; appKey: { key: string; keyId: string } };
  t.match(created.clubId, /^[0-9a-z]{16}$/);
  t.same(
    created.teams.map((team) => team.name),
    ['U16 Women', 'U18 Men'],
  );
  t.match(created.appKey.key, /^mlk_/);

  const s = await startTestApp(t, { DATA_DIR: dataDir });
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/matches',
    headers: { ...json, 'x-app-key': created.appKey.key },
    payload: fixtureText({ club: created.clubId, team: created.teams[0]?.teamId ?? '', id: 'from-cli' }),
  });
  t.same(seedFields(res.json()), { id: 'from-cli', url: 'http://matchlog.test/match/from-cli' }, 'the printed key authenticates a sync');
  const client = dashboardClient(s.app);
  await client.get('/dashboard/login');
  const login = await client.post('/dashboard/login', { email: 'ops@lakeside.test', password: 'correct horse battery' });
  t.equal(login.statusCode, 303, 'the admin can log in');
  t.match((await client.get('/dashboard/connect/sync-status')).body, /data-outcome="synced"/);

  const again = await cli(['club-create', '--name', 'Other', '--email', 'OPS@lakeside.test'], env);
  t.equal(again.code, 1);
  t.match(again.err, /already exists/, 'emails stay unique');
});

t.test('club-create: plain output, password sources, mistakes', async (t) => {
  const dataDir = tempDataDir(t);
  const plain = await cli(['club-create', '--name', 'Hillcrest', '--email', 'a@hillcrest.test', '--password-env', 'PW', '--team', 'Seniors'], {
    DATA_DIR: dataDir,
    PW: 'another good password',
  });
  t.equal(plain.code, 0, plain.err);
  t.match(plain.out, /^clubId {2}[0-9a-z]{16}\nteamId {2}[0-9a-z]{10} {2}Seniors\n$/);
  const stdin = await cli(
    ['club-create', '--name', 'Northgate', '--email', 'b@northgate.test', '--password-stdin'],
    { DATA_DIR: dataDir },
    'from standard input\n',
  );
  t.equal(stdin.code, 0, stdin.err);
  const argv = await cli(['club-create', '--name', 'Westbrook', '--email', 'c@westbrook.test', '--password', 'on the command line'], { DATA_DIR: dataDir });
  t.equal(argv.code, 0);
  t.match(argv.err, /visible to other users/);
  t.match((await cli(['club-create', '--name', 'X', '--email', 'd@x.test'], { DATA_DIR: dataDir })).err, /no password: set MATCHLOG_ADMIN_PASSWORD/);
  t.equal((await cli(['club-create', '--email', 'd@x.test'], { DATA_DIR: dataDir })).code, 2);
  t.equal((await cli(['club-create', '--name', 'X', '--email', 'd@x.test', '--bogus'], { DATA_DIR: dataDir })).code, 2);
  const short = await cli(['club-create', '--name', 'X', '--email', 'd@x.test', '--password-env', 'PW'], { DATA_DIR: dataDir, PW: 'short' });
  t.equal(short.code, 1);
  t.match(short.err, /10 to 200 characters/);
  t.match((await cli(['club-create', '--help'], {})).out, /--password-stdin/);
  t.match((await cli(['help'], {})).out, /club-create/);
});

t.test('the matchlog bin reads the password from standard input', async (t) => {
  const dataDir = tempDataDir(t);
  const script = fileURLToPath(new URL('../../src/bin/matchlog.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [...typescriptExecArgv(), script, 'club-create', '--name', 'Riverside', '--email', 'r@riverside.test', '--password-stdin', '--team', 'U14'],
    {
      env: { ...process.env, DATA_DIR: dataDir },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin.end('a password typed once\n');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 0, err);
  t.match(out, /clubId {2}[0-9a-z]{16}\nteamId {2}[0-9a-z]{10} {2}U14\n/);
});
