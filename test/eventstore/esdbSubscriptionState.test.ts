import t from 'tap';
import {
  initialSubscriptionState,
  isNewEvent,
  nextSubscriptionState,
  type SubscriptionInput,
  type SubscriptionState,
  whenIdle,
} from '../../src/eventstore/esdbSubscriptionState.js';

const retry = { retryDelayMs: 100, maxRetryDelayMs: 350 };
/** The state after each input in turn, from `state`. */
const after = (state: SubscriptionState, ...inputs: SubscriptionInput[]) => inputs.reduce((s, input) => nextSubscriptionState(s, input, retry), state);
const start = (position: number | null = null) => initialSubscriptionState(position, retry);
const opened: SubscriptionInput = { type: 'opened' };
const reachedHead: SubscriptionInput = { type: 'reachedHead' };
const announced: SubscriptionInput = { type: 'announced' };
const delivered = (position: number): SubscriptionInput => ({ type: 'delivered', position });
const dropped = (cause: unknown = new Error('gone')): SubscriptionInput => ({ type: 'dropped', cause });

t.test('a subscription starts connecting from the position asked for, without waiting', async (t) => {
  t.same(start(42), { kind: 'connecting', position: 42, waitMs: 0, backoffMs: 100, cause: null });
  t.same(after(start(42), opened), { kind: 'catchingUp', position: 42, backoffMs: 100 });
});

t.test('delivering the past moves the position and keeps catching up until the server reaches the head', async (t) => {
  const state = after(start(), opened, delivered(10), delivered(20));
  t.same(state, { kind: 'catchingUp', position: 20, backoffMs: 100 });
  t.equal(whenIdle(state), 'waitAndProbe', 'idle while catching up: wait, then look at the head');
});

t.test('the server reaching the head makes caughtUp due, said once, at the last position delivered', async (t) => {
  const due = after(start(), opened, delivered(10), reachedHead);
  t.same(due, { kind: 'caughtUp', position: 10, backoffMs: 100 });
  t.equal(whenIdle(due), 'announce');
  const live = after(due, announced);
  t.same(live, { kind: 'live', position: 10, backoffMs: 100 });
  t.equal(whenIdle(live), 'wait', 'not said again while nothing new comes');
  t.same(after(live, reachedHead), live, 'the server saying it again changes nothing');
});

t.test('events the server sent before saying it caught up are delivered before caughtUp', async (t) => {
  const due = after(start(), opened, reachedHead, delivered(30));
  t.same(due, { kind: 'caughtUp', position: 30, backoffMs: 100 }, 'still due, now at the later position');
});

t.test('new events while live make caughtUp due again, at their position', async (t) => {
  const state = after(start(), opened, reachedHead, announced, delivered(50));
  t.same(state, { kind: 'caughtUp', position: 50, backoffMs: 100 });
  t.same(after(state, announced, delivered(60), announced), { kind: 'live', position: 60, backoffMs: 100 });
});

t.test('an empty log: caughtUp is due at the position subscribed from (null from the start)', async (t) => {
  t.same(after(start(), opened, reachedHead), { kind: 'caughtUp', position: null, backoffMs: 100 });
  t.same(after(start(7), opened, reachedHead), { kind: 'caughtUp', position: 7, backoffMs: 100 });
});

t.test('servers that never say it: a probe of the head makes caughtUp due only when nothing is past the position', async (t) => {
  const probed = (position: number | null, head: number | null) => after(start(position), opened, { type: 'headProbed', head }).kind;
  t.equal(probed(null, null), 'caughtUp', 'empty log, from the start');
  t.equal(probed(20, 20), 'caughtUp', 'at the head');
  t.equal(probed(20, 10), 'caughtUp', 'past the head of our streams');
  t.equal(probed(20, 30), 'catchingUp', 'events still to come');
  t.equal(probed(null, 5), 'catchingUp', 'from the start of a log that has events');
  const live = after(start(), opened, reachedHead, announced);
  t.same(after(live, { type: 'headProbed', head: null }), live, 'a probe answered late changes nothing once live');
});

