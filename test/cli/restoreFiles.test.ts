import { cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { checkDataDir } from '../../src/runtime/startupFailure.js';
import { runMatchlog } from '../helpers/cli.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startServerProcess } from '../helpers/serverProcess.js';
import { json, tempDataDir } from '../helpers/testApp.js';

/** One small backup, shared by the tests below: each copies it before changing anything. */
async function oneBackup(t: Test): Promise<{ source: string; backup: string }> {
  const source = tempDataDir(t, 'matchlog-live-');
  const live = await startServerProcess({ DATA_DIR: source });
  const body = JSON.stringify({ ...(JSON.parse(fixtureText({ seed: 5 })) as object), id: 'one' });
  t.equal((await fetch(`${live.url}/api/matches`, { method: 'POST', headers: json, body })).status, 201);
  live.child.kill('SIGTERM');
  await live.exited;
  const backup = join(tempDataDir(t, 'matchlog-backup-'), 'backup');
  t.equal((await runMatchlog(['backup', backup], { DATA_DIR: source })).code, 0);
  return { source, backup };
}

const copyOf = (t: Test, backup: string) => {
  const copy = join(tempDataDir(t, 'matchlog-copy-'), 'backup');
  cpSync(backup, copy, { recursive: true });
  return copy;
};
const restoringFiles = (dir: string) => readdirSync(dir).filter((name) => name.includes('.restoring'));

t.test('restore and backup files are safe', async (t) => {
  const { source, backup } = await oneBackup(t);

  t.test('a planted <target>.restoring symlink is not followed: the restore is refused and its target unchanged', async (t) => {
    const elsewhere = tempDataDir(t, 'matchlog-readmodels-');
    const victim = join(tempDataDir(t, 'matchlog-victim-'), 'precious');
    writeFileSync(victim, 'not yours to overwrite');
    symlinkSync(victim, join(elsewhere, 'readmodel.sqlite.restoring'));
    const target = tempDataDir(t, 'matchlog-target-');
    const refused = await runMatchlog(['restore', backup], { DATA_DIR: target, READ_MODEL_URL: `sqlite:${join(elsewhere, 'readmodel.sqlite')}` });
    t.equal(refused.code, 1);
    t.match(refused.stderr, /^matchlog restore: refused: .*readmodel\.sqlite\.restoring already exists \(left by an earlier restore, or planted\)/);
    t.equal(readFileSync(victim, 'utf8'), 'not yours to overwrite');
    t.same(readdirSync(target), [], 'nothing restored');
  });

  t.test('a manifest naming a file for the wrong role is refused', async (t) => {
    const swapped = copyOf(t, backup);
    const manifest = JSON.parse(readFileSync(join(swapped, 'manifest.json'), 'utf8')) as { files: { role: string }[] };
    const log = manifest.files.find((file) => file.role === 'log');
    const key = manifest.files.find((file) => file.role === 'write-token key');
    if (log === undefined || key === undefined) throw new Error('the backup has a log and a key');
    [log.role, key.role] = [key.role, log.role];
    writeFileSync(join(swapped, 'manifest.json'), JSON.stringify(manifest));
    const target = tempDataDir(t, 'matchlog-target-');
    const refused = await runMatchlog(['restore', swapped], { DATA_DIR: target });
    t.equal(refused.code, 1);
    t.match(refused.stderr, /^matchlog restore: refused: the manifest names events\.sqlite as the write-token key, which is always write-token\.key: /);
    t.same(readdirSync(target), []);
  });

  t.test('a failed restore leaves no temporary file', async (t) => {
    const damaged = copyOf(t, backup);
    // The key is the last file copied: the read models and the log are staged when it fails.
    const key = readFileSync(join(damaged, 'write-token.key'));
    key[0]! ^= 0x01;
    writeFileSync(join(damaged, 'write-token.key'), key);
    const elsewhere = tempDataDir(t, 'matchlog-readmodels-');
    const target = tempDataDir(t, 'matchlog-target-');
    const refused = await runMatchlog(['restore', damaged], { DATA_DIR: target, READ_MODEL_URL: `sqlite:${join(elsewhere, 'readmodel.sqlite')}` });
    t.equal(refused.code, 1);
    t.match(refused.stderr, /write-token\.key does not match its checksum in the manifest: the backup is damaged; nothing was restored/);
    t.same(readdirSync(target), [], 'no temporary file in DATA_DIR');
    t.same(restoringFiles(elsewhere), [], 'none beside the read models');
  });

  t.test('DATA_DIR is created 0700, by the server and by a restore', async (t) => {
    const made = join(tempDataDir(t, 'matchlog-parent-'), 'data');
    checkDataDir({ dataDir: made, eventStoreUrl: `sqlite:${join(made, 'events.sqlite')}`, readModelUrl: 'sqlite:x', writeTokenKey: null });
    t.equal(statSync(made).mode & 0o777, 0o700, 'at start');
    const restoredDir = join(tempDataDir(t, 'matchlog-parent-'), 'data');
    const restored = await runMatchlog(['restore', backup], { DATA_DIR: restoredDir });
    t.equal(restored.code, 0, restored.stderr);
    t.equal(statSync(restoredDir).mode & 0o777, 0o700, 'by a restore');
    const folder = join(tempDataDir(t, 'matchlog-parent-'), 'backup');
    t.equal((await runMatchlog(['backup', folder], { DATA_DIR: restoredDir })).code, 0);
    t.equal(statSync(folder).mode & 0o777, 0o700, 'a backup folder too');
  });

  t.test('a backup into a folder inside DATA_DIR is refused with one line', async (t) => {
    const inside = await runMatchlog(['backup', join(source, 'backups', 'today')], { DATA_DIR: source });
    t.equal(inside.code, 2);
    t.match(inside.stderr, /^matchlog backup: \S+ is inside DATA_DIR \S+: a backup must live apart from what it backs up .*\n$/);
    t.notOk(existsSync(join(source, 'backups')));
    const link = join(tempDataDir(t, 'matchlog-link-'), 'to-data');
    symlinkSync(source, link);
    const throughLink = await runMatchlog(['backup', join(link, 'today')], { DATA_DIR: source });
    t.equal(throughLink.code, 2, 'a link into DATA_DIR is followed to tell');
    t.equal((await runMatchlog(['backup', source], { DATA_DIR: source })).code, 2, 'DATA_DIR itself');
  });
});
