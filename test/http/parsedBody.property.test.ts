import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import t from 'tap';
import { decodedPayload } from '../../src/domain/decodedPayloads.js';
import { asJsonText } from '../../src/domain/jsonText.js';
import { decodeMatchEvent } from '../../src/domain/matchEvents.js';
import { matchStreamId } from '../../src/domain/matchId.js';
import { json, startTestApp } from '../helpers/testApp.js';

/**
 * The projections of the writing process take an upload's payload as the request parsed it
 * (src/domain/decodedPayloads.ts), where a rebuild parses the text in the log. That is only
 * sound if the validated body is exactly JSON.parse of the stored text, key order included:
 * checked here over random payloads sent through the real app, whatever the body schema's
 * validation does to the fields it names.
 */
const named = fc.record(
  {
    clubId: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant('12'), fc.boolean()),
    teamId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    season: fc.jsonValue({ maxDepth: 2 }),
    playerStats: fc.jsonValue({ maxDepth: 3 }),
    actions: fc.array(fc.dictionary(fc.constantFrom('id', 'seq', 'type', 'team', '1', '0', 'constructor'), fc.jsonValue({ maxDepth: 1 })), { maxLength: 5 }),
  },
  { requiredKeys: [] },
);
const payloadArb = fc.tuple(named, fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })).map(([a, b]) => ({ ...b, ...a }));

t.test('the body the app validated is what a parse of the stored payload gives', async (t) => {
  const { app, engine } = await startTestApp(t);
  let n = 0;
  await fc.assert(
    fc.asyncProperty(payloadArb, fc.constantFrom('', ' ', '\n  '), async (payload, space) => {
      const id = `parsed-${(n += 1)}`;
      const text = JSON.stringify(payload, null, space);
      const res = await app.inject({ method: 'PUT', url: `/api/matches/${id}`, headers: json, payload: text });
      if (res.statusCode !== 200) return res.statusCode === 400 && typeof res.json().message === 'string';
      const [stored] = await engine.eventStore.readStream(matchStreamId(id), { maxCount: 1 });
      const event = stored && decodeMatchEvent(stored.type, stored.data);
      if (!stored || !event) return false;
      const parsed: unknown = JSON.parse(event.data.payload);
      // Text that cannot parse: the entry must be the one the upload handed over.
      const projected = decodedPayload(stored.id, asJsonText('not parsed again')).body;
      // Node's deep equality: tap's would read an own `constructor` key as the object's class.
      return isDeepStrictEqual(projected, parsed) && JSON.stringify(projected) === JSON.stringify(parsed);
    }),
    { numRuns: 150 },
  );
});
