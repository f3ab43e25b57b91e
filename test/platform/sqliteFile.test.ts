import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

const child = fileURLToPath(new URL('../helpers/openSqliteOnCue.ts', import.meta.url));

/** One process that opens the stores in each folder it is sent; `answer()` resolves with its next line. */
function opener(t: Test) {
  const proc = spawn(process.execPath, [...typescriptExecArgv(), child], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.teardown(() => proc.kill('SIGKILL'));
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  return {
    open: (dataDir: string) => proc.stdin.write(`${dataDir}\n`),
    answer: async () => String((await lines.next()).value),
  };
}

t.test('two processes opening the same new data folder at the same moment both open its SQLite files (the WAL switch is retried)', async (t) => {
  // Without the retry, 60 to 100 of these 400 opens failed with SQLITE_BUSY (the API processes of a
  // deployment start together on one data folder).
  const dir = tempDataDir(t);
  const pair = [opener(t), opener(t)];
  const answers = new Map<string, number>();
  for (let round = 0; round < 200; round++) {
    const dataDir = join(dir, String(round));
    for (const p of pair) p.open(dataDir);
    for (const answer of await Promise.all(pair.map((p) => p.answer()))) answers.set(answer, (answers.get(answer) ?? 0) + 1);
  }
  t.same(Object.fromEntries(answers), { ok: 400 });
});
