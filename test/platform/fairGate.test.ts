import t from 'tap';
import { createFairGate } from '../../src/platform/fairGate.js';

/** A piece of work that ends when `finish` is called, recording when it started. */
function held(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = async () => {
    started.push(name);
    await done;
    return name;
  };
  return { work, finish: () => finish() };
}

const refuse = (by: 'key' | 'total') => new Error(by);
const settle = () => new Promise((resolve) => setImmediate(resolve));

t.test("a key's work runs one piece after another, in order; beyond its queue it is refused at once, other keys still run", async (t) => {
  const gate = createFairGate({ perKey: { running: 1, waiting: 1 }, total: { running: 4, waiting: 4 } });
  const started: string[] = [];
  const [a1, a2, b1] = [held(started, 'a1'), held(started, 'a2'), held(started, 'b1')];
  const runs = [gate.run('a', a1.work, refuse), gate.run('a', a2.work, refuse)];
  await t.rejects(
    gate.run('a', async () => 'a3', refuse),
    { message: 'key' },
  );
  const other = gate.run('b', b1.work, refuse);
  await settle();
  t.same(started, ['a1', 'b1'], 'a2 waits behind a1; b is not kept waiting by a');
  a1.finish();
  await settle();
  t.same(started, ['a1', 'b1', 'a2']);
  a2.finish();
  b1.finish();
  t.same(await Promise.all([...runs, other]), ['a1', 'a2', 'b1']);
  t.equal(gate.keys(), 0, 'no key is kept once its work ended');
});

t.test('beyond the places of all keys, refused as total; a failed piece gives its place back', async (t) => {
  const gate = createFairGate({ perKey: { running: 1, waiting: 1 }, total: { running: 1, waiting: 0 } });
  const started: string[] = [];
  const a = held(started, 'a');
  const run = gate.run('a', a.work, refuse);
  await settle();
  await t.rejects(
    gate.run('b', async () => 'b', refuse),
    { message: 'total' },
  );
  a.finish();
  await run;
  await t.rejects(
    gate.run(
      'c',
      async () => {
        throw new Error('failed');
      },
      refuse,
    ),
    { message: 'failed' },
  );
  t.equal(await gate.run('d', async () => 'd', refuse), 'd', 'the place is free again');
  t.equal(gate.keys(), 0);
});
