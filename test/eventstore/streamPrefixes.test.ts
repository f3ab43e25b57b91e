import t from 'tap';
import { adminEmailStreamId, clubStreamId } from '../../src/domain/clubIds.js';
import { matchStreamId } from '../../src/domain/matchId.js';
import { SERVICE_STREAM_PREFIXES } from '../../src/eventstore/streamPrefixes.js';

t.test('every stream the service writes carries one of the prefixes EventStoreDB reads are filtered to', async (t) => {
  const names = { match: matchStreamId('vb-1'), club: clubStreamId('c1'), admin: adminEmailStreamId('a@example.org') };
  for (const [kind, name] of Object.entries(names)) {
    t.ok(
      SERVICE_STREAM_PREFIXES.some((prefix) => name.startsWith(prefix)),
      `${kind} streams (${name})`,
    );
  }
  t.notOk(
    SERVICE_STREAM_PREFIXES.some((prefix) => prefix.startsWith('$')),
    'and no system stream ($...) is among them',
  );
});
