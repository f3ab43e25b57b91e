import fc from 'fast-check';
import { applyDelta as packageApply } from 'fossil-delta';
import t from 'tap';
import { applyDelta, BadDeltaError, makeDelta } from '../../src/eventstore/fossilDelta.js';

const bytes = fc.uint8Array({ maxLength: 3000 });
/** A target made from the base by a few edits, as versions of one match are. */
const edited = bytes.chain((base) => fc.tuple(fc.constant(base), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 200 }), fc.uint8Array({ maxLength: 200 })), { maxLength: 6 })));

t.test('applying a delta gives the target byte for byte, as the package itself does', async () => {
  fc.assert(
    fc.property(edited, ([base, edits]) => {
      let target = Buffer.from(base);
      for (const [at, remove, insert] of edits) {
        const cut = at % (target.length + 1);
        target = Buffer.concat([target.subarray(0, cut), insert, target.subarray(cut + remove)]);
      }
      const delta = makeDelta(base, target);
      const ours = applyDelta(Buffer.from(base), delta);
      return ours.equals(target) && Buffer.from(packageApply(base, new Uint8Array(delta))).equals(target);
    }),
    { numRuns: 300 },
  );
});

t.test('a damaged delta is a BadDeltaError, never other bytes or another error', async () => {
  fc.assert(
    fc.property(bytes, bytes, fc.nat(), fc.integer({ min: 1, max: 255 }), (base, target, at, flip) => {
      const delta = Buffer.from(makeDelta(base, target));
      if (delta.length === 0) return true;
      delta[at % delta.length] = (delta[at % delta.length] ?? 0) ^ flip;
      try {
        return applyDelta(Buffer.from(base), delta).equals(target) || false;
      } catch (error) {
        return error instanceof BadDeltaError;
      }
    }),
    { numRuns: 500, seed: 34 },
  );
});
