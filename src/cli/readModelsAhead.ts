import { existsSync, rmSync } from 'node:fs';
import { allProjections } from '../../projections/all.js';
import type { Position } from '../domain/logPosition.js';
import { redactUrl } from '../platform/redactUrl.js';
import { openReadModel } from '../readmodel/openReadModel.js';
import { Refused } from './restoreChecks.js';

/** The read models a restore finds in place: where, and each projection's checkpoint. */
export interface ExistingReadModels {
  url: string;
  checkpoints: { projection: string; checkpoint: Position | null }[];
}

const sqliteFile = (url: string) => (url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null);

/** The checkpoints of the read models READ_MODEL_URL names; null when there are none (no SQLite file yet). */
export async function existingReadModels(url: string): Promise<ExistingReadModels | null> {
  const file = sqliteFile(url);
  if (file !== null && !existsSync(file)) return null;
  const readModel = await openReadModel(url);
  try {
    const checkpoints = [];
    for (const projection of allProjections) checkpoints.push({ projection: projection.name, checkpoint: await readModel.getCheckpoint(projection.name) });
    return { url, checkpoints };
  } finally {
    await readModel.close();
  }
}

/**
 * Projections whose read models are ahead of the restored log's head: each would skip the
 * events appended after the restore until the log reached its checkpoint again (issue 58, N3).
 */
function aheadOf(existing: ExistingReadModels, head: Position | null): { projection: string; checkpoint: Position }[] {
  return existing.checkpoints.flatMap(({ projection, checkpoint }) => (checkpoint !== null && checkpoint > (head ?? 0) ? [{ projection, checkpoint }] : []));
}

/**
 * Refuses (unless the operator asked to empty them) read models a restore must not keep: any
 * SQLite read-model file (the backup's own copy, or a replay, takes its place) and read models
 * elsewhere that are ahead of the restored log. Read models behind it are kept: they catch up.
 */
export function refuseReadModels(existing: ExistingReadModels | null, head: Position | null): void {
  if (existing === null) return;
  const where = redactUrl(existing.url);
  const ahead = aheadOf(existing, head);
  const fix = 'restore with --empty-read-models to empty them (the projections rebuild them from the restored log), or point READ_MODEL_URL at empty ones';
  if (ahead.length > 0) {
    const which = ahead.map(({ projection, checkpoint }) => `${projection} at ${checkpoint}`).join(', ');
    throw new Refused(
      `the read models at ${where} are ahead of the restored log (head ${String(head)}): ${which}; ` +
        `their projections would skip every event appended after the restore up to there; ${fix}`,
    );
  }
  if (sqliteFile(existing.url) !== null) throw new Refused(`the read models at ${where} already exist (a restore never overwrites data); ${fix}`);
}

/** Empties the read models so that the projections rebuild them from the restored log: a SQLite file is removed, MongoDB's are reset. */
export async function emptyReadModels(url: string): Promise<void> {
  const file = sqliteFile(url);
  if (file !== null) {
    for (const path of [file, `${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
    return;
  }
  const readModel = await openReadModel(url);
  try {
    // One atomic step per projection, as `matchlog rebuild --start-over` does.
    for (const projection of allProjections) await readModel.reset(projection.name, projection.collections);
  } finally {
    await readModel.close();
  }
}
