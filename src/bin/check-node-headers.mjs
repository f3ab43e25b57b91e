#!/usr/bin/env node
// Run before npm ci (it needs nothing installed): better-sqlite3 builds from source when no
// prebuilt binary fits, and node-gyp then needs Node's headers. Where it cannot download them it
// fails with a "proxy" or network message that never mentions headers; this says beforehand where
// the fix is. Not a preinstall: npm 7+ runs a root preinstall after the dependencies build.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const hasHeaders = (dir) => existsSync(join(dir, 'include', 'node', 'node.h'));

/** What to tell the person installing, or null when the headers are where node-gyp looks. */
export function headersAdvice(env, execPath = process.execPath, version = process.versions.node) {
  const nodedir = env.npm_config_nodedir;
  if (nodedir) {
    return hasHeaders(nodedir)
      ? null
      : `matchlog: npm_config_nodedir=${nodedir} has no include/node/node.h: the native build of better-sqlite3 will fail. ` +
          'Point npm_config_nodedir at a Node install with its headers (README, "Set-up on a fresh machine").';
  }
  const devdir = env.npm_config_devdir || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'node-gyp');
  if (hasHeaders(join(devdir, version))) return null;
  const prefix = dirname(dirname(execPath));
  const fix = hasHeaders(prefix)
    ? `export npm_config_nodedir=${prefix} (this Node's own headers), then run npm ci again`
    : "install Node's headers (the Node.js tarball, or your distribution's nodejs-dev package) and set npm_config_nodedir to the folder holding include/node";
  return (
    'matchlog: if npm ci fails to build better-sqlite3 with a "proxy" or network error, ' +
    `node-gyp could not download Node's headers: ${fix} (README, "Set-up on a fresh machine").`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const advice = headersAdvice(process.env);
  if (advice !== null) process.stderr.write(`${advice}\n`);
}
