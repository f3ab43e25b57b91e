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

t.test('a value that grows is counted again: older entries make room, and one grown past the entry cap is let go', async (t) => {
  const lru = createLru<{ bytes: number }>(100, (v) => v.bytes, { maxEntryWeight: 50 });
  const a = { bytes: 30 };
  lru.set('a', a);
  lru.set('b', { bytes: 30 });
  lru.set('c', { bytes: 30 });
  t.equal(lru.weight(), 90);
  t.notOk(lru.set('big', { bytes: 51 }), 'above the entry cap: not kept');
  t.equal(lru.weight(), 90, 'and nothing was let go for it');
  lru.get('a');
  a.bytes = 45;
  t.ok(lru.reweigh('a'), 'still kept after growing');
  t.equal(lru.weight(), 75, 'the least recently used (b) made room');
  t.same([lru.get('b'), lru.size()], [undefined, 2]);
  a.bytes = 60;
  t.notOk(lru.reweigh('a'), 'grown past the entry cap: let go');
  t.same([lru.get('a'), lru.weight()], [undefined, 30]);
  t.notOk(lru.reweigh('gone'), 'an entry no longer kept is not counted');
});

t.test('the total never exceeds the bound, whatever is set and regrown', async (t) => {
  const lru = createLru<{ bytes: number }>(1000, (v) => v.bytes, { maxEntryWeight: 125 });
  const values: { bytes: number }[] = [];
  let over = 0;
  for (let i = 0; i < 2000; i += 1) {
    const value = { bytes: (i * 37) % 140 };
    values.push(value);
    lru.set(`k${i}`, value);
    const earlier = (i * 13) % values.length;
    values[earlier]!.bytes += 20;
    lru.reweigh(`k${earlier}`);
    if (lru.weight() > 1000) over += 1;
  }
  t.equal(over, 0);
  t.ok(lru.size() > 5, 'and it keeps entries');
});
