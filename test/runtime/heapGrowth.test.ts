import t from 'tap';
import { limitHeapGrowth } from '../../src/runtime/heapGrowth.js';

t.test("the server's heap growth is set unless node was told its own", async (t) => {
  t.equal(limitHeapGrowth(['--heap-growing-percent=0']), false, "an operator's flag (0: V8's dynamic factor) is kept");
  t.equal(limitHeapGrowth(['--heap_growing_percent=300']), false, 'in either spelling');
  t.equal(limitHeapGrowth(['--max-old-space-size=512']), true, 'other flags do not count');
});
