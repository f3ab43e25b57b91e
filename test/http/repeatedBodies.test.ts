import t from 'tap';
import { createRepeatedBodies } from '../../src/http/api/repeatedBodies.js';

t.test('a text seen once keeps only its digest; seen again, its parsed value is kept', async (t) => {
  const bodies = createRepeatedBodies({ seenDigests: 8, keptChars: 100 });
  const first = { n: 1 };
  bodies.parsed('a', first, 10);
  t.equal(bodies.get('a'), undefined, 'once: nothing kept');
  const second = { n: 1 };
  bodies.parsed('a', second, 10);
  t.equal(bodies.get('a'), second, 'twice: the value parsed the second time');
  t.equal(bodies.get('b'), undefined);
});

t.test('kept values are bounded by their text, least recently used let go first', async (t) => {
  const bodies = createRepeatedBodies({ seenDigests: 8, keptChars: 100 });
  const keep = (digest: string, chars: number) => {
    bodies.parsed(digest, { digest }, chars);
    bodies.parsed(digest, { digest }, chars);
  };
  keep('a', 40);
  keep('b', 40);
  bodies.get('a');
  keep('c', 40);
  t.same(bodies.get('a'), { digest: 'a' }, 'used last: kept');
  t.equal(bodies.get('b'), undefined, 'used least recently: let go');
  t.same(bodies.get('c'), { digest: 'c' });
  keep('huge', 101);
  t.equal(bodies.get('huge'), undefined, 'a text larger than the whole budget is never kept');
  t.same(bodies.get('a'), { digest: 'a' }, 'and lets nothing go');
});

t.test('digests seen once are bounded too', async (t) => {
  const bodies = createRepeatedBodies({ seenDigests: 2, keptChars: 100 });
  bodies.parsed('a', {}, 1);
  bodies.parsed('b', {}, 1);
  bodies.parsed('c', {}, 1);
  bodies.parsed('a', {}, 1);
  t.equal(bodies.get('a'), undefined, '"a" was forgotten, so this was its first time again');
  bodies.parsed('c', { c: true }, 1);
  t.same(bodies.get('c'), { c: true }, '"c" was still remembered');
});
