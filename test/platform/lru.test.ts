import t from 'tap';
import { createLru } from '../../src/platform/lru.js';

t.test('bounded by count: the least recently used goes first', async (t) => {
  const lru = createLru<number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.get('a');
  lru.set('c', 3);
  t.same([lru.get('a'), lru.get('b'), lru.get('c')], [1, undefined, 3]);
  lru.delete('a');
  t.equal(lru.get('a'), undefined);
});

t.test('bounded by weight: replacing an entry counts its new weight only', async (t) => {
  const lru = createLru<string>(10, (text) => text.length);
  lru.set('a', 'aaaa');
  lru.set('a', 'aaaaa');
  lru.set('b', 'bbbbb');
  t.same([lru.get('a'), lru.get('b')], ['aaaaa', 'bbbbb'], '5 + 5 fit in 10');
  lru.set('c', 'c');
  t.same([lru.get('a'), lru.get('b'), lru.get('c')], [undefined, 'bbbbb', 'c'], 'the least recently used made room');
  lru.set('huge', 'x'.repeat(11));
  t.same([lru.get('huge'), lru.get('b'), lru.get('c')], [undefined, 'bbbbb', 'c'], 'heavier than the bound: not kept, nothing let go');
});
