import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir } from '../platform/privateFiles.js';
import type { Config } from './config.js';

/** A start-up failure told in one line that names what to fix (the process exits 1 after it). */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

const codeOf = (error: unknown) => (error instanceof Error && 'code' in error && error.code !== undefined ? ` (${String(error.code)})` : '');
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** `error` in one line: its code and the first line of its message. */
export const oneLine = (error: unknown) => {
  const code = error instanceof Error && 'code' in error && error.code !== undefined ? `${String(error.code)}: ` : '';
  return `${code}${firstLine(error)}`;
};

/** Runs `open`; a failure becomes a StartupError: "<what> cannot be opened (<code>): <message>; <fix>". */
export async function opening<T>(what: string, fix: string, open: () => Promise<T> | T): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw new StartupError(`${what} cannot be opened${codeOf(error)}: ${firstLine(error)}; ${fix}`, { cause: error });
  }
}

/**
 * DATA_DIR, when this process keeps anything in it (SQLite stores, the write-token key file),
 * must be a folder this user can write: created when missing, checked with a file written and
 * removed, so that an unwritable one is named at start rather than by a store's own error.
 */
export function checkDataDir(config: Pick<Config, 'dataDir' | 'eventStoreUrl' | 'readModelUrl' | 'writeTokenKey'>, { keyFileNeeded = true } = {}): void {
  const used = (keyFileNeeded && config.writeTokenKey === null) || config.eventStoreUrl.startsWith('sqlite:') || config.readModelUrl.startsWith('sqlite:');
  if (!used) return;
  const probe = join(config.dataDir, `.matchlog-write-check-${process.pid}`);
  try {
    // Created owner-only (docs/operations.md): it holds hashes, sessions and the key file.
    makePrivateDir(config.dataDir);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw new StartupError(
      `DATA_DIR ${config.dataDir} is not a writable folder${codeOf(error)}: ${firstLine(error)}; create it, let this user write to it, or set DATA_DIR`,
      { cause: error },
    );
  }
}

/** Why the server could not listen on host:port, and what to change, in one line. */
export function listenFailure(host: string, port: number, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : null;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where} (EADDRINUSE): the port is taken by another process; stop it, or set PORT to a free port`;
  if (code === 'EACCES') return `cannot listen on ${where} (EACCES): this user may not take port ${port}; set PORT to 1024 or above`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where} (EADDRNOTAVAIL): ${host} is not an address of this machine; set HOST`;
  return `cannot listen on ${where}${code ? ` (${code})` : ''}: ${oneLine(error)}; set PORT or HOST to a free address`;
}
