import { existsSync, readFileSync } from 'node:fs';

/** This install's version, from matchlog's package.json above this file (src/… or dist/src/…); 'unknown' without one. */
export function matchlogVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === 'matchlog' && typeof manifest.version === 'string') return manifest.version;
  }
  return 'unknown';
}
