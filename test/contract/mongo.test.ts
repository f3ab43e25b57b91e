import t from 'tap';
import { openMongoReadModel } from '../../src/readmodel/mongoReadModel.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { readModelContract, readModelErasureContract } from './readModelContract.js';

/**
 * The read-model contract on the MongoDB-wire server of MONGODB_URL, with both ways of finding
 * documents and making guarded writes (src/readmodel/mongoReadModel.ts, mongoReader.ts, mongoGuardedWrites.ts): the one
 * the server gets by default, and each one forced, so the MongoDB path is exercised on FerretDB too.
 */
if (!process.env.MONGODB_URL) t.test('mongodb: read model contract', { skip: NO_MONGODB }, async () => {});
else {
  const suites = [
    ['mongodb', {}],
    ['mongodb, MongoDB access', { access: 'mongodb' }],
    ['mongodb, FerretDB access', { access: 'ferretdb' }],
  ] as const;
  for (const [name, options] of suites) {
    // A database per suite: the contract's projection names are fixed.
    const url = testMongoUrl(t) ?? '';
    readModelContract(t, name, () => openMongoReadModel(url, options));
    // A database of its own: the service's projection names are fixed.
    const erasureUrl = testMongoUrl(t) ?? '';
    readModelErasureContract(t, name, () => openMongoReadModel(erasureUrl, options));
  }
}
