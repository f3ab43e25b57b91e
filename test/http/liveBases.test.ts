import t from 'tap';
import { createLiveBases } from '../../src/http/api/liveBases.js';

const text = (n: number) => `{"id":"m","n":"${'x'.repeat(n)}"}`;
const basis = (n: number) => ({ text: text(n), value: JSON.parse(text(n)) as unknown, index: null });

t.test('kept within the budget; when full, an idle basis makes room and a busy one stays', async (t) => {
  let now = 0;
  // Three bytes a character: 12,000 bytes hold four texts of 916 characters.
  const bases = createLiveBases(12_000, () => now);
  for (const key of ['a', 'b', 'd', 'e']) bases.set(key, basis(900));
  t.ok(
    ['a', 'b', 'd', 'e'].every((key) => bases.get(key) !== undefined),
    'four kept',
  );
  now = 10_000;
  bases.set('c', basis(900));
  t.notOk(bases.get('c') !== undefined, 'a newcomer is not kept while the others are in use (round-robin would let every one go)');
  now = 61_000;
  bases.set('c', basis(900));
  t.ok(bases.get('c') !== undefined && !bases.get('a') !== undefined, 'once the oldest is idle a minute, it makes room');
  t.same(bases.get('c'), basis(900), 'its text and value are kept');
  t.ok(bases.heldBytes <= 12_000, `${bases.heldBytes} bytes held of 12,000`);
  bases.clear();
  t.equal(bases.heldBytes, 0, 'an erasure lets go of them all');
});

t.test('one text larger than a quarter of the budget is not kept', async (t) => {
  const bases = createLiveBases(3000);
  bases.set('big', basis(300));
  t.notOk(bases.get('big') !== undefined);
});
