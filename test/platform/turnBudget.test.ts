import t from 'tap';
import { turnBudget } from '../../src/platform/turnBudget.js';

/** Holds the event loop for `ms`, as a read or render of a large payload does. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

t.test('stages cheaper than the budget run at once, in the same turn', async (t) => {
  const stage = turnBudget(50);
  const order: string[] = [];
  setImmediate(() => order.push('next turn'));
  await Promise.all([stage(() => order.push('a')), stage(() => order.push('b')), stage(() => order.push('c'))]);
  t.same(order, ['a', 'b', 'c']);
});

t.test('after a stage over the budget, the next waits until the loop has turned twice', async (t) => {
  const stage = turnBudget(5);
  const order: string[] = [];
  const first = stage(() => {
    busy(10);
    order.push('costly');
  });
  const second = stage(() => order.push('next stage'));
  // Work queued for the loop's next turn (as a request's I/O would be) runs before the next stage,
  // which starts in the turn after: the loop has polled for I/O twice in between.
  setImmediate(() => {
    order.push('turn 1');
    setImmediate(() => order.push('turn 2'));
  });
  await Promise.all([first, second]);
  t.same(order, ['costly', 'turn 1', 'next stage']);
});

t.test('costly stages asked together take a turn each; a stage that throws still counts', async (t) => {
  const stage = turnBudget(5);
  const order: string[] = [];
  let turns = 0;
  const tick = () => {
    turns += 1;
    if (turns < 50) setImmediate(tick);
  };
  setImmediate(tick);
  const failing = stage(() => {
    busy(10);
    throw new Error('render failed');
  });
  const others = [1, 2, 3].map((n) =>
    stage(() => {
      busy(10);
      order.push(`stage ${n} after ${turns} turns`);
    }),
  );
  await t.rejects(failing, /render failed/);
  await Promise.all(others);
  const at = order.map((line) => Number(/after (\d+)/.exec(line)?.[1]));
  t.equal(at.length, 3);
  t.ok(
    at.every((turn, i) => turn >= 2 * (i + 1)),
    `each costly stage two turns or more after the one before: ${order.join(', ')}`,
  );
});
