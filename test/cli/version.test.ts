import { readFileSync } from 'node:fs';
import t from 'tap';
import { runMatchlog } from '../helpers/cli.js';

t.test('matchlog --version prints the version of this install', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const flag of ['--version', '-v']) {
    const { code, stdout } = await runMatchlog([flag], {});
    t.equal(code, 0);
    t.equal(stdout, `matchlog ${version}\n`, flag);
  }
});
