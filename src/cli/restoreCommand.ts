import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { openSqliteEventStore } from '../eventstore/sqliteEventStore.js';
import { serviceConfig } from './stores.js';
import { type BackupManifest, isEmptyFolder, MANIFEST, servicePaths, sha256File } from './backupManifest.js';
import type { CliCommand } from './command.js';

const ManifestShape = Type.Object({
  format: Type.Literal('matchlog-backup/1'),
  createdAt: Type.String(),
  log: Type.Object({ headPosition: Type.Union([Type.Integer(), Type.Null()]), events: Type.Integer() }),
  checkpoints: Type.Union([Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()])), Type.Null()]),
  files: Type.Array(
    Type.Object({
      name: Type.Union([Type.Literal('events.sqlite'), Type.Literal('readmodel.sqlite'), Type.Literal('write-token.key')]),
      role: Type.Union([Type.Literal('log'), Type.Literal('read models'), Type.Literal('write-token key')]),
      bytes: Type.Integer(),
      sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    }),
  ),
  writeTokenKey: Type.Union([Type.Literal('file'), Type.Literal('WRITE_TOKEN_KEY')]),
});

/** Thrown when the backup must not be restored: the message says why, and nothing was written. */
class Refused extends Error {}

function readManifest(folder: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8'));
  } catch (error) {
    throw new Refused(
      `${join(folder, MANIFEST)} cannot be read (${error instanceof Error ? error.message : String(error)}): this is not a complete matchlog backup`,
    );
  }
  if (!Value.Check(ManifestShape, value)) throw new Refused(`${join(folder, MANIFEST)} is damaged (not the manifest matchlog backup writes)`);
  return value;
}

/** Every file as the manifest describes it (size, then SHA-256), and the log's checkpoints consistent. */
async function checkBackup(folder: string, manifest: BackupManifest): Promise<void> {
  if (!manifest.files.some((file) => file.role === 'log')) throw new Refused('the backup holds no log');
  for (const file of manifest.files) {
    const path = join(folder, file.name);
    if (!existsSync(path)) throw new Refused(`${file.name} is missing from the backup`);
    if (statSync(path).size !== file.bytes || (await sha256File(path)) !== file.sha256) {
      throw new Refused(`${file.name} does not match its checksum in the manifest: the backup is damaged`);
    }
  }
  const head = manifest.log.headPosition ?? 0;
  const ahead = Object.entries(manifest.checkpoints ?? {}).filter(([, checkpoint]) => (checkpoint ?? 0) > head);
  if (ahead.length > 0) throw new Refused(`the read models are ahead of the log (${ahead.map(([name]) => name).join(', ')}): the backup is inconsistent`);
}

export const restoreCommand: CliCommand = {
  name: 'restore',
  summary: 'restore a backup made by matchlog backup into an empty DATA_DIR, after checking every checksum',
  usage: 'matchlog restore <backup folder>   (same environment as the service; DATA_DIR must be empty; then start the service and run matchlog verify)',
  async run(args, io) {
    const [folderArg, ...rest] = args.filter((a) => !a.startsWith('-'));
    if (folderArg === undefined || rest.length > 0) {
      io.err(`usage: ${this.usage}\n`);
      return 2;
    }
    const config = serviceConfig(io);
    if (config === null) return 2;
    const folder = resolve(folderArg);
    const targets = servicePaths(config);
    if (targets.log === null) {
      io.err('matchlog restore: the log is on EventStoreDB: restore it with its own procedure (docs/operations.md); this command restores SQLite backups\n');
      return 2;
    }
    const occupied = [
      config.dataDir,
      ...Object.values(targets).filter((path): path is string => path !== null && !path.startsWith(`${config.dataDir}/`)),
    ].filter((path) => (path === config.dataDir ? !isEmptyFolder(path) : existsSync(path)));
    if (occupied.length > 0) {
      io.err(
        `matchlog restore: refused: ${occupied.join(', ')} ${occupied.length === 1 ? 'is' : 'are'} not empty; ` +
          'restore into an empty DATA_DIR (a restore never overwrites data)\n',
      );
      return 1;
    }
    let manifest: BackupManifest;
    try {
      manifest = readManifest(folder);
      await checkBackup(folder, manifest);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      io.err(`matchlog restore: refused: ${error.message}; nothing was restored\n`);
      return 1;
    }
    const restored: string[] = [];
    for (const file of manifest.files) {
      const target = targets[file.role];
      if (target === null) {
        io.out(
          `${file.name}: not restored (${
            file.role === 'read models'
              ? 'READ_MODEL_URL is not SQLite: a projection worker rebuilds them from the log'
              : 'WRITE_TOKEN_KEY is set: it must be the key of this backup'
          })\n`,
        );
        continue;
      }
      mkdirSync(dirname(target), { recursive: true });
      // Copied beside its place, then renamed: a restore cut short leaves no half file under the real name.
      copyFileSync(join(folder, file.name), `${target}.restoring`);
      if (file.role === 'write-token key') chmodSync(`${target}.restoring`, 0o600);
      renameSync(`${target}.restoring`, target);
      restored.push(file.role);
    }
    if (manifest.writeTokenKey === 'WRITE_TOKEN_KEY') io.out('the backup was taken with WRITE_TOKEN_KEY: start the service with the same key\n');
    // The restored log opens and ends where the manifest says.
    const log = openSqliteEventStore(targets.log);
    const head = await log.headPosition();
    await log.close();
    if (head !== manifest.log.headPosition) {
      io.err(`matchlog restore: the restored log ends at ${String(head)}, the manifest says ${String(manifest.log.headPosition)}\n`);
      return 1;
    }
    io.out(
      `restored ${restored.join(', ')} from ${folder} (taken ${manifest.createdAt}; ${manifest.log.events} events, log head ${String(head)}) ` +
        `into ${config.dataDir}; start the service, then run matchlog verify\n`,
    );
    return 0;
  },
};
