import t from 'tap';
import { createLiveBases } from '../../src/http/api/liveBases.js';

const text = (n: number) => `{"id":"m","n":"${'x'.repeat(n)}"}`;

t.test('kept within the budget; when full, an idle basis makes room and a busy one stays', async (t) => {
  let now = 0;
  // Three bytes a character: 12,000 bytes hold four texts of 916 characters.
  const bases = createLiveBases(12_000, () => now);
  for (const key of ['a', 'b', 'd', 'e']) bases.set(key, text(900), null);
  t.ok(
    ['a', 'b', 'd', 'e'].every((key) => bases.has(key)),
    'four kept',
  );
  now = 10_000;
  bases.set('c', text(900), null);
  t.notOk(bases.has('c'), 'a newcomer is not kept while the others are in use (round-robin would let every one go)');
  now = 61_000;
  bases.set('c', text(900), null);
  t.ok(bases.has('c') && !bases.has('a'), 'once the oldest is idle a minute, it makes room');
  t.same(bases.get('c'), { text: text(900), value: JSON.parse(text(900)), index: null }, 'a text kept alone is parsed when first used');
  t.ok(bases.heldBytes <= 12_000, `${bases.heldBytes} bytes held of 12,000`);
  bases.clear();
  t.equal(bases.heldBytes, 0, 'an erasure lets go of them all');
});

t.test('one text larger than a quarter of the budget is not kept', async (t) => {
  const bases = createLiveBases(3000);
  bases.set('big', text(300), null);
  t.notOk(bases.has('big'));
});