t.test('falling behind goes back to catching up; caughtUp is said again when the server catches up', async (t) => {
  const behind = after(start(), opened, reachedHead, announced, { type: 'fellBehind' });
  t.same(behind, { kind: 'catchingUp', position: null, backoffMs: 100 });
  t.same(after(start(), opened, reachedHead, { type: 'fellBehind' }).kind, 'catchingUp', 'a due caughtUp is not said after falling behind');
  t.equal(after(behind, delivered(5), reachedHead).kind, 'caughtUp');
});

t.test('a drop reconnects from the last position delivered, after a backoff that doubles up to the maximum', async (t) => {
  const cause = new Error('connection reset');
  const first = after(start(), opened, delivered(10), dropped(cause));
  t.same(first, { kind: 'connecting', position: 10, waitMs: 100, backoffMs: 200, cause });
  const waits = [first];
  for (let i = 0; i < 3; i += 1) waits.push(after(waits.at(-1) ?? first, opened, dropped()));
  t.same(
    waits.map((s) => (s.kind === 'connecting' ? s.waitMs : -1)),
    [100, 200, 350, 350],
  );
  t.same(after(waits.at(-1) ?? first, dropped()).kind, 'connecting', 'failing to open is a drop too');
});

t.test('delivering or saying caughtUp after a reconnect resets the backoff', async (t) => {
  const reconnected = after(start(), opened, dropped(), opened, dropped(), opened);
  t.same(reconnected, { kind: 'catchingUp', position: null, backoffMs: 350 });
  t.same(after(reconnected, delivered(3)), { kind: 'catchingUp', position: 3, backoffMs: 100 });
  t.same(after(reconnected, reachedHead, announced), { kind: 'live', position: null, backoffMs: 100 });
});

t.test('a drop while caughtUp was due or said: catching up again after reconnecting, and said again', async (t) => {
  const reconnected = after(start(), opened, delivered(10), reachedHead, announced, dropped(), opened);
  t.same(reconnected, { kind: 'catchingUp', position: 10, backoffMs: 200 });
  t.equal(whenIdle(after(reconnected, reachedHead)), 'announce');
});

t.test('closed is final: nothing moves it, from any state', async (t) => {
  const states = [
    start(),
    after(start(), opened),
    after(start(), opened, reachedHead),
    after(start(), opened, reachedHead, announced),
    after(start(), dropped()),
  ];
  const inputs: SubscriptionInput[] = [
    opened,
    delivered(99),
    reachedHead,
    { type: 'headProbed', head: null },
    { type: 'fellBehind' },
    announced,
    dropped(),
    { type: 'closed' },
  ];
  for (const state of states) {
    const closed = after(state, { type: 'closed' });
    t.same(closed, { kind: 'closed', position: state.position }, `${state.kind} → closed`);
    for (const input of inputs) t.equal(after(closed, input), closed, `closed ignores ${input.type}`);
    t.equal(whenIdle(closed), 'wait');
  }
});

t.test('inputs that do not apply leave the state as it is', async (t) => {
  const connecting = start(5);
  for (const input of [delivered(9), reachedHead, { type: 'fellBehind' } as const, announced, { type: 'headProbed', head: null } as const]) {
    t.equal(after(connecting, input), connecting, `connecting ignores ${input.type}`);
  }
  const catchingUp = after(start(5), opened);
  t.equal(after(catchingUp, opened), catchingUp, 'opened twice');
  t.equal(after(catchingUp, announced), catchingUp, 'announced before it was due');
});

t.test('events at or before the position are repeats the reader leaves out', async (t) => {
  t.ok(isNewEvent(start(), 0), 'from the start, every event is new');
  t.notOk(isNewEvent(start(10), 10));
  t.notOk(isNewEvent(start(10), 3));
  t.ok(isNewEvent(start(10), 11));
});
