import t from 'tap';
import { type CommandStartedEvent, type Db, MongoClient } from 'mongodb';
import { createMongoCheckpoints } from '../../src/readmodel/mongoCheckpoints.js';
import { writeConditionally, type StoredDocument } from '../../src/readmodel/mongoGuardedWrites.js';
import { NO_MONGODB, testMongoUrl } from '../helpers/mongo.js';

/** A client on a fresh database of MONGODB_URL, its commands recorded; closed when the test ends. */
async function database(t: Parameters<typeof testMongoUrl>[0]) {
  const url = testMongoUrl(t) ?? '';
  const client = new MongoClient(url, { monitorCommands: true });
  await client.connect();
  const commands: CommandStartedEvent[] = [];
  client.on('commandStarted', (event) => commands.push(event));
  t.teardown(() => client.close());
  return { db: client.db(), commands };
}

if (!process.env.MONGODB_URL) t.test('mongodb: checkpoint claims', { skip: NO_MONGODB }, async () => {});
else {
  t.test('every projection prunes its own claims, through an index on what the deletes ask', async (t) => {
    const { db } = await database(t);
    let clock = Date.now();
    const checkpoints = createMongoCheckpoints(db, () => clock);
    const projections = ['first', 'second', 'third'];
    const at = new Map(projections.map((name) => [name, null as number | null]));
    // Six hours of a commit every five minutes for each projection.
    for (let round = 1; round <= 72; round += 1) {
      clock += 5 * 60 * 1000;
      for (const name of projections) {
        await checkpoints.move(name, at.get(name) ?? null, round, async () => {});
        at.set(name, round);
      }
    }
    const claims = db.collection('matchlog_checkpoint_claims');
    for (const name of projections) {
      const left = await claims.countDocuments({ projection: name });
      // An hour kept, pruned every quarter of an hour: at most 75 minutes of claims.
      t.ok(left <= 16, `${name}: ${left} claims left after six hours`);
      t.equal(await checkpoints.get(name), 72, `${name} is still at its last checkpoint`);
    }
    const keys = (await claims.indexes()).map((index) => index.key);
    t.ok(
      keys.some((key) => JSON.stringify(key) === JSON.stringify({ projection: 1, generation: 1, to: 1 })),
      'the prune and reset deletes have their index',
    );
  });

  t.test('checkpoints are read from the primary and claimed with w=majority, whatever the database defaults to', async (t) => {
    const { db } = await database(t);
    // A standalone server (FerretDB) is sent no read preference, so what the collections are opened with is what shows.
    const opened: { name: string; options: unknown }[] = [];
    const recording = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'collection') return Reflect.get(target, key, receiver);
        return (name: string, options?: unknown) => {
          opened.push({ name, options });
          return target.collection(name, options as Parameters<Db['collection']>[1]);
        };
      },
    });
    const checkpoints = createMongoCheckpoints(recording);
    await checkpoints.move('p', null, 3, async () => {});
    t.equal(await checkpoints.get('p'), 3, 'the server takes them');
    t.ok(opened.length >= 2);
    for (const { name, options } of opened) t.match(options, { readPreference: { mode: 'primary' }, writeConcern: { w: 'majority' } }, name);
  });

  t.test('a guarded bulk is ordered, so a failure leaves a prefix of the changes', async (t) => {
    const { db, commands } = await database(t);
    const target = db.collection<StoredDocument>('ordered');
    await writeConditionally(
      target,
      [1, 2, 3].map((n) => ({ id: `d${n}`, position: n, replacement: { position: n, doc: { id: `d${n}` } } })),
    );
    const updates = commands.filter((event) => event.commandName === 'update');
    t.equal(updates.length, 1, 'one round trip');
    t.equal(updates[0]?.command.ordered, true, 'ordered');
    t.equal(await target.countDocuments(), 3);
  });
}
