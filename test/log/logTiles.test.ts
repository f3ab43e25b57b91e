import t from 'tap';
import { parseTilePath, readEntryBundle, tileIndexPath } from '../../src/domain/logTiles.js';
import { appendLeaf, frontierRoot, leafHash } from '../../src/domain/merkleTree.js';
import { fixtureText } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

t.test('a tile index is written as C2SP tlog-tiles writes it, and only that way is read', async (t) => {
  t.equal(tileIndexPath(0), '000');
  t.equal(tileIndexPath(67), '067');
  t.equal(tileIndexPath(1234067), 'x001/x234/067');
  t.same(parseTilePath('2/x001/x234/067.p/7'), { level: 2, index: 1234067, width: 7 });
  t.same(parseTilePath('entries/x001/000'), { level: 'entries', index: 1000, width: 256 });
  for (const bad of ['0/1', '0/x000/001', '0/000.p/0', '0/000.p/256', '0/000.p/07', '7/000', 'entries/000/', '00/000']) t.equal(parseTilePath(bad), null, bad);
});

t.test('tiles over a log of 300 entries', async (t) => {
  const { app } = await startTestApp(t);
  const payload = fixtureText({ seed: 3, actions: 2 });
  for (let i = 0; i < 300; i += 1) await app.inject({ method: 'PUT', url: `/api/matches/tile-${i}`, headers: json, payload });
  const entries: string[] = [];
  for (let i = 0; i < 300; i += 1) entries.push((await app.inject({ url: `/api/log/entries/${i}` })).body);
  const tile = (path: string) => app.inject({ url: `/api/log/tile/${path}` });

  t.test('a full entry bundle is its 256 entries, length-prefixed, cached for good', async (t) => {
    const response = await tile('entries/000');
    t.equal(response.statusCode, 200);
    t.equal(response.headers['content-type'], 'application/octet-stream');
    t.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.same(
      readEntryBundle(response.rawPayload)?.map((entry) => entry.toString()),
      entries.slice(0, 256),
    );
  });

  t.test('a partial bundle is served up to the tree size, cached briefly; beyond it 404', async (t) => {
    const partial = await tile('entries/001.p/44');
    t.equal(partial.statusCode, 200);
    t.equal(partial.headers['cache-control'], 'public, max-age=10');
    t.same(
      readEntryBundle(partial.rawPayload)?.map((entry) => entry.toString()),
      entries.slice(256),
    );
    t.equal((await tile('entries/001.p/10')).statusCode, 200, 'a narrower partial tile too');
    t.equal((await tile('entries/001.p/45')).statusCode, 404);
    t.equal((await tile('entries/001')).statusCode, 404, 'the full tile once the tree fills it');
    t.equal((await tile('entries/1')).statusCode, 404, 'a path not in the canonical form');
  });

  t.test('hash tiles hold the leaf hashes (level 0) and the hashes of 256-leaf subtrees (level 1)', async (t) => {
    const level0 = await tile('0/000');
    t.equal(level0.statusCode, 200);
    t.same(level0.rawPayload, Buffer.concat(entries.slice(0, 256).map((entry) => leafHash(entry))));
    const rest = await tile('0/001.p/44');
    t.same(rest.rawPayload, Buffer.concat(entries.slice(256).map((entry) => leafHash(entry))));
    let frontier: Buffer[] = [];
    for (const [index, entry] of entries.slice(0, 256).entries()) frontier = appendLeaf(frontier, index, leafHash(entry)).frontier;
    const level1 = await tile('1/000.p/1');
    t.equal(level1.statusCode, 200);
    t.same(level1.rawPayload, frontierRoot(frontier), 'the root of the first 256 leaves');
    t.equal((await tile('1/000.p/2')).statusCode, 404);
  });
});
