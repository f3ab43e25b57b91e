import t from 'tap';
import { createVersionCache, keepTip } from '../../src/eventstore/versionCache.js';

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

t.test("a stream's new newest version takes its previous one's place in the cache", async (t) => {
  const versions = createVersionCache(10_000);
  keepTip(versions, 's', null, { revision: 0, depth: 0, bytes: '{"first":"version kept as its text"}' });
  t.equal(versions.heldBytes, 0, "a stream's first version (its text) is not cached");
  keepTip(versions, 's', { revision: 0 }, { revision: 1, depth: 1, bytes: bytes(1000, 1) });
  keepTip(versions, 's', { revision: 1 }, { revision: 2, depth: 2, bytes: bytes(1000, 2) });
  keepTip(versions, 's', { revision: 2 }, { revision: 3, depth: 3, bytes: bytes(1000, 3) });
  t.equal(versions.heldBytes, 1000, 'one version held for the stream, not its history');
  t.same(versions.get('s', 3), bytes(1000, 3));
  t.equal(versions.get('s', 2), undefined, 'the one it replaced is let go');
  keepTip(versions, 'other', null, { revision: 5, depth: 0, bytes: bytes(500, 9) });
  t.equal(versions.heldBytes, 1500, "another stream's newest is kept beside it");
  // A version read back (a reader rebuilt it) is cached as before, whatever the tips.
  versions.set('s', 1, bytes(1000, 1));
  t.equal(versions.heldBytes, 2500);
});
