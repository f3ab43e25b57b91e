import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { staleReason } from '../../src/bin/build-if-stale.mjs';
import { headersAdvice } from '../../src/bin/check-node-headers.mjs';
import { tempDataDir } from '../helpers/testApp.js';

const script = (name: string) => new URL(`../../src/bin/${name}`, import.meta.url).pathname;

/** A file at `path` under `root` whose modification time is `seconds` after the epoch. */
function file(root: string, path: string, seconds: number) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), 'x');
  utimesSync(join(root, path), seconds, seconds);
}

t.test('npm start skips the build when the build is newer than every source (src/bin/build-if-stale.mjs)', async (t) => {
  const root = tempDataDir(t);
  file(root, 'src/bin/server.ts', 1000);
  file(root, 'projections/all.ts', 1000);
  file(root, 'package.json', 1000);
  t.equal(staleReason(root), 'dist/.built is missing', 'never built: build');
  file(root, 'dist/.built', 2000);
  t.equal(staleReason(root), null, 'built after every source: start at once');
  file(root, 'src/http/api/matchApi.ts', 3000);
  t.equal(staleReason(root), 'src/http/api/matchApi.ts is newer than the build', 'a source edited since: build, naming it');
  file(root, 'dist/.built', 4000);
  file(root, 'tsconfig.build.json', 5000);
  t.equal(staleReason(root), 'tsconfig.build.json is newer than the build', 'the build settings count too');
  t.match(
    execFileSync('node', ['-p', "require('./package.json').scripts.start"], { encoding: 'utf8' }),
    /^node src\/bin\/build-if-stale\.mjs && node \$\(node src\/bin\/node-flags\.mjs\) dist\/src\/bin\/server\.js\n$/,
    'npm start runs the check, not tsc, then the server with its node flags',
  );
  t.match(
    execFileSync('node', ['-p', "require('./package.json').scripts.build"], { encoding: 'utf8' }),
    /&& node src\/bin\/build-if-stale\.mjs --built\n$/,
    'every build leaves its mark',
  );
});

t.test('the headers check, run before npm ci, names npm_config_nodedir where node-gyp would fail for want of headers', async (t) => {
  const withHeaders = tempDataDir(t);
  mkdirSync(join(withHeaders, 'include', 'node'), { recursive: true });
  writeFileSync(join(withHeaders, 'include', 'node', 'node.h'), '');
  const empty = tempDataDir(t);
  t.equal(headersAdvice({ npm_config_nodedir: withHeaders }), null, 'npm_config_nodedir with headers: nothing to say');
  t.match(
    headersAdvice({ npm_config_nodedir: empty }),
    new RegExp(`npm_config_nodedir=${empty} has no include/node/node.h`),
    'a nodedir without headers is named',
  );
  t.equal(
    headersAdvice({ npm_config_devdir: join(withHeaders, '..') }, '/opt/node/bin/node', withHeaders.split('/').at(-1)),
    null,
    "headers in node-gyp's cache: nothing to say",
  );
  t.match(
    headersAdvice({ npm_config_devdir: empty }, join(withHeaders, 'bin', 'node')),
    new RegExp(`"proxy" or network error, node-gyp could not download Node's headers: export npm_config_nodedir=${withHeaders} \\(this Node's own headers\\)`),
    "no headers downloaded: the pointer names npm_config_nodedir and this Node's own headers",
  );
  t.match(
    headersAdvice({ npm_config_devdir: empty }, join(empty, 'bin', 'node')),
    /install Node's headers .* set npm_config_nodedir/,
    'no local headers either: how to get them',
  );

  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [script('check-node-headers.mjs')], { env: { PATH: process.env.PATH ?? '', HOME: empty, ...env }, encoding: 'utf8' });
  const failing = run({ npm_config_nodedir: empty });
  t.equal(failing.status, 0, 'the script itself exits 0: a fresh machine still installs');
  t.match(failing.stderr, /npm_config_nodedir/, 'and prints the pointer');
  const fine = run({ npm_config_nodedir: withHeaders });
  t.same([fine.status, fine.stderr], [0, ''], 'silent where the build will find its headers');
  t.equal(
    execFileSync('node', ['-p', "require('./package.json').scripts.preinstall"], { encoding: 'utf8' }),
    'undefined\n',
    'not a preinstall: npm 7 and later run a root preinstall after the dependencies build, too late to print',
  );
  t.match(
    readFileSync(new URL('../../README.md', import.meta.url), 'utf8'),
    /`node src\/bin\/check-node-headers\.mjs` needs nothing installed: run it before\n`npm ci`/,
    'the README says to run it before npm ci',
  );
});
