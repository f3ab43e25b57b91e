import t from 'tap';
import { CLUB_SYNC_EVENT_TYPES, encodeMatchStreamEvent, type MatchStreamEvent } from '../../src/domain/matchEvents.js';
import type { RecordedEvent } from '../../src/eventstore/eventStore.js';
import { PUBLIC_DETAILS, publicEvent } from '../../src/domain/publicEvent.js';

const recorded = (event: MatchStreamEvent): RecordedEvent => ({
  id: '00000000-0000-5000-8000-000000000000',
  streamId: 'match-m1',
  revision: 1,
  position: 2,
  type: event.type,
  data: encodeMatchStreamEvent(event),
  metadata: { requestId: 'r1', clientAddressClass: 'public', schemaVersion: 1 },
  recordedAt: '2025-01-01T00:00:00.000Z',
});

t.test('every club sync event type has its public fields in the static map: nothing needs registering first', async (t) => {
  t.same(Object.keys(PUBLIC_DETAILS).sort(), [...CLUB_SYNC_EVENT_TYPES].sort());
  const skipped = publicEvent(recorded({ type: 'ClubSyncSkipped', data: { matchId: 'm1', clubId: 'c1', teamId: 't1', reason: 'no app key', keyId: null } }));
  t.same(skipped.details, { clubId: 'c1', teamId: 't1', copied: false }, 'why it was skipped stays private');
  const accepted = publicEvent(recorded({ type: 'ClubSyncAccepted', data: { matchId: 'm1', clubId: 'c1', teamId: 't1', keyId: 'k1', side: 'home' } }));
  t.same(accepted.details, { clubId: 'c1', teamId: 't1', copied: true }, 'which key stays private');
});

t.test('an event type without public fields shows none', async (t) => {
  t.equal(
    publicEvent({
      ...recorded({ type: 'ClubSyncSkipped', data: { matchId: 'm1', clubId: 'c1', teamId: 't1', reason: 'x', keyId: null } }),
      type: 'SomethingNew',
    }).details,
    null,
  );
});
