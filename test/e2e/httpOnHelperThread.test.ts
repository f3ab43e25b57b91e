import { fileURLToPath } from 'node:url';
import t from 'tap';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

/**
 * The HTTP suites of uploads once more, with every body read on the helper thread and every
 * version's team names and diff basis made there (HELPER_THREAD_BYTES=1; by default only bodies of
 * 256 KiB and more are): the same answers, refusals and read models as when made in place
 * (test/helpers/testApp.ts reads MATCHLOG_TEST_HELPER_THREAD_BYTES). The property test checks the
 * read models built so against a rebuild from the log, which makes them in place.
 */
const suites = ['../http/api.test.ts', '../http/inputLimits.test.ts', '../http/clubSyncApi.test.ts', '../http/parsedBody.property.test.ts'];

for (const suite of suites) {
  const file = fileURLToPath(new URL(suite, import.meta.url));
  t.spawn(
    process.execPath,
    [...typescriptExecArgv(), file],
    { env: { ...process.env, MATCHLOG_TEST_HELPER_THREAD_BYTES: '1' } },
    `${suite} on the helper thread`,
  );
}
