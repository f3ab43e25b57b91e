import { fileURLToPath } from 'node:url';
import t from 'tap';
import { NO_MONGODB } from '../helpers/mongo.js';
import { typescriptExecArgv } from '../helpers/serverProcess.js';

/**
 * The HTTP suites (core, club sync, dashboard) once more, in distributed mode: read models on the MongoDB-wire server
 * of MONGODB_URL (FerretDB in CI) and projections in a separate `matchlog projections` process
 * per app (test/helpers/testApp.ts reads MATCHLOG_TEST_READ_MODELS). Read-your-writes then rests
 * on the API polling the checkpoints the worker stores.
 */
const suites = ['../http/api.test.ts', '../http/race.test.ts', '../http/clubSyncApi.test.ts', '../http/dashboard.test.ts'];

for (const suite of suites) {
  const file = fileURLToPath(new URL(suite, import.meta.url));
  if (!process.env.MONGODB_URL) t.test(`${suite} on MongoDB with a projection worker`, { skip: NO_MONGODB }, async () => {});
  else
    t.spawn(
      process.execPath,
      [...typescriptExecArgv(), file],
      { env: { ...process.env, MATCHLOG_TEST_READ_MODELS: 'mongodb-worker' } },
      `${suite} on MongoDB with a projection worker`,
    );
}
