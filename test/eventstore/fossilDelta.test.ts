import fc from 'fast-check';
import { applyDelta as packageApply } from 'fossil-delta';
import t from 'tap';
import { applyDelta, BadDeltaError, checksum, makeDelta } from '../../src/eventstore/fossilDelta.js';
import { numRuns } from '../helpers/properties.js';

const bytes = fc.uint8Array({ maxLength: 3000 });
/** A target made from the base by a few edits, as versions of one match are. */
const edited = bytes.chain((base) =>
  fc.tuple(fc.constant(base), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 200 }), fc.uint8Array({ maxLength: 200 })), { maxLength: 6 })),
);

t.test('applying a delta gives the target byte for byte, as the package itself does', async () => {
  fc.assert(
    fc.property(edited, ([base, edits]) => {
      let target = Buffer.from(base);
      for (const [at, remove, insert] of edits) {
        const cut = at % (target.length + 1);
        target = Buffer.concat([target.subarray(0, cut), insert, target.subarray(cut + remove)]);
      }
      const delta = makeDelta(Buffer.from(base), target)!;
      const ours = applyDelta(Buffer.from(base), delta);
      return ours.equals(target) && Buffer.from(packageApply(base, new Uint8Array(delta))).equals(target);
    }),
    { numRuns: numRuns(300) },
  );
});

t.test('a long text edited in a few places: the delta is made from what lies between the common prefix and suffix, and is small', async (t) => {
  const base = Buffer.from(
    JSON.stringify({ score: { home: 11, away: 9 }, actions: Array.from({ length: 2000 }, (_, i) => ({ seq: i, team: i % 2 ? 'home' : 'away' })) }),
  );
  const target = Buffer.from(base.toString().replace('"home":11', '"home":12').replace(/]}$/, ',{"seq":2000,"team":"home"}]}'));
  const delta = makeDelta(base, target)!;
  t.ok(applyDelta(base, delta).equals(target), 'our applier');
  t.ok(Buffer.from(packageApply(base, new Uint8Array(delta))).equals(target), "the package's applier");
  t.ok(delta.length < 200, `${delta.length} bytes for a ${target.length}-byte version`);
  t.ok(makeDelta(base, target)?.equals(delta), 'the same bytes every time (a retried append stores the same)');
  t.equal(
    makeDelta(base, Buffer.from(target.toString().replaceAll('"team"', '"side"')), 1024),
    null,
    'changed all through: no delta past the bound (the version is a keyframe)',
  );
});

t.test('a JSON text edited in a few places, as a live match is: walked in step with its base, exact, and small', async (t) => {
  const action = (i: number) => ({
    seq: i,
    set: 1 + Math.floor(i / 40),
    team: i % 3 ? 'home' : 'away',
    type: i % 5 ? 'attack' : 'serve',
    score: { home: i >> 1, away: i >> 2 },
  });
  const text = (n: number) =>
    JSON.stringify({ sets: [{ set: 1, home: n % 25, away: n % 23 }], stats: { kills: n >> 3 }, actions: Array.from({ length: n }, (_, i) => action(i)) });
  const edit = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 60 }));
  fc.assert(
    fc.property(fc.integer({ min: 20, max: 300 }), fc.array(edit, { maxLength: 8 }), (n, edits) => {
      let target = text(n + 1);
      for (const [at, remove, insert] of edits) {
        const cut = at % (target.length + 1);
        target = target.slice(0, cut) + insert + target.slice(cut + remove);
      }
      const base = Buffer.from(text(n));
      const delta = makeDelta(base, Buffer.from(target))!;
      return applyDelta(base, delta).toString() === target && Buffer.from(packageApply(base, new Uint8Array(delta))).toString() === target;
    }),
    { numRuns: numRuns(300), seed: 28 },
  );
  const base = Buffer.from(text(200));
  const next = Buffer.from(text(201));
  const delta = makeDelta(base, next, 0);
  t.ok(delta !== null, 'one more action, another score and stat: a delta with no bytes left to the matcher (its bound is 0)');
  t.ok(applyDelta(base, delta!).equals(next), 'and it gives the next version');
  t.ok(delta!.length < 300, `${delta!.length} bytes for a ${next.length}-byte version`);
});

t.test("texts of two letters, where every probe is found everywhere: still exact, within the walk's bounds", async () => {
  const letters = fc.array(fc.constantFrom(97, 98), { minLength: 0, maxLength: 6000 }).map((codes) => Buffer.from(codes));
  const edits = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 300 }), fc.array(fc.constantFrom(97, 98, 99), { maxLength: 300 })), { maxLength: 12 });
  fc.assert(
    fc.property(letters, edits, (base, changes) => {
      let target = Buffer.from(base);
      for (const [at, remove, insert] of changes) {
        const cut = at % (target.length + 1);
        target = Buffer.concat([target.subarray(0, cut), Buffer.from(insert), target.subarray(cut + remove)]);
      }
      const delta = makeDelta(base, target);
      return delta !== null && applyDelta(base, delta).equals(target);
    }),
    { numRuns: numRuns(300), seed: 57 },
  );
});

t.test('a damaged delta is a BadDeltaError, never other bytes or another error', async () => {
  fc.assert(
    fc.property(bytes, bytes, fc.nat(), fc.integer({ min: 1, max: 255 }), (base, target, at, flip) => {
      const delta = Buffer.from(makeDelta(Buffer.from(base), Buffer.from(target))!);
      if (delta.length === 0) return true;
      delta[at % delta.length] = (delta[at % delta.length] ?? 0) ^ flip;
      try {
        return applyDelta(Buffer.from(base), delta).equals(target) || false;
      } catch (error) {
        return error instanceof BadDeltaError;
      }
    }),
    { numRuns: numRuns(500), seed: 34 },
  );
});

t.test("the checksum summed by word lanes is Fossil's byte-by-byte one, at any length and alignment", async (t) => {
  // Fossil's own definition (delta.c): four interleaved byte sums, then the last bytes.
  const fossils = (bytes: Uint8Array) => {
    const sums = [0, 0, 0, 0];
    const whole = bytes.length & ~3;
    for (let at = 0; at < whole; at += 1) sums[at % 4] = (sums[at % 4]! + bytes[at]!) | 0;
    let sum = (sums[3]! + (sums[2]! << 8) + (sums[1]! << 16) + (sums[0]! << 24)) | 0;
    for (let at = whole; at < bytes.length; at += 1) sum = (sum + (bytes[at]! << (24 - 8 * (at - whole)))) | 0;
    return sum >>> 0;
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat({ max: 3 }), (bytes, offset) => {
      const shifted = new Uint8Array(bytes.length + offset);
      shifted.set(bytes, offset);
      return checksum(shifted.subarray(offset)) === fossils(bytes);
    }),
    { numRuns: numRuns(500) },
  );
  const ones = new Uint8Array(1 << 20).fill(255);
  t.equal(checksum(ones), fossils(ones), 'a MiB of 0xff: every lane full, the sums past 2^31');
});
