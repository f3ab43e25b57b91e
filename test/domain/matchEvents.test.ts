import t from 'tap';
import { asJsonText, splitPayload, withPayload } from '../../src/domain/jsonText.js';
import { decodeMatchEvent, encodeMatchEvent, type MatchEvent } from '../../src/domain/matchEvents.js';
import { fixtureText } from '../helpers/fixtures.js';

t.test('events round-trip with the payload text kept byte for byte', async (t) => {
  const payload = asJsonText(fixtureText({ seed: 5 }));
  const events: MatchEvent[] = [
    { type: 'MatchCreated', data: { matchId: 'a.b~c', protection: 'protected', writeTokenHash: 'hmac-sha256:v1:xyz', createdVia: 'POST', payload } },
    { type: 'MatchCreated', data: { matchId: 'a', protection: 'unprotected', createdVia: 'PUT', payload } },
    { type: 'MatchReplaced', data: { matchId: 'a', replacedVia: 'PUT', payload: asJsonText('{ "spaced" : [1, 2] ,"payload":"x"}') } },
  ];
  for (const event of events) {
    const stored = encodeMatchEvent(event);
    t.same(JSON.parse(stored).schemaVersion, 1, 'versioned');
    t.same(decodeMatchEvent(event.type, stored), event);
  }
});

t.test('the payload splice survives envelope values that look like the marker', async (t) => {
  const tricky = ['","payload":', ',"payload":{}', '\\",\\"payload\\":', '}', '"'];
  for (const value of tricky) {
    const text = withPayload({ a: value, b: [value] }, asJsonText('{"payload":",\\"payload\\":1"}'));
    const { envelope, payload } = splitPayload(text);
    t.same(envelope, { a: value, b: [value] });
    t.equal(payload, '{"payload":",\\"payload\\":1"}');
    t.same(JSON.parse(text).payload, { payload: ',"payload":1' }, 'and the whole is valid JSON');
  }
});

t.test('unknown types decode to null; unreadable envelopes fail loudly', async (t) => {
  t.equal(decodeMatchEvent('SomethingElse', '{}'), null);
  t.throws(() => decodeMatchEvent('MatchCreated', withPayload({ schemaVersion: 9, matchId: 'a' }, asJsonText('{}'))), /unreadable MatchCreated/);
  t.throws(() => decodeMatchEvent('MatchReplaced', '{"schemaVersion":1}'), /no payload/);
});
