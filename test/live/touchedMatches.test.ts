import t from 'tap';
import { checkpointSignal, type LocalCommits } from '../../src/live/changeSignal.js';
import { createMatchFeed } from '../../src/live/matchFeed.js';
import { PUBLIC_VIEW } from '../../projections/publicView.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Issue 33, item 8: a write reads the watched matches it touched, not every watched match.

const body = (id: string, score: number) =>
  JSON.stringify({ id, sport: 'volleyball', homeTeam: { name: 'A', setsWon: score }, awayTeam: { name: 'B', setsWon: 0 } });

t.test('a commit of this process refreshes only the matches it touched; a move it cannot explain refreshes all', async (t) => {
  const { app, engine } = await startTestApp(t);
  if (engine.publicViewCommits === null) {
    t.comment('projections run in another process here (MATCHLOG_TEST_READ_MODELS): nothing to check');
    return;
  }
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const ids = Array.from({ length: 40 }, (_, i) => `watched-${i}`);
  for (const id of ids) t.equal((await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: body(id, 0) })).status, 201);

  const feedOf = (localCommits: LocalCommits | null) => {
    const asked: string[][] = [];
    const feed = createMatchFeed({
      signal: checkpointSignal({ checkpoint: () => engine.readModel.getCheckpoint(PUBLIC_VIEW), localCommits, intervalMs: 50 }),
      readRevisions: async (matchIds) => {
        asked.push([...matchIds]);
        const docs = await engine.readModel.getMany(PUBLIC_VIEW, matchIds);
        return new Map([...docs].map(([id, doc]) => [id, doc.revision]));
      },
    });
    t.teardown(() => feed.close());
    const told = new Map<string, number | null>();
    for (const id of ids) feed.watch(id, 0, (revision) => told.set(id, revision));
    return { asked, told };
  };
  const local = feedOf(engine.publicViewCommits);
  const elsewhere = feedOf(null);
  await new Promise((resolve) => setTimeout(resolve, 300));

  t.equal((await fetch(`${base}/api/matches/watched-7`, { method: 'PUT', headers: json, body: body('watched-7', 1) })).status, 200);
  for (let i = 0; i < 100 && !(local.told.has('watched-7') && elsewhere.told.has('watched-7')); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  t.same([...local.told], [['watched-7', 1]], 'the viewer of the written match is told');
  t.same(local.asked, [['watched-7']], 'and only that match was read, of 40 watched');
  t.same([...elsewhere.told], [['watched-7', 1]], 'without local commits (a separate worker) the viewer is told too');
  t.same(
    elsewhere.asked.map((asked) => asked.length),
    [40],
    'by reading every watched match (the fallback)',
  );
});
