import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { carryErasures, type ErasureLedgerEntry, ErasureLedgerError, readErasureLedger } from '../platform/erasureLedger.js';
import { makePrivateDir } from '../platform/privateFiles.js';
import type { Config } from '../runtime/config.js';
import { BACKUP_NAMES, type BackupManifest, isEmptyFolder, servicePaths } from './backupManifest.js';
import type { CliCommand, CliIo } from './command.js';
import { emptyReadModels, existingReadModels, refuseReadModels } from './readModelsAhead.js';
import { reapplyErasures } from './reapplyErasures.js';
import { checkBackup, readManifest, Refused } from './restoreChecks.js';
import { discardStaged, putInPlace, type StagedFile, stageFile } from './restoreFiles.js';
import { endpointsChanged, previousLogFile, undoneByRestore } from './rollbackReport.js';
import { serviceConfig } from './stores.js';

const USAGE =
  'matchlog restore <backup folder> [--reapply-erasures <ledger>] [--previous <old DATA_DIR>] [--empty-read-models]\n' +
  '       matchlog restore --reapply-erasures <ledger>   (erase again, in the configured log, every match the ledger names)\n' +
  '  (same environment as the service; DATA_DIR must be empty; then start the service and run matchlog verify)';

interface Options {
  folder: string | undefined;
  ledger: string | undefined;
  previous: string | undefined;
  emptyReadModels: boolean;
}

function options(args: string[]): Options | null {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { 'reapply-erasures': { type: 'string' }, previous: { type: 'string' }, 'empty-read-models': { type: 'boolean' } },
    });
    if (positionals.length > 1 || (positionals.length === 0 && values['reapply-erasures'] === undefined)) return null;
    return { folder: positionals[0], ledger: values['reapply-erasures'], previous: values.previous, emptyReadModels: values['empty-read-models'] === true };
  } catch {
    return null;
  }
}

/** Everything checked, then copied beside its place, then the read models emptied (if asked), then renamed: a refusal changes nothing. */
async function restoreFiles(config: Config, folder: string, manifest: BackupManifest, emptyThem: boolean, io: CliIo): Promise<string[]> {
  const targets = servicePaths(config);
  const existing = await existingReadModels(config.readModelUrl);
  if (!emptyThem) refuseReadModels(existing, manifest.log.headPosition);
  makePrivateDir(config.dataDir);
  const staged: StagedFile[] = [];
  try {
    for (const file of manifest.files) {
      const target = targets[file.role];
      if (target === null) continue;
      makePrivateDir(dirname(target));
      // The role decides both names: the manifest cannot point a file at another place.
      staged.push(stageFile(join(folder, BACKUP_NAMES[file.role]), target, file.sha256, BACKUP_NAMES[file.role]));
    }
    if (emptyThem && existing !== null) {
      await emptyReadModels(existing.url);
      io.out('emptied the read models: the projections rebuild them from the restored log\n');
    } else if (existing !== null)
      io.out('the read models in place are behind the restored log and are kept: the projections catch up from their checkpoints\n');
    putInPlace(staged);
  } catch (error) {
    discardStaged(staged);
    throw error;
  }
  for (const file of manifest.files) {
    if (targets[file.role] !== null) continue;
    const why =
      file.role === 'read models'
        ? 'READ_MODEL_URL is not SQLite: the projections rebuild them from the log'
        : file.role === 'webhooks'
          ? "READ_MODEL_URL is MongoDB: the webhooks' state lives in its database (restore it with mongorestore)"
          : file.role === 'log signing key'
            ? 'LOG_SIGNING_KEY is set: it must be the key of this backup'
            : 'WRITE_TOKEN_KEY is set: it must be the key of this backup';
    io.out(`${file.name}: not restored (${why})\n`);
  }
  return manifest.files.filter((file) => targets[file.role] !== null).map((file) => file.role);
}

/** The restored log's head and the id of its event there (to tell the log the backup was taken from). */
async function restoredHead(logFile: string): Promise<{ head: number | null; id: string | null }> {
  const log = openSqliteEventStore(logFile);
  try {
    const head = await log.headPosition();
    const [event] = head === null ? [] : await log.readAll({ after: head - 1, maxCount: 1 });
    return { head, id: event?.id ?? null };
  } finally {
    await log.close();
  }
}

/** Says what the rollback undoes: listed from the replaced log when given, else in general. */
async function reportUndone(config: Config, manifest: BackupManifest, previous: string | null, headEventId: string | null, io: CliIo): Promise<void> {
  const since = `the backup's log head (position ${String(manifest.log.headPosition)}, taken ${manifest.createdAt})`;
  if (previous === null) {
    io.out(
      `the log is rolled back to ${since}: whatever was recorded after it is undone (uploads, erasures, app-key revocations, dashboard logouts); ` +
        'give --previous <old DATA_DIR> to list them\n',
    );
    return;
  }
  const { lines, others } = await undoneByRestore(previous, manifest.log.headPosition, headEventId);
  io.out(`the log is rolled back to ${since}; this undoes ${lines.length + others} event(s) of ${previous}:\n`);
  for (const line of lines) io.out(`  - ${line}\n`);
  io.out(`  - ${others} other event(s) (uploads, club changes)\n`);
  const webhooks = servicePaths(config).webhooks;
  if (webhooks === null || !manifest.files.some((file) => file.role === 'webhooks')) return;
  const endpoints = endpointsChanged(join(dirname(previous), BACKUP_NAMES.webhooks), webhooks);
  if (endpoints.length === 0) return;
  io.out('and the webhook endpoints go back to what they were:\n');
  for (const line of endpoints) io.out(`  - ${line}\n`);
}

