import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

/**
 * Issue 63: a failing property prints one shrunk counterexample with its seed, not a flood of
 * failed assertions. test/fixtures/brokenProperty.ts (a false property written as the suite's
 * are) runs as a tap file in a child process; its output is read as a contributor would.
 */

const fixture = fileURLToPath(new URL('../fixtures/brokenProperty.ts', import.meta.url));

/** Runs the fixture to its end; its exit code and stdout (TAP). */
function runFixture(env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...typescriptExecArgv(), fixture], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const testPoints = (output: string) => output.match(/^\s*(?:not )?ok \d+ /gm) ?? [];
const failure =
  /not ok 1 - Property failed after (\d+) tests \{ seed: (-?\d+), path: "([\d:]+)", endOnFailure: true \} Counterexample: (\S+) Shrunk (\d+) time/;

t.test('a false property fails once, with its smallest counterexample, its seed and its path', async (t) => {
  const { code, output } = await runFixture();
  t.equal(code, 1, 'the tap file fails');
  t.equal(testPoints(output).length, 2, 'two test points: the property and the subtest holding it');
  t.equal(output.split('Counterexample:').length - 1, 1, 'one counterexample printed');
  const found = failure.exec(output);
  t.ok(found, "fast-check's report is the failing test point");
  if (found === null) return t.comment(output);
  const [, , seed, path, counterexample, shrinks] = found;
  // Shrinking ends at a smallest list out of order: two numbers next to 0 ([[0,-1]] or [[1,0]], by the seed).
  t.match(counterexample, /^\[\[(-1|0|1),(-1|0|1)\]\]$/, 'shrunk to a smallest list out of order (two numbers, next to 0)');
  const [first, second] = JSON.parse(counterexample ?? '[[]]')[0] as number[];
  t.ok(first !== undefined && second !== undefined && first > second, `${counterexample} is out of order`);
  t.ok(Number(shrinks) > 0, `shrunk ${shrinks} times`);

  const replayed = await runFixture({ REPLAY: JSON.stringify({ seed: Number(seed), path }) });
  t.equal(replayed.code, 1, 'the replay fails too');
  t.match(replayed.output, 'Property failed after 1 tests', 'the seed and path replay the failing case first');
  t.match(replayed.output, `Counterexample: ${counterexample}`, 'the same counterexample');
});
