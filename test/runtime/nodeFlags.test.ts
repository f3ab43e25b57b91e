import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { serverNodeFlags } from '../../src/bin/node-flags.mjs';

const script = new URL('../../src/bin/node-flags.mjs', import.meta.url);

t.test("V8's helper threads leave a core to the main thread, up to node's own four", async (t) => {
  t.same(serverNodeFlags(1), ['--v8-pool-size=1'], 'one core: one helper still (node needs one)');
  t.same(serverNodeFlags(2), ['--v8-pool-size=1']);
  t.same(serverNodeFlags(4), ['--v8-pool-size=3']);
  t.same(serverNodeFlags(5), [], "five cores: node's four helpers leave one");
  t.same(serverNodeFlags(64), []);
});

t.test('the script prints the flags for a command line, and node takes them', async (t) => {
  const printed = execFileSync(process.execPath, [script.pathname], { encoding: 'utf8' }).trim();
  t.equal(printed, serverNodeFlags().join(' '));
  const flags = printed.split(' ').filter(Boolean);
  t.equal(execFileSync(process.execPath, [...flags, '-p', '1 + 1'], { encoding: 'utf8' }).trim(), '2', `node ${printed} runs`);
});

// npm start's script is pinned by test/cli/installAndStart.test.ts.
t.test('the compose image starts the server with them', async (t) => {
  t.match(
    readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'),
    /exec node \$\(node src\/bin\/node-flags\.mjs\) dist\/src\/bin\/server\.js/,
  );
});
