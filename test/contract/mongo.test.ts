import t from 'tap';
import { openMongoReadModel } from '../../src/readmodel/mongo.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';
import { readModelContract } from './readModelContract.js';

const url = testMongoUrl(t);
if (url === null) t.test('mongodb: read model contract', { skip: NO_MONGODB }, async () => {});
else readModelContract(t, 'mongodb', () => openMongoReadModel(url));
