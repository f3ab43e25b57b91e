import t from 'tap';
import { baseRevisionOf, type ChainLink, rebuildChain } from '../../src/eventstore/deltaChain.js';
import { makeDelta } from '../../src/eventstore/fossilDelta.js';
import { UndecodableVersionError } from '../../src/eventstore/storedVersions.js';

const STREAM = 'match-chain';
/** Versions of a live match: one rally more each time. */
const versions = Array.from({ length: 6 }, (_, v) =>
  Buffer.from(JSON.stringify({ sport: 'volleyball', actions: Array.from({ length: 200 + v }, (_, i) => ({ seq: i, team: i % 3 ? 'home' : 'away' })) })),
);
/** The chain to the newest version, newest first, as a store walks it: a keyframe, then a delta on each. */
const chain = (): ChainLink[] =>
  versions
    .map(
      (bytes, revision): ChainLink =>
        revision === 0
          ? { revision, stored: { data: bytes, encoding: null, baseRevision: null } }
          : { revision, stored: { data: makeDelta(versions[revision - 1]!, bytes)!, encoding: 'delta', baseRevision: revision - 1 } },
    )
    .reverse();

t.test('a chain walked back from its newest version to its keyframe rebuilds every version it ends at', async (t) => {
  const links = chain();
  t.same(
    links.map((link) => baseRevisionOf(STREAM, link)),
    [4, 3, 2, 1, 0, null],
    'each delta names its base; the keyframe ends the walk',
  );
  for (let start = 0; start < links.length; start += 1) {
    t.ok(rebuildChain(STREAM, links.slice(start), undefined).equals(versions[links.length - 1 - start]!), `version ${links.length - 1 - start}`);
  }
  t.ok(rebuildChain(STREAM, links.slice(0, 2), versions[3]).equals(versions[5]!), 'from a version kept whole on the way');
});

t.test('only the last result is checked against its checksum; what is given out is always checked', async (t) => {
  const links = chain();
  const lastDelta = links[0]!.stored.data as Buffer;
  const wrongChecksum = Buffer.from(lastDelta.toString().replace(/[0-9A-Za-z_~]+;$/, (sum) => `${sum.startsWith('1') ? '2' : '1'}${sum.slice(1)}`));
  t.throws(
    () => rebuildChain(STREAM, [{ ...links[0]!, stored: { ...links[0]!.stored, data: wrongChecksum } }, ...links.slice(1)], undefined),
    UndecodableVersionError,
    "the last delta's checksum is checked",
  );
  // An intermediate version whose checksum is wrong but whose bytes are right: not checked, and the last is right.
  const middle = links[2]!.stored.data as Buffer;
  const middleWrongSum = Buffer.from(middle.toString().replace(/[0-9A-Za-z_~]+;$/, (sum) => `${sum.startsWith('1') ? '2' : '1'}${sum.slice(1)}`));
  const relaxed = links.map((link, i) => (i === 2 ? { ...link, stored: { ...link.stored, data: middleWrongSum } } : link));
  t.ok(rebuildChain(STREAM, relaxed, undefined).equals(versions[5]!), 'an intermediate checksum is not what is given out');
  t.throws(() => rebuildChain(STREAM, relaxed.slice(2), undefined), UndecodableVersionError, 'asked for itself, that version is checked');
});

t.test('a delta without an earlier base, or with its base missing from the chain, is undecodable', async (t) => {
  t.throws(() => baseRevisionOf(STREAM, { revision: 3, stored: { data: Buffer.from('x'), encoding: 'delta', baseRevision: 3 } }), UndecodableVersionError);
  t.throws(() => baseRevisionOf(STREAM, { revision: 3, stored: { data: Buffer.from('x'), encoding: 'delta', baseRevision: null } }), UndecodableVersionError);
  t.throws(() => rebuildChain(STREAM, chain().slice(0, 2), undefined), UndecodableVersionError, 'a chain that stops at a delta needs its base');
  t.throws(() => rebuildChain(STREAM, [], undefined), UndecodableVersionError, 'an empty chain');
});
