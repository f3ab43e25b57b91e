#!/usr/bin/env node
// `npm start`: runs the TypeScript build only when a source is newer than the build, so a current
// build starts the server at once (tsc takes 10–15 s). Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: sources, assets and the settings that change its output. */
const INPUTS = ['src', 'projections', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** Written at the end of every `npm run build` (`--built`): tsc leaves an output file it would write unchanged as it was. */
const OUTPUT = 'dist/.built';

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  let found = { path, mtimeMs: 0 };
  for (const name of readdirSync(path)) {
    const inner = newest(join(path, name));
    if (inner.mtimeMs > found.mtimeMs) found = inner;
  }
  return found;
}

/** Why `root` needs a build (a sentence), or null when its build is newer than every input. */
export function staleReason(root) {
  const output = join(root, OUTPUT);
  if (!existsSync(output)) return `${OUTPUT} is missing`;
  const built = statSync(output).mtimeMs;
  for (const input of INPUTS) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    const latest = newest(path);
    if (latest.mtimeMs > built) return `${relative(root, latest.path)} is newer than the build`;
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (process.argv.includes('--built')) {
    writeFileSync(join(root, OUTPUT), `${new Date().toISOString()}\n`);
    process.exit(0);
  }
  const reason = staleReason(root);
  if (reason !== null) {
    process.stderr.write(`building (${reason})\n`);
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    process.exitCode = build.status ?? 1;
  }
}
