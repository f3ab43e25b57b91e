import t from 'tap';
import { createShutOutAddresses } from '../../src/http/shutOutAddresses.js';

t.test('an address refused more than the limit within a window is shut out for a window from then, others are not', async (t) => {
  let now = 0;
  const shutOut = createShutOutAddresses({ limit: 3, windowMs: 1000, now: () => now });
  for (let i = 0; i < 3; i += 1) shutOut.refused('a');
  t.notOk(shutOut.isShut('a'), 'up to the limit: refused one by one');
  now = 500;
  shutOut.refused('a');
  t.ok(shutOut.isShut('a'), 'past it: shut out');
  t.notOk(shutOut.isShut('b'), 'another address is not');
  now = 1499;
  t.ok(shutOut.isShut('a'), 'for a window from the refusal that crossed the limit');
  now = 1500;
  t.notOk(shutOut.isShut('a'), 'and let in again after it');
});

t.test('refusals count within a window: as many spread over longer never shut an address out', async (t) => {
  let now = 0;
  const shutOut = createShutOutAddresses({ limit: 3, windowMs: 1000, now: () => now });
  for (let i = 0; i < 20; i += 1) {
    now = i * 400;
    shutOut.refused('a');
    if (shutOut.isShut('a')) t.fail(`shut out at ${now} ms`);
  }
  t.pass('20 refusals at 400 ms apart: at most 3 in any window');
});

t.test('a refusal past the limit while shut out keeps it shut out a window more', async (t) => {
  let now = 0;
  const shutOut = createShutOutAddresses({ limit: 1, windowMs: 1000, now: () => now });
  shutOut.refused('a');
  shutOut.refused('a');
  now = 900;
  shutOut.refused('a');
  now = 1500;
  t.ok(shutOut.isShut('a'), 'a window from the last refusal past the limit');
  now = 1900;
  t.notOk(shutOut.isShut('a'));
});
