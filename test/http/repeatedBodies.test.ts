import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { createRepeatedBodies } from '../../src/http/api/repeatedBodies.js';

t.test('a text seen once keeps nothing; seen again, it is kept with its parsed value', async (t) => {
  const bodies = createRepeatedBodies({ seenTexts: 8, keptChars: 100 });
  const first = { n: 1 };
  bodies.parsed('{"n":1}', first);
  t.equal(bodies.get('{"n":1}'), undefined, 'once: nothing kept');
  const second = { n: 1 };
  bodies.parsed('{"n":1}', second);
  t.equal(bodies.get('{"n":1}'), second, 'twice: the value parsed the second time');
  t.equal(bodies.get('{"n":2}'), undefined);
});

t.test('a value is given only for the very text kept, whatever texts share its fingerprint', async (t) => {
  const bodies = createRepeatedBodies({ seenTexts: 8, keptChars: 1_000_000 });
  // Same length, same ends, same sampled characters: only a character between the samples differs.
  const base = `{"a":"${'x'.repeat(10_000)}"}`;
  const middle = Math.floor(base.length / 2) + 1;
  const other = `${base.slice(0, middle)}y${base.slice(middle + 1)}`;
  t.equal(other.length, base.length);
  bodies.parsed(base, { which: 'base' });
  bodies.parsed(base, { which: 'base' });
  t.same(bodies.get(base), { which: 'base' });
  t.equal(bodies.get(other), undefined, 'a different text is parsed, not answered with the kept value');
  bodies.parsed(other, { which: 'other' });
  t.same(bodies.get(other), { which: 'other' }, 'a text sharing the fingerprint takes its place once it comes again');
  t.equal(bodies.get(base), undefined);
});

t.test('kept texts are bounded by their length, least recently used let go first', async (t) => {
  const bodies = createRepeatedBodies({ seenTexts: 8, keptChars: 100 });
  const text = (name: string, chars: number) => `"${name}${'.'.repeat(chars - name.length - 2)}"`;
  const keep = (name: string, chars: number) => {
    bodies.parsed(text(name, chars), { name });
    bodies.parsed(text(name, chars), { name });
  };
  keep('a', 40);
  keep('b', 40);
  bodies.get(text('a', 40));
  keep('c', 40);
  t.same(bodies.get(text('a', 40)), { name: 'a' }, 'used last: kept');
  t.equal(bodies.get(text('b', 40)), undefined, 'used least recently: let go');
  t.same(bodies.get(text('c', 40)), { name: 'c' });
  keep('huge', 101);
  t.equal(bodies.get(text('huge', 101)), undefined, 'a text larger than the whole budget is never kept');
  t.same(bodies.get(text('a', 40)), { name: 'a' }, 'and lets nothing go');
});

t.test('texts seen once are bounded too', async (t) => {
  const bodies = createRepeatedBodies({ seenTexts: 2, keptChars: 100 });
  bodies.parsed('"a"', {});
  bodies.parsed('"b"', {});
  bodies.parsed('"c"', {});
  bodies.parsed('"a"', {});
  t.equal(bodies.get('"a"'), undefined, '"a" was forgotten, so this was its first time again');
  bodies.parsed('"c"', { c: true });
  t.same(bodies.get('"c"'), { c: true }, '"c" was still remembered');
});

t.test('remembering a text seen once does not keep the text alive', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const bodies = createRepeatedBodies({ seenTexts: 1000, keptChars: 100 });
  const remember = (count: number) => {
    for (let i = 0; i < count; i += 1) bodies.parsed(`{"n":${i},"pad":"${'x'.repeat(100_000)}"}`, {});
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  remember(200);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  // 200 texts of 100 KB would be 20 MB; their fingerprints are a few dozen bytes each.
  t.ok(grown < 2_000_000, `the heap grew by ${grown} bytes for 200 fingerprints`);
});
