import { copyFileSync, existsSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { makePrivateDir } from '../platform/privateFiles.js';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { openSqliteReadModel } from '../readmodel/sqliteReadModel.js';
import { serviceConfig } from './stores.js';
import { allProjections } from '../../projections/all.js';
import { BACKUP_NAMES, type BackupFile, type BackupManifest, type BackupRole, isEmptyFolder, MANIFEST, servicePaths, sha256File } from './backupManifest.js';
import type { CliCommand } from './command.js';

/**
 * Copies a live SQLite file with SQLite's online backup API, all pages in one step: one read
 * snapshot of the source, so the copy is consistent while the service goes on writing (in WAL
 * mode a reader blocks no writer). Steps of a few pages would restart whenever another process
 * writes between them.
 */
async function backupSqlite(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/** `path` with links resolved, for the part of it that exists (a backup folder may not exist yet). */
function realPath(path: string): string {
  return existsSync(path) ? realpathSync(path) : join(realPath(dirname(path)), basename(path));
}

/** Whether `folder` is `dir` or inside it, links resolved. */
function isInside(folder: string, dir: string): boolean {
  const path = relative(realPath(dir), realPath(folder));
  return path === '' || (path !== '..' && !path.startsWith('../') && !isAbsolute(path));
}

/** The log's head and size, and each projection's checkpoint, read from the copies. */
async function positionsOf(folder: string, hasReadModels: boolean): Promise<Pick<BackupManifest, 'log' | 'checkpoints'>> {
  const log = openSqliteEventStore(join(folder, BACKUP_NAMES.log));
  const headPosition = await log.headPosition();
  await log.close();
  // How many events, for the operator: the log's one table (src/eventstore/sqliteEventTable.ts).
  const db = new Database(join(folder, BACKUP_NAMES.log), { fileMustExist: true });
  const { events } = db.prepare<[], { events: number }>('SELECT count(*) AS events FROM events').get() ?? { events: 0 };
  db.close();
  if (!hasReadModels) return { log: { headPosition, events }, checkpoints: null };
  const readModel = openSqliteReadModel(join(folder, BACKUP_NAMES['read models']));
  const checkpoints: Record<string, number | null> = {};
  for (const projection of allProjections) checkpoints[projection.name] = await readModel.getCheckpoint(projection.name);
  await readModel.close();
  return { log: { headPosition, events }, checkpoints };
}

export const backupCommand: CliCommand = {
  name: 'backup',
  summary: 'take a consistent backup of the SQLite log, read models, webhooks and key files while the service runs, with a manifest of positions and checksums',
  usage: 'matchlog backup <empty or new folder>   (same environment as the service; restore with matchlog restore)',
  async run(args, io) {
    const [folderArg, ...rest] = args.filter((a) => !a.startsWith('-'));
    if (folderArg === undefined || rest.length > 0) {
      io.err(`usage: ${this.usage}\n`);
      return 2;
    }
    const config = serviceConfig(io);
    if (config === null) return 2;
    const paths = servicePaths(config);
    if (paths.log === null) {
      io.err(
        'matchlog backup: the log is on EventStoreDB: back it up with its own procedure (docs/operations.md, "Back it up"); this command copies SQLite files\n',
      );
      return 2;
    }
    if (!existsSync(paths.log)) {
      io.err(`matchlog backup: there is no log at ${paths.log}; check DATA_DIR and EVENT_STORE_URL\n`);
      return 1;
    }
    const folder = resolve(folderArg);
    if (isInside(folder, config.dataDir)) {
      io.err(
        `matchlog backup: ${folder} is inside DATA_DIR ${config.dataDir}: a backup must live apart from what it backs up ` +
          '(another disk or machine); give a folder outside it\n',
      );
      return 2;
    }
    if (!isEmptyFolder(folder)) {
      io.err(`matchlog backup: ${folder} is not empty; give a new or empty folder\n`);
      return 2;
    }
    // Owner-only, like DATA_DIR: a backup holds the key file, token and password hashes.
    makePrivateDir(folder);
    const started = performance.now();
    // Read models and webhooks first, then the log: their positions are then never beyond the copied log
    // (the webhooks read on from theirs after a restore: what the log got meanwhile is queued, none lost).
    const roles: BackupRole[] = [];
    for (const role of ['read models', 'webhooks'] as const) {
      const path = paths[role];
      if (path === null || !existsSync(path)) continue;
      await backupSqlite(path, join(folder, BACKUP_NAMES[role]));
      roles.push(role);
    }
    await backupSqlite(paths.log, join(folder, BACKUP_NAMES.log));
    roles.push('log');
    const keyFile = paths['write-token key'];
    if (keyFile !== null) {
      copyFileSync(keyFile, join(folder, BACKUP_NAMES['write-token key']));
      roles.push('write-token key');
    }
    // The key auditors pin (docs/auditing.md): a restore without it would sign under a new one.
    const logKeyFile = paths['log signing key'];
    if (logKeyFile !== null && existsSync(logKeyFile)) {
      copyFileSync(logKeyFile, join(folder, BACKUP_NAMES['log signing key']));
      roles.push('log signing key');
    }
    const positions = await positionsOf(folder, roles.includes('read models'));
    const files: BackupFile[] = [];
    for (const role of roles) {
      const path = join(folder, BACKUP_NAMES[role]);
      files.push({ name: BACKUP_NAMES[role], role, bytes: statSync(path).size, sha256: await sha256File(path) });
    }
    const manifest: BackupManifest = {
      format: 'matchlog-backup/1',
      createdAt: new Date().toISOString(),
      ...positions,
      files,
      writeTokenKey: keyFile === null ? 'WRITE_TOKEN_KEY' : 'file',
      ...(logKeyFile === null ? { logSigningKey: 'LOG_SIGNING_KEY' as const } : roles.includes('log signing key') ? { logSigningKey: 'file' as const } : {}),
    };
    // Written last, under its name only when whole: a folder without it is no backup.
    writeFileSync(join(folder, `${MANIFEST}.partial`), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(join(folder, `${MANIFEST}.partial`), join(folder, MANIFEST));
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    const parts = [
      roles.includes('read models') ? ', the read models' : '',
      roles.includes('webhooks') ? ', the webhooks' : '',
      keyFile === null ? '' : ', the write-token key',
    ];
    if (roles.includes('log signing key')) parts.push(', the log signing key');
    io.out(
      `backed up ${positions.log.events} events (log head ${String(positions.log.headPosition)})${parts.join('')} to ${folder}: ` +
        `${bytes} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    if (keyFile === null) io.out('the write-token key is WRITE_TOKEN_KEY: it is not in this backup; keep it in your secret store\n');
    if (logKeyFile === null) io.out('the log signing key is LOG_SIGNING_KEY: it is not in this backup; keep it in your secret store\n');
    if (!roles.includes('read models')) io.out('the read models are not in this backup: they are rebuilt from the log (or back up MongoDB with mongodump)\n');
    return 0;
  },
};
