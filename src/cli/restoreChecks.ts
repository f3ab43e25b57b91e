import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { BACKUP_NAMES, type BackupManifest, MANIFEST } from './backupManifest.js';

const ManifestShape = Type.Object({
  format: Type.Literal('matchlog-backup/1'),
  createdAt: Type.String(),
  log: Type.Object({ headPosition: Type.Union([Type.Integer(), Type.Null()]), events: Type.Integer() }),
  checkpoints: Type.Union([Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()])), Type.Null()]),
  files: Type.Array(
    Type.Object({
      name: Type.Union([
        Type.Literal('events.sqlite'),
        Type.Literal('readmodel.sqlite'),
        Type.Literal('webhooks.sqlite'),
        Type.Literal('write-token.key'),
        Type.Literal('log-signing.key'),
      ]),
      role: Type.Union([
        Type.Literal('log'),
        Type.Literal('read models'),
        Type.Literal('webhooks'),
        Type.Literal('write-token key'),
        Type.Literal('log signing key'),
      ]),
      bytes: Type.Integer(),
      sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    }),
  ),
  writeTokenKey: Type.Union([Type.Literal('file'), Type.Literal('WRITE_TOKEN_KEY')]),
  logSigningKey: Type.Optional(Type.Union([Type.Literal('file'), Type.Literal('LOG_SIGNING_KEY')])),
});

/** Thrown when something must not be restored: the message says why, and nothing was written. */
export class Refused extends Error {}

/**
 * The backup's manifest, with each file bound to its role: a role's file always has the role's
 * own name (BACKUP_NAMES) and no role appears twice, so the role alone decides where a file goes.
 */
export function readManifest(folder: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8'));
  } catch (error) {
    throw new Refused(
      `${join(folder, MANIFEST)} cannot be read (${error instanceof Error ? error.message : String(error)}): this is not a complete matchlog backup`,
    );
  }
  if (!Value.Check(ManifestShape, value)) throw new Refused(`${join(folder, MANIFEST)} is damaged (not the manifest matchlog backup writes)`);
  const seen = new Set<string>();
  for (const file of value.files) {
    if (file.name !== BACKUP_NAMES[file.role]) {
      throw new Refused(
        `the manifest names ${file.name} as the ${file.role}, which is always ${BACKUP_NAMES[file.role]}: the manifest is not one matchlog wrote`,
      );
    }
    if (seen.has(file.role)) throw new Refused(`the manifest names the ${file.role} twice: the manifest is not one matchlog wrote`);
    seen.add(file.role);
  }
  return value;
}

/** Every file is there, a regular file (not a link) of the manifest's size; the checksums are checked as the files are copied. */
export function checkBackup(folder: string, manifest: BackupManifest): void {
  if (!manifest.files.some((file) => file.role === 'log')) throw new Refused('the backup holds no log');
  for (const file of manifest.files) {
    let stat;
    try {
      stat = lstatSync(join(folder, file.name));
    } catch {
      throw new Refused(`${file.name} is missing from the backup`);
    }
    if (!stat.isFile()) throw new Refused(`${file.name} in the backup is not a regular file (a link?)`);
    if (stat.size !== file.bytes) throw new Refused(`${file.name} does not match its checksum in the manifest: the backup is damaged`);
  }
  const head = manifest.log.headPosition ?? 0;
  const ahead = Object.entries(manifest.checkpoints ?? {}).filter(([, checkpoint]) => (checkpoint ?? 0) > head);
  if (ahead.length > 0) throw new Refused(`the read models are ahead of the log (${ahead.map(([name]) => name).join(', ')}): the backup is inconsistent`);
}
