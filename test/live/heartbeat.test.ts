import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { spreadHeartbeat } from '../../src/live/heartbeat.js';

// Issue 34: 15,000 live streams' heartbeats written in one turn of the event loop held every
// request and the accept of every new connection for 0.3–0.6 s; each tick now beats one slice.

t.test('every stream beats each interval, a turn of the event loop beats one slice of them, a deleted stream no more', async (t) => {
  const beats = new Map<number, number>();
  /** Streams beaten in each turn of the event loop (a tick's writes all happen in one). */
  const turns: number[] = [];
  let current = 0;
  const heartbeat = spreadHeartbeat<number>(400, (stream) => {
    beats.set(stream, (beats.get(stream) ?? 0) + 1);
    if (current === 0)
      setImmediate(() => {
        turns.push(current);
        current = 0;
      });
    current += 1;
  });
  t.teardown(() => heartbeat.stop());
  for (let stream = 0; stream < 100; stream += 1) heartbeat.add(stream);
  heartbeat.delete(7);
  const behind = () => [...Array(100).keys()].filter((stream) => stream !== 7 && (beats.get(stream) ?? 0) < 2);
  for (let waited = 0; behind().length > 0 && waited < 30_000; waited += 50) await sleep(50);
  // The last tick's turn is counted once that turn has ended.
  await new Promise((resolve) => setImmediate(resolve));

  t.same(behind(), [], 'every stream beat twice');
  t.equal(beats.get(7), undefined, 'the deleted stream never beat');
  t.ok(turns.length >= 8, `the beats came in many turns (${turns.length})`);
  t.ok(Math.max(...turns) <= 25, `at most a quarter of the streams in one turn (4 slices), not all: ${Math.max(...turns)}`);
});

/** Streams 1 and 2 on a 20 ms heartbeat (shorter than a tick), and the beats in order. */
function twoStreams(t: Test) {
  const beats: number[] = [];
  const heartbeat = spreadHeartbeat<number>(20, (stream) => beats.push(stream));
  t.teardown(() => heartbeat.stop());
  heartbeat.add(1);
  heartbeat.add(2);
  return { beats, heartbeat };
}

t.test('an interval shorter than a tick beats every stream at each interval', async (t) => {
  const { beats } = twoStreams(t);
  const twice = () => beats.filter((s) => s === 1).length >= 2 && beats.filter((s) => s === 2).length >= 2;
  for (let waited = 0; !twice() && waited < 30_000; waited += 20) await sleep(20);
  t.ok(twice(), 'both beat repeatedly');
});

t.test('a stream written to since its last turn skips that beat, and beats at the next turn without writes', async (t) => {
  const { beats, heartbeat } = twoStreams(t);
  // Stream 1 is written to before every turn, stream 2 never: only 2 beats.
  const busy = setInterval(() => heartbeat.wrote(1), 2);
  for (let waited = 0; beats.length < 5 && waited < 30_000; waited += 20) await sleep(20);
  clearInterval(busy);
  t.ok(beats.length >= 5, 'the idle stream kept beating');
  t.ok(beats.filter((s) => s === 1).length <= 1, `the busy stream beat at most once (its first turn may come before a write): ${beats}`);
  const before = beats.filter((s) => s === 1).length;
  for (let waited = 0; beats.filter((s) => s === 1).length === before && waited < 30_000; waited += 20) await sleep(20);
  t.ok(beats.filter((s) => s === 1).length > before, 'once idle, it beats again');
});
