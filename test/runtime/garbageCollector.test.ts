import t from 'tap';
import { HEAP_GROWTH_PERCENT, tuneGarbageCollector } from '../../src/runtime/garbageCollector.js';

t.test("the server's garbage-collector flags are set unless node was told its own", async (t) => {
  const both = [`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`, '--no-allocation-site-pretenuring'];
  t.same(tuneGarbageCollector(['--max-old-space-size=512']), both, 'other flags do not count');
  t.same(
    tuneGarbageCollector(['--heap-growing-percent=0']),
    ['--no-allocation-site-pretenuring'],
    "an operator's heap growth (0: V8's dynamic factor) is kept",
  );
  t.same(tuneGarbageCollector(['--heap_growing_percent=300']), ['--no-allocation-site-pretenuring'], 'in either spelling');
  t.same(tuneGarbageCollector(['--allocation-site-pretenuring']), [both[0]], "an operator's pretenuring is kept");
  t.same(tuneGarbageCollector(['--no-allocation_site_pretenuring', '--heap-growing-percent=150']), [], 'either spelling, and both kept');
});
