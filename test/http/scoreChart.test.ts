import t from 'tap';
import { summarizeMatch } from '../../src/domain/matchPayload.js';
import { isRunning, phaseScores } from '../../src/http/public/views/scoreChart.js';

t.test('a running score is charted when its line words it as counts ("8–6"), and only then', async (t) => {
  const values = [0, -0, 7, 25, -3, 2.5, 1e20, 1e21, '12', '-1', null];
  const actions = values.flatMap((home) => values.map((away) => ({ set: 1, score: { home, away } })));
  const s = summarizeMatch({ sport: 'volleyball', actions });
  const lines = s.actions();
  s.actionMarks().forEach((mark, i) => {
    t.equal(isRunning(mark), /^(\d+)–(\d+)$/.test(lines[i]!.score ?? ''), `${lines[i]!.score}`);
  });
  const [set] = phaseScores(summarizeMatch({ sport: 'volleyball', actions: actions.slice(0, 3) }).actionMarks());
  t.same(
    set?.points,
    [
      { home: 0, away: 0, at: 0 },
      { home: 0, away: 7, at: 1 },
    ],
    'the same score twice in a row is one point',
  );
});
