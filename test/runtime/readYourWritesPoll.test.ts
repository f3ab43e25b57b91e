import t from 'tap';
import { readYourWritesProjections } from '../../projections/all.js';
import { loadConfig } from '../../src/runtime/config.js';
import { openEngine } from '../../src/runtime/engine.js';
import { tempDataDir } from '../helpers/testApp.js';

const quiet = { info() {}, error() {} };

t.test('writes waiting for readers in another process share one poll, of the checkpoints they wait for', async (t) => {
  const engine = await openEngine(loadConfig({ DATA_DIR: tempDataDir(t), RUN_PROJECTIONS: 'no' }), quiet);
  t.teardown(() => engine.close());
  const read: string[] = [];
  const getCheckpoint = engine.readModel.getCheckpoint.bind(engine.readModel);
  engine.readModel.getCheckpoint = async (projection) => {
    read.push(projection);
    return getCheckpoint(projection);
  };
  const types = ['MatchCreated'];
  const waitedFor = readYourWritesProjections(types);
  const timeoutMs = 300;
  // Forty writes waiting at once for positions no projection reaches: each times out.
  const waits = Array.from({ length: 40 }, (_, i) => engine.waitForReaders(1000 + i, timeoutMs, types));
  t.same(new Set(await Promise.all(waits)), new Set([false]), 'each times out');
  t.same([...new Set(read)].sort(), [...waitedFor].sort(), 'only the checkpoints the writes wait for are read');
  // One poll every 20 ms at most: about timeoutMs / 20 rounds, each reading each checkpoint once.
  const rounds = read.length / waitedFor.length;
  t.ok(rounds <= timeoutMs / 20 + 3, `${read.length} reads for 40 waiting writes (${rounds} rounds)`);
});

t.test('a waiting write resolves as soon as the shared poll sees its checkpoints reached', async (t) => {
  const engine = await openEngine(loadConfig({ DATA_DIR: tempDataDir(t), RUN_PROJECTIONS: 'no' }), quiet);
  t.teardown(() => engine.close());
  let at = 0;
  engine.readModel.getCheckpoint = async () => at;
  const early = engine.waitForReaders(5, 2000, ['MatchCreated']);
  const late = engine.waitForReaders(50, 300, ['MatchCreated']);
  setTimeout(() => (at = 10), 60);
  t.equal(await early, true, 'reached');
  t.equal(await late, false, 'not reached before its timeout');
});
