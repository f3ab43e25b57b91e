import t from 'tap';
import { FINGERPRINT_CHARS, jsonFingerprint, jsonText, shortHash } from '../../src/domain/jsonFingerprint.js';

t.test('a fingerprint is FINGERPRINT_CHARS of base64url, the same for the same content', async (t) => {
  const fingerprint = jsonFingerprint({ id: 7, type: 'ace', team: 'home' });
  t.match(fingerprint, new RegExp(`^[A-Za-z0-9_-]{${FINGERPRINT_CHARS}}$`));
  t.equal(jsonFingerprint({ id: 7, type: 'ace', team: 'home' }), fingerprint, 'equal values, equal fingerprints');
  t.not(jsonFingerprint({ type: 'ace', id: 7, team: 'home' }), fingerprint, 'key order counts, as in the text');
  t.not(jsonFingerprint({ id: 7, type: 'ace', team: 'away' }), fingerprint);
  t.equal(jsonFingerprint(undefined), shortHash('undefined'));
});

t.test("jsonText is JSON.stringify's text, numbers and booleans included", async (t) => {
  const values = [
    0,
    -0,
    7,
    -3.5,
    0.1 + 0.2,
    1e21,
    1e-7,
    5e-324,
    Number.MAX_VALUE,
    2 ** 53 + 2,
    true,
    false,
    null,
    'x"\\',
    [1, 'a'],
    { a: 1 },
    Number.NaN,
    Infinity,
    undefined,
  ];
  for (const value of values) t.equal(jsonText(value), JSON.stringify(value), String(value));
  for (let i = 0; i < 10_000; i += 1) {
    const n = (Math.sin(i) * 10 ** ((i % 40) - 20)) / 3;
    if (jsonText(n) !== JSON.stringify(n)) t.fail(`differs for ${n}`);
  }
});

t.test('nearby values do not collide', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 50_000; i += 1) seen.add(jsonFingerprint({ seq: i, type: 'point', team: i % 2 ? 'home' : 'away', score: [i % 25, (i * 7) % 25] }));
  t.equal(seen.size, 50_000);
  const oneCharApart = new Set(Array.from({ length: 95 }, (_, i) => shortHash(`{"type":"serve","by":"${String.fromCharCode(32 + i)}"}`)));
  t.equal(oneCharApart.size, 95, 'strings one character apart');
});

t.test('a value nested deeper than JSON.stringify can walk still has a fingerprint', async (t) => {
  let deep: unknown = 1;
  for (let i = 0; i < 20_000; i += 1) deep = [deep];
  t.throws(() => JSON.stringify(deep), RangeError, 'too deep for the native walk here');
  const fingerprint = jsonFingerprint(deep);
  t.match(fingerprint, /^[A-Za-z0-9_-]{8}$/);
  t.equal(jsonFingerprint(deep), fingerprint, 'and the same each time');
});
