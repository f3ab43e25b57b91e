import t from 'tap';
import type { CheckpointHint } from '../../src/readmodel/mongoCheckpoints.js';
import { leftoverCollections } from '../../src/readmodel/mongoLeftovers.js';

t.test('leftovers are what no pointer names any more; what a pointer names, or no switch touched, stays', async (t) => {
  const pointers: CheckpointHint[] = [
    { _id: 'publicView', position: 9, generation: 'g2', collections: { publicView: 'publicView__g000000000002' }, retired: ['publicView__g000000000001'] },
    { _id: 'publicView__rebuild', position: 4, generation: 'g3', collections: { publicView__rebuild: 'publicView__rebuild__g000000000003' } },
    { _id: 'syncStatus', position: 9, generation: 'first' },
  ];
  const existing = [
    'publicView', // moved away from, recreated by a worker still committing to it
    'publicView__g000000000001', // retired by the last switch
    'publicView__g000000000002', // live
    'publicView__rebuild__g000000000003', // a rebuild's staged collection
    'publicView__rebuild__g0000000000ff', // named by no pointer
    'syncStatus', // never rebuilt
    'someoneElses', // not ours
  ];
  t.same(leftoverCollections(existing, pointers).sort(), ['publicView', 'publicView__g000000000001', 'publicView__rebuild__g0000000000ff']);
});
