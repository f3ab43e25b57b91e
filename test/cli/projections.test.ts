import t from 'tap';
import type { CliIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/commands.js';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cliIo: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text), env };
  return { cliIo, out, err };
}

t.test('matchlog projections refuses bad options and configuration with one line, before starting', async (t) => {
  const badOption = io();
  t.equal(await runCli(['projections', '--status-interval', 'soon'], badOption.cliIo), 2);
  t.match(badOption.err.join(''), /--status-interval must be a positive number of seconds/);

  const badConfig = io({ READ_MODEL_URL: 'redis://cache/0' });
  t.equal(await runCli(['projections'], badConfig.cliIo), 2);
  t.match(badConfig.err.join(''), /^invalid configuration: READ_MODEL_URL must start with sqlite: or mongodb: or mongodb\+srv:\n$/);

  const noKeyNeeded = io({ EVENT_STORE_URL: 'esdb://127.0.0.1:1?tls=false', READ_MODEL_URL: 'redis://x' });
  await runCli(['projections'], noKeyNeeded.cliIo);
  t.notMatch(noKeyNeeded.err.join(''), /WRITE_TOKEN_KEY/, 'the worker needs no WRITE_TOKEN_KEY, even with EventStoreDB');

  const help = io();
  t.equal(await runCli(['projections', '--help'], help.cliIo), 0);
  t.match(help.out.join(''), /usage: matchlog projections/);
});