/** The ledger to re-apply: the one named, else the configured one if it exists (e.g. ERASURE_LEDGER on another disk). */
function ledgerToApply(named: string | undefined, config: Config): { path: string; entries: ErasureLedgerEntry[] } | null {
  const path = named === undefined ? (existsSync(config.erasureLedger) ? config.erasureLedger : null) : resolve(named);
  if (path === null) return null;
  if (!existsSync(path)) throw new Refused(`the erasure ledger ${path} does not exist`);
  return { path, entries: readErasureLedger(path) };
}

async function reapply(config: Config, ledger: { path: string; entries: ErasureLedgerEntry[] }, io: CliIo): Promise<number> {
  io.out(`re-applying the erasure ledger ${ledger.path}:\n`);
  const unfinished = await reapplyErasures(config, io, ledger.entries);
  if (ledger.path !== config.erasureLedger) {
    const carried = carryErasures(ledger.entries, config.erasureLedger);
    if (carried > 0) io.out(`copied ${carried} erasure(s) into this service's ledger ${config.erasureLedger}\n`);
  }
  return unfinished === 0 ? 0 : 1;
}

export const restoreCommand: CliCommand = {
  name: 'restore',
  summary: 'restore a backup made by matchlog backup into an empty DATA_DIR, after checking every checksum, and re-apply the erasures made since',
  usage: USAGE,
  async run(args, io) {
    const parsed = options(args);
    if (parsed === null) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    const config = serviceConfig(io);
    if (config === null) return 2;
    try {
      if (parsed.folder === undefined) {
        const ledger = ledgerToApply(parsed.ledger, config);
        return ledger === null ? 1 : await reapply(config, ledger, io);
      }
      return await restoreBackup(config, { ...parsed, folder: parsed.folder }, io);
    } catch (error) {
      if (!(error instanceof Refused) && !(error instanceof ErasureLedgerError)) throw error;
      io.err(`matchlog restore: refused: ${error.message}; nothing was restored\n`);
      return 1;
    }
  },
};

async function restoreBackup(config: Config, parsed: Options & { folder: string }, io: CliIo): Promise<number> {
  const folder = resolve(parsed.folder);
  const targets = servicePaths(config);
  if (targets.log === null) {
    io.err(
      'matchlog restore: the log is on EventStoreDB: restore it with its own procedure (docs/operations.md), ' +
        'then run matchlog restore --reapply-erasures <ledger>; this command restores SQLite backups\n',
    );
    return 2;
  }
  const outside = [targets.log, targets['write-token key']].filter((path): path is string => path !== null && !path.startsWith(`${config.dataDir}/`));
  const occupied = [config.dataDir, ...outside].filter((path) => (path === config.dataDir ? !isEmptyFolder(path) : existsSync(path)));
  if (occupied.length > 0) {
    throw new Refused(
      `${occupied.join(', ')} ${occupied.length === 1 ? 'is' : 'are'} not empty; restore into an empty DATA_DIR (a restore never overwrites data)`,
    );
  }
  const manifest = readManifest(folder);
  checkBackup(folder, manifest);
  const ledger = ledgerToApply(parsed.ledger, config);
  const previous = parsed.previous === undefined ? null : previousLogFile(parsed.previous);
  const restored = await restoreFiles(config, folder, manifest, parsed.emptyReadModels, io);
  if (manifest.writeTokenKey === 'WRITE_TOKEN_KEY') io.out('the backup was taken with WRITE_TOKEN_KEY: start the service with the same key\n');
  if (manifest.logSigningKey === 'LOG_SIGNING_KEY') io.out('the backup was taken with LOG_SIGNING_KEY: start the service with the same key\n');
  if (manifest.logSigningKey === undefined)
    io.out('this backup predates carrying the log signing key: put the old DATA_DIR/log-signing.key back before starting, or auditors see a new key\n');
  const { head, id } = await restoredHead(targets.log);
  if (head !== manifest.log.headPosition) {
    io.err(`matchlog restore: the restored log ends at ${String(head)}, the manifest says ${String(manifest.log.headPosition)}\n`);
    return 1;
  }
  io.out(
    `restored ${restored.join(', ')} from ${folder} (taken ${manifest.createdAt}; ${manifest.log.events} events, log head ${String(head)}) ` +
      `into ${config.dataDir}; start the service, then run matchlog verify\n`,
  );
  let code = 0;
  try {
    await reportUndone(config, manifest, previous, id, io);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    io.err(`matchlog restore: restored, but cannot list what the rollback undoes: ${error.message}\n`);
    code = 1;
  }
  if (ledger === null) {
    io.out(
      'no erasure ledger was re-applied: a match erased after the backup is back in the log; ' +
        'run matchlog restore --reapply-erasures <ledger> (the old ERASURE_LEDGER, default the old DATA_DIR/erasures.ledger) before starting the service\n',
    );
    return code;
  }
  return Math.max(code, await reapply(config, ledger, io));
}
