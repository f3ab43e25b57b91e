import { existsSync, readFileSync } from 'node:fs';
import { isRecord } from './isRecord.js';

/** This install's version, from matchlog's package.json above this file (src/… or dist/src/…); 'unknown' without one. */
export function matchlogVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (!existsSync(file)) continue;
    const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isRecord(manifest) && manifest.name === 'matchlog' && typeof manifest.version === 'string') return manifest.version;
  }
  return 'unknown';
}
