import { connect, type Socket } from 'node:net';
import t from 'tap';
import { cachedBody, createRenderedCache, renderedBody } from '../../src/http/renderedPages.js';
import { PUBLIC_VIEW } from '../../projections/publicView.js';
import { fixture } from '../helpers/fixtures.js';
import { json, logLines, startTestApp } from '../helpers/testApp.js';

// Issue 34, item 3: a write to one of several watched matches costs one read of that match
// for all its viewers, each viewer is sent the revision as it is, and the page's live part
// they then all fetch at once is rendered once for the revision.

const VIEWERS = 10;

interface Viewer {
  socket: Socket;
  revisions: number[];
}

/** A live stream over a raw socket from `address`, as a phone in a gym opens it. */
function openViewer(port: number, id: string, address: string): Viewer {
  const socket = connect({ host: '127.0.0.1', port, localAddress: address });
  const viewer: Viewer = { socket, revisions: [] };
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    for (const found of text.matchAll(/^id: (\d+)\r?$/gm)) {
      const revision = Number(found[1]);
      if (!viewer.revisions.includes(revision)) viewer.revisions.push(revision);
    }
  });
  socket.write(`GET /match/${id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  return viewer;
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 250; i += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not within 5 s: ${what}`);
}

interface AccessLine {
  msg: string;
  req?: { method: string; url: string };
  bodyCache?: string;
}

t.test('a write to one of three watched matches: one read for its ten viewers, the revision as sent, its live part rendered once', async (t) => {
  const started = await startTestApp(t);
  const { app, engine, logs } = started;
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const port = Number(new URL(base).port);
  const ids = ['fan-a', 'fan-b', 'fan-c'];
  const upload = (id: string, setsWon: number) =>
    fetch(`${base}/api/matches`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ ...fixture({ seed: 3, actions: 60 }), id, homeTeam: { name: 'Lakeside Herons', setsWon } }),
    });
  for (const id of ids) t.equal((await upload(id, 0)).status, 201);

  // Every read of public views by id list, seen as it passes to the real store: the projection's
  // own (it reads the documents a batch changes) and the live feed's.
  let refreshes: string[][] = [];
  const getMany = engine.readModel.getMany.bind(engine.readModel);
  engine.readModel.getMany = (collection, matchIds) => {
    if (String(collection) === PUBLIC_VIEW) refreshes.push([...matchIds]);
    return getMany(collection, matchIds);
  };
  // A write nobody watches: what the projection reads by itself.
  t.equal((await upload('fan-c', 1)).status, 201);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const unwatched = refreshes.map((ids) => ids.map((id) => id.replace('fan-c', 'fan-b')));
  refreshes = [];

  const viewers = ids.map((id, m) => Array.from({ length: VIEWERS }, (_, v) => openViewer(port, id, `127.0.0.${10 + m * VIEWERS + v}`)));
  t.teardown(() => {
    for (const viewer of viewers.flat()) viewer.socket.destroy();
  });
  await until(() => viewers.flat().every((viewer) => viewer.revisions.length > 0), "every viewer has its match's revision");

  t.equal((await upload('fan-b', 1)).status, 201);
  await until(() => viewers[1]!.every((viewer) => viewer.revisions.includes(1)), 'every viewer of fan-b has revision 1');
  await new Promise((resolve) => setTimeout(resolve, 200));
  if (engine.publicViewCommits !== null) {
    t.same(refreshes, [...unwatched, ['fan-b']], 'the feed adds one read, of the written match only, for its ten viewers (of thirty watching three matches)');
  } else {
    t.comment('projections run in another process here: the feed reads every watched match once per move (the fallback)');
    t.equal(refreshes.length, unwatched.length + 1, 'the feed adds one read for all thirty viewers');
  }
  t.same(
    viewers[1]!.map((viewer) => viewer.revisions),
    Array.from({ length: VIEWERS }, () => [0, 1]),
    'each viewer of fan-b was sent revision 1',
  );
  t.ok(
    viewers[0]!.every((viewer) => viewer.revisions.join() === '0'),
    'the viewers of another match were sent nothing',
  );
  t.ok(
    viewers[2]!.every((viewer) => viewer.revisions.join() === '1'),
    'nor those of the match written before they came (they joined at its revision 1)',
  );

  // What each page's script then does: fetch the live part, all at the same moment.
  const parts = await Promise.all(
    viewers[1]!.map(() => fetch(`${base}/match/fan-b?part=main`, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } })),
  );
  t.same(
    parts.map((part) => part.status),
    Array.from({ length: VIEWERS }, () => 200),
  );
  const bodies = await Promise.all(parts.map((part) => part.text()));
  t.ok(
    bodies.every((body) => body === bodies[0] && /data-revision="1"/.test(body)),
    'the same part, of revision 1, for every viewer',
  );
  const notes = logLines<AccessLine>(logs)
    .filter((line) => line.msg === 'request completed' && line.req?.url === '/match/fan-b?part=main')
    .map((line) => line.bodyCache);
  t.equal(notes.filter((note) => note === 'stored').length, 1, 'rendered once, by the first request');
  t.equal(
    notes.filter((note) => note === 'hit' || note === 'joined').length,
    VIEWERS - 1,
    'the other nine were served the same bytes (kept, or the render under way)',
  );
});

t.test('requests for a body being made wait for it: ten at once over a store that answers later make it once', async (t) => {
  const cache = createRenderedCache(1 << 20);
  let renders = 0;
  // A read that answers on a later turn, as MongoDB's or EventStoreDB's does.
  const make = async () => {
    renders += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return renderedBody('<main id="match-main" data-revision="1"></main>');
  };
  const requests = Array.from({ length: VIEWERS }, () => ({ accessLogNotes: null as Record<string, unknown> | null }));
  const bodies = await Promise.all(requests.map((request) => cachedBody(request, cache, 'page\0m\x001\0main', make)));
  t.equal(renders, 1, 'made once');
  t.ok(
    bodies.every((body) => body === bodies[0]),
    'the same body for all',
  );
  t.same(
    requests.map((request) => request.accessLogNotes?.bodyCache).sort(),
    [...Array.from({ length: VIEWERS - 1 }, () => 'joined'), 'stored'],
    'one stored it, nine joined',
  );
  const failing = await Promise.allSettled(
    [1, 2].map(() => cachedBody({ accessLogNotes: null }, cache, 'failing', () => Promise.reject(new Error('store down')))),
  );
  t.same(
    failing.map((result) => result.status),
    ['rejected', 'rejected'],
    'a failed make fails its waiters too',
  );
  t.equal(cache.making.size, 0, 'and is not kept, nor left pending');
});
