import t from 'tap';
import { openMongoReadModel } from '../../src/readmodel/mongo.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { readModelContract } from './readModelContract.js';

/**
 * The read-model contract on the MongoDB-wire server of MONGODB_URL, with both ways of making
 * guarded writes (src/readmodel/mongoGuardedWrites.ts): the one the server gets by default, and
 * each one forced, so the MongoDB path is exercised on FerretDB too.
 */
if (!process.env.MONGODB_URL) t.test('mongodb: read model contract', { skip: NO_MONGODB }, async () => {});
else {
  const suites = [
    ['mongodb', {}],
    ['mongodb, conditional writes', { writes: 'conditional' }],
    ['mongodb, writes after reading', { writes: 'afterReading' }],
  ] as const;
  for (const [name, options] of suites) {
    // A database per suite: the contract's projection names are fixed.
    const url = testMongoUrl(t) ?? '';
    readModelContract(t, name, () => openMongoReadModel(url, options));
  }
}
