import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { clubIdOfStream } from '../domain/clubIds.js';
import { decodeClubEvent } from '../domain/clubEvents.js';
import type { Position } from '../domain/logPosition.js';
import { matchIdOfStream } from '../domain/matchId.js';
import type { RecordedEvent } from '../eventstore/eventStore.js';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { Refused } from './restoreChecks.js';

const BATCH = 1000;

/** A log file, given as itself or as the DATA_DIR that holds it. */
export function previousLogFile(path: string): string {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'events.sqlite') : path;
  if (!existsSync(file)) throw new Refused(`--previous ${path}: there is no log there (give the old DATA_DIR or its events.sqlite)`);
  return file;
}

/** One line per thing the log recorded after `head` that a rollback to `head` undoes. */
function describe(event: RecordedEvent): string | null {
  const matchId = matchIdOfStream(event.streamId);
  if (event.type === 'MatchErased' && matchId !== null) return `the erasure of match ${matchId} (${event.recordedAt})`;
  const clubId = clubIdOfStream(event.streamId);
  if (clubId === null) return null;
  const club = decodeClubEvent(event.type, event.data);
  if (club?.type === 'AppKeyRevoked') return `the revocation of club ${clubId}'s app key ${club.data.keyId} (${club.data.revokedAt}): revoke it again`;
  if (club?.type === 'AdminLoggedOut') return `club ${clubId}'s dashboard logout (${club.data.at}): sessions issued before it are valid again; log out again`;
  return null;
}

/**
 * What restoring a backup whose log ends at `head` undoes, read from the log it replaces (which
 * must hold the same event at `head`, or it is not the log the backup was taken from): every
 * erasure, app-key revocation and dashboard logout after it, and how many other events.
 */
export async function undoneByRestore(previousLog: string, head: Position | null, headEventId: string | null): Promise<{ lines: string[]; others: number }> {
  const log = openSqliteEventStore(previousLog);
  try {
    if (head !== null) {
      const [atHead] = await log.readAll({ after: head - 1, maxCount: 1 });
      if (atHead?.position !== head || atHead.id !== headEventId) {
        throw new Refused(`--previous ${previousLog} is not the log this backup was taken from (its event at ${head} differs)`);
      }
    }
    const lines: string[] = [];
    let others = 0;
    for (let after = head, batch = await log.readAll({ after, maxCount: BATCH }); batch.length > 0; batch = await log.readAll({ after, maxCount: BATCH })) {
      for (const event of batch) {
        const line = describe(event);
        if (line === null) others += 1;
        else lines.push(line);
      }
      after = batch.at(-1)?.position ?? after;
    }
    return { lines, others };
  } finally {
    await log.close();
  }
}

interface EndpointRow {
  endpoint_id: string;
  club_id: string;
  url: string;
}

/** A webhooks file's endpoints (src/webhooks/sqliteWebhookStore.ts), read only; none when there is no file. */
function endpointsIn(file: string): Map<string, EndpointRow> {
  if (!existsSync(file)) return new Map();
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return new Map(
      db
        .prepare<[], EndpointRow>('SELECT endpoint_id, club_id, url FROM endpoints')
        .all()
        .map((row) => [row.endpoint_id, row]),
    );
  } finally {
    db.close();
  }
}

/** One line per webhook endpoint the restore takes away (added since the backup) or brings back (removed since). */
export function endpointsChanged(previousFile: string, restoredFile: string): string[] {
  // An older DATA_DIR without the file says nothing of what changed since.
  if (!existsSync(previousFile)) return [];
  const before = endpointsIn(previousFile);
  const after = endpointsIn(restoredFile);
  const describeEndpoint = (row: EndpointRow) => `club ${row.club_id}'s webhook endpoint ${row.endpoint_id} (${row.url})`;
  return [
    ...[...before.values()]
      .filter((row) => !after.has(row.endpoint_id))
      .map((row) => `${describeEndpoint(row)}, added after the backup, is gone: add it again`),
    ...[...after.values()]
      .filter((row) => !before.has(row.endpoint_id))
      .map((row) => `${describeEndpoint(row)}, removed after the backup, is back: remove it again`),
  ];
}
