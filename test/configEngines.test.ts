import t from 'tap';
import { APPEND_OVERHEAD_BYTES, ConfigError, loadConfig } from '../src/runtime/config.js';
import { redactUrl } from '../src/platform/redactUrl.js';

const key = Buffer.alloc(32, 7).toString('base64');
const esdb = { EVENT_STORE_URL: 'esdb://admin:changeit@eventstore:2113?tls=false', WRITE_TOKEN_KEY: key };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'accepted';
}

t.test('with EventStoreDB, MAX_BODY_BYTES stays below what one append can carry', async (t) => {
  const limit = 1024 * 1024 - APPEND_OVERHEAD_BYTES;
  t.equal(loadConfig(esdb).maxBodyBytes, limit, 'the default shrinks to fit the default MaxAppendSize (1 MiB)');
  t.equal(loadConfig({ ...esdb, MAX_BODY_BYTES: '500000' }).maxBodyBytes, 500000);
  const message = refusal({ ...esdb, MAX_BODY_BYTES: String(4 * 1024 * 1024) });
  t.match(message, /^invalid configuration: MAX_BODY_BYTES must be at most \d+ with EventStoreDB/);
  t.match(message, /ESDB_MAX_APPEND_BYTES/, 'and says what to raise');
  t.notMatch(message, /\n/, 'in one line');
  const raised = loadConfig({ ...esdb, ESDB_MAX_APPEND_BYTES: String(8 * 1024 * 1024), MAX_BODY_BYTES: String(4 * 1024 * 1024) });
  t.equal(raised.maxBodyBytes, 4 * 1024 * 1024, 'a server with a larger MaxAppendSize takes larger bodies');
  t.match(
    refusal({ ...esdb, ESDB_MAX_APPEND_BYTES: String(32 * 1024 * 1024) }),
    /^invalid configuration: ESDB_MAX_APPEND_BYTES /,
    'EventStoreDB takes at most 16 MiB',
  );
  t.equal(loadConfig({ MAX_BODY_BYTES: String(8 * 1024 * 1024) }).maxBodyBytes, 8 * 1024 * 1024, 'SQLite has no such limit');
});

t.test('database URLs may list several hosts, and errors never show a password', async (t) => {
  const config = loadConfig({
    ...esdb,
    EVENT_STORE_URL: 'esdb://admin:changeit@node1:2113,node2:2113,node3:2113?tls=true',
    READ_MODEL_URL: 'mongodb://matchlog:hunter22@db1:27017,db2:27017/matchlog?replicaSet=rs0',
  });
  t.equal(config.readModelUrl, 'mongodb://matchlog:hunter22@db1:27017,db2:27017/matchlog?replicaSet=rs0');
  t.equal(config.runProjections, false, 'with MongoDB read models the API leaves projections to workers (RUN_PROJECTIONS=auto)');
  t.equal(loadConfig({ ...esdb, READ_MODEL_URL: 'mongodb://db/m', RUN_PROJECTIONS: 'yes' }).runProjections, true, 'unless asked');
  const message = refusal({ READ_MODEL_URL: 'postgres://app:hunter22@db/x' });
  t.match(message, /^invalid configuration: READ_MODEL_URL /);
  t.notMatch(message, /hunter22/);
  t.notMatch(refusal({ PUBLIC_BASE_URL: 'https://user:hunter22@exa mple.org' }), /hunter22/);
  t.equal(redactUrl('mongodb://matchlog:hunter22@db1:27017,db2/x'), 'mongodb://matchlog:***@db1:27017,db2/x');
  t.equal(redactUrl('esdb://node1:2113?tls=false'), 'esdb://node1:2113?tls=false');
});
