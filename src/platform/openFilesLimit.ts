import { readFileSync } from 'node:fs';

/**
 * The process's soft limit on open file descriptors (`ulimit -n`), from /proc/self/limits on
 * Linux; null where it cannot be read (another system, or "unlimited").
 */
export function openFilesLimit(limitsFile = '/proc/self/limits'): number | null {
  let text: string;
  try {
    text = readFileSync(limitsFile, 'utf8');
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? null : Number(soft);
}

/**
 * Descriptors kept for everything but client connections: the listening socket, the stores'
 * files (SQLite database, WAL and shared memory, temporary files) or pools (MongoDB,
 * EventStoreDB), logs, a projection worker's pipes. An eighth of the limit, 64 to 1,024.
 */
const descriptorHeadroom = (limit: number) => Math.min(1024, Math.max(64, Math.floor(limit / 8)));

/** How many client connections fit under the limit with the headroom kept (at least 1). */
export const connectionBudget = (limit: number) => Math.max(1, limit - descriptorHeadroom(limit));
