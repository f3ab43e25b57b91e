import t from 'tap';
import { randomBase64 } from '../../src/platform/randomPool.js';

t.test('random values come from the pool whole, never twice, across its refills', async (t) => {
  const seen = new Set<string>();
  // 4096 bytes a pool: 1,000 values of 16 bytes take four refills, and one of 4096 a fifth.
  for (let i = 0; i < 1000; i += 1) {
    const value = randomBase64(16);
    t.equal(Buffer.from(value, 'base64').length, 16);
    seen.add(value);
  }
  t.equal(seen.size, 1000, 'no value repeats');
  t.equal(Buffer.from(randomBase64(4096), 'base64').length, 4096, 'a whole pool is handed out fresh');
});
