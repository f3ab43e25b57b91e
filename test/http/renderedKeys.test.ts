import t from 'tap';
import { matchOfKey, matchOfVersionKey, renderedKeys, versionKey } from '../../src/http/renderedKeys.js';

const id = 'vb-2026-03-01';
const privacy = { level: 'initials' as const, side: 'home' as const };

/** Every key a match's renderings are kept under, with every variant that applies to it. */
const keysOfMatch = (match: string) => [
  renderedKeys.summary(match, 3),
  ...(['page', 'main', 'embed', 'embedMain'] as const).flatMap((rendering) => [
    renderedKeys.page(match, 3, rendering, {}),
    renderedKeys.page(match, 3, rendering, { quiet: true, privacy, base: 'http://club.example:8080' }),
  ]),
  renderedKeys.plays(match, 3, 2, { privacy }),
  renderedKeys.card(match, 3, { quiet: true }),
  renderedKeys.oldCard(match, 1, { privacy }),
  renderedKeys.oldVersion('page', match, 1, { privacy, base: 'https://other.example' }),
  renderedKeys.oldVersion('api', match, 1, {}),
  renderedKeys.qr(match, { base: 'http://club.example:8080' }),
  renderedKeys.api(match, 3, { privacy }),
];

t.test("every key of a match's renderings names the match, so that an erasure finds them all", async (t) => {
  const keys = keysOfMatch(id);
  t.same(
    keys.filter((key) => matchOfKey(key) !== id),
    [],
  );
  t.equal(new Set(keys).size, keys.length, 'and no two renderings share a key');
  t.same(
    keysOfMatch('other').filter((key) => matchOfKey(key) === id),
    [],
    "another match's keys never name this one",
  );
});

t.test('a variant that does not apply leaves the key as it was: the configured address, no privacy, not quiet', async (t) => {
  t.equal(renderedKeys.page(id, 3, 'page', {}), renderedKeys.page(id, 3, 'page', { quiet: false, privacy: null, base: null }));
  t.not(renderedKeys.page(id, 3, 'page', {}), renderedKeys.page(id, 3, 'page', { base: 'http://club.example' }), 'a host of its own is kept apart');
  t.not(renderedKeys.card(id, 3, {}), renderedKeys.oldCard(id, 3, {}), 'the current card and an old one of the same revision differ');
});

t.test('club and team pages name their club second, where a match key names its match (at worst an erasure makes them render again)', async (t) => {
  t.equal(matchOfKey(renderedKeys.club('c1', 'v')), 'c1');
  t.equal(matchOfKey(renderedKeys.team('c1', 't1', '', 'v')), 'c1');
  t.equal(matchOfKey(renderedKeys.teamFeed('calendar', 'c1', 't1', 'v')), 'c1');
});

t.test('version keys read their match back', async (t) => {
  t.equal(matchOfVersionKey(versionKey(id, 12)), id);
  t.not(versionKey(id, 1), versionKey(id, 12));
});
