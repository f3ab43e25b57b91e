import t from 'tap';
import { statRates } from '../../src/domain/statRates.js';
import { actionWords, boxScore, footballEvent, statKeyOrder, UNKNOWN_STAT_COLUMNS } from '../../src/domain/statVocabulary.js';

const texts = (cells: { text: string }[]) => cells.map((c) => c.text);

t.test('volleyball: standard order and abbreviations, hitting % derived, blank where missing, unknown stats last', async (t) => {
  const box = boxScore('volleyball', [{ digs: 5, attacks: 8, kills: 3, attackErrors: 1, aces: 2, jumpHeight: 61 }, { kills: 1, attacks: 4 }, { digs: 7 }]);
  t.same(
    box.columns.map((c) => c.abbr),
    ['K', 'E', 'TA', 'Hit %', 'SA', 'D', 'Jump height'],
  );
  t.equal(box.columns[3]?.title, 'Hitting percentage: (kills − attack errors − attacks blocked) / total attacks');
  t.same(texts(box.rows[0]!), ['3', '1', '8', '.250', '2', '5', '61']);
  t.same(texts(box.rows[1]!), ['1', '', '4', '.250', '', '', ''], 'blank, not 0, where a player has no value');
  t.same(texts(box.rows[2]!), ['', '', '', '', '', '7', ''], 'no attacks: no hitting %');
  t.same(texts(box.totals), ['4', '1', '12', '.250', '2', '12', '61'], 'totals sum; the rate comes from the totals');
});

t.test('basketball: made-attempted pairs from 2pt and 3pt parts, percentages, NBA keys, minutes', async (t) => {
  const box = boxScore('basketball', [
    { points: 7, '2ptMade': 2, '2ptAttempted': 3, '3ptMade': 1, '3ptAttempted': 1, freethrowAttempted: 1, rebounds: 2 },
    {
      minutes: 34.2,
      points: 21,
      fieldGoalsMade: 7,
      fieldGoalsAttempted: 15,
      fieldGoalsPercentage: 0.467,
      threePointersMade: 3,
      threePointersAttempted: 6,
      reboundsTotal: 4,
      plusMinusPoints: 9,
    },
  ]);
  t.same(
    box.columns.map((c) => c.abbr),
    ['MIN', 'PTS', 'FGM-A', 'FG %', '3PM-A', '3P %', 'FTM-A', 'FT %', 'REB', '+/−'],
  );
  t.same(texts(box.rows[0]!), ['', '7', '3-4', '75.0', '1-1', '100.0', '0-1', '0.0', '2', '']);
  t.same(texts(box.rows[1]!), ['34:12', '21', '7-15', '46.7', '3-6', '50.0', '', '', '4', '9']);
  t.same(texts(box.totals), ['34:12', '28', '10-19', '52.6', '4-7', '57.1', '0-1', '0.0', '6', '9']);
});

t.test('an unknown sport shows every stat by name', async (t) => {
  const box = boxScore('curling', [{ stonesInHouse: 3 }]);
  t.same(
    box.columns.map((c) => [c.abbr, c.title]),
    [['Stones in house', 'stonesInHouse']],
  );
});

t.test('unknown stats: at most UNKNOWN_STAT_COLUMNS columns, those most players have, in first-seen order; the rest counted', async (t) => {
  const lines = Array.from({ length: 300 }, (_, p) =>
    Object.fromEntries([['kills', 1], ['shared', p], ...Array.from({ length: 300 }, (_, s) => [`own_${p}_${s}`, s])]),
  );
  lines[7]!.common = 2;
  lines[9]!.common = 3;
  const box = boxScore('volleyball', lines, { rows: 5 });
  const unknown = box.columns.filter((c) => c.id.startsWith('x:')).map((c) => c.title);
  t.equal(unknown.length, UNKNOWN_STAT_COLUMNS);
  t.same(unknown.slice(0, 4), ['shared', 'own_0_0', 'own_0_1', 'own_0_2'], 'the stat every player has, then ties in first-seen order');
  t.ok(unknown.includes('common'), 'a stat two players have beats those only one has');
  t.equal(box.moreStats, 300 * 300 + 2 - UNKNOWN_STAT_COLUMNS, 'the names left out are counted for "+k more stats"');
  t.equal(box.rows.length, 5, 'rows only for the lines asked for');
  t.equal(box.totals[0]?.text, '300', 'the totals count every line');
  t.equal(box.totals[box.columns.findIndex((c) => c.title === 'shared')]?.text, String((299 * 300) / 2));
});

t.test('the same unknown stats in the same order for lines whose keys come in the same order', async (t) => {
  const lines = (offset: number) => Array.from({ length: 40 }, (_, p) => Object.fromEntries(Array.from({ length: 40 }, (_, s) => [`s${s}`, p + offset])));
  const titles = (box: ReturnType<typeof boxScore>) => box.columns.map((c) => c.title);
  t.same(titles(boxScore(null, lines(0))), titles(boxScore(null, lines(100))));
  t.same(
    titles(boxScore(null, lines(0))),
    Array.from({ length: UNKNOWN_STAT_COLUMNS }, (_, s) => `s${s}`),
  );
});

t.test('a 100 KB stat name shows cut, in its abbreviation and its title', async (t) => {
  const name = 'x'.repeat(100_000);
  const box = boxScore('curling', [{ [name]: 1 }]);
  t.ok(box.columns[0]!.abbr.length <= 32 && box.columns[0]!.abbr.endsWith('…'));
  t.ok(box.columns[0]!.title.length <= 80 && box.columns[0]!.title.endsWith('…'));
});

t.test('play-by-play words', async (t) => {
  t.equal(actionWords('volleyball', { skill: 'serve', evaluation: '#' }), 'Serve: ace');
  t.equal(actionWords('volleyball', { skill: 'attack', evaluation: '/' }), 'Attack: blocked');
  t.equal(actionWords('volleyball', { skill: 'attack', evaluation: '=' }), 'Attack: error');
  t.equal(actionWords('volleyball', { skill: 'reception', evaluation: '-' }), 'Reception: poor pass');
  t.equal(actionWords('volleyball', { type: 'point' }), 'Point');
  t.equal(actionWords('basketball', { actionType: '3pt', shotResult: 'made' }), '3-pt shot made');
  t.equal(actionWords('basketball', { actionType: 'freethrow', shotResult: 'missed' }), 'Free throw missed');
  t.equal(actionWords('basketball', { actionType: 'rebound', subType: 'offensive' }), 'Offensive rebound');
  t.equal(actionWords(null, {}), '—');
});

t.test('volleyball Hit % counts blocked attacks when the data keeps them apart (NCAA, DataVolley)', async (t) => {
  const box = boxScore('volleyball', [{ kills: 3, attackErrors: 1, attacksBlocked: 3, attacks: 28 }]);
  const hit = box.columns.findIndex((c) => c.id === 'HIT');
  t.equal(box.rows[0]?.[hit]?.text, '−.036', '(3 − 1 − 3) / 28');
  t.ok(
    box.columns.some((c) => c.id === 'BK' && c.title === 'Attacks blocked'),
    'blocked attacks have their own column',
  );
  const without = boxScore('volleyball', [{ kills: 3, attackErrors: 1, attacks: 28 }]);
  t.equal(without.rows[0]?.[without.columns.findIndex((c) => c.id === 'HIT')]?.text, '.071', 'errors that already include blocks: (3 − 1) / 28');
  t.match(
    statRates({ kills: 3, attackErrors: 1, attacksBlocked: 3, attacks: 28 }),
    [{ name: 'hitting %', value: -1 / 28 }],
    'the dashboard counts them the same way',
  );
});

t.test('football minutes are whole minutes with no team total', async (t) => {
  const box = boxScore('football', [{ minutes: 90 }, { minutes: 67 }]);
  t.same(
    box.rows.map((r) => r[0]?.text),
    ['90', '67'],
  );
  t.equal(box.totals[0]?.text, '', 'no "157:00"');
});

t.test('one unknown-stat column order for both teams of a match', async (t) => {
  const home = [{ zeta: 1, alpha: 2 }];
  const away = [{ alpha: 1, zeta: 3 }];
  const order = statKeyOrder([...home, ...away]);
  const titles = (box: ReturnType<typeof boxScore>) => box.columns.map((c) => c.title);
  t.same(titles(boxScore('curling', away, { order })), titles(boxScore('curling', home, { order })));
  t.same(titles(boxScore('curling', away, { order })), ['zeta', 'alpha']);
});

t.test('football words: a goal reads "Goal"', async (t) => {
  t.equal(actionWords('football', { type: 'Shot', result: 'Goal' }), 'Goal');
  t.equal(actionWords('football', { type: { name: 'Shot' }, shot: { outcome: { name: 'Goal' } } }), 'Goal');
  t.equal(actionWords('football', { type: { name: 'Own Goal Against' } }), 'Own goal');
  t.equal(actionWords('football', { type: { name: 'Bad Behaviour' }, bad_behaviour: { card: { name: 'Second Yellow' } } }), 'Second yellow card');
});

t.test('football cards from their type alone, as Kreisliga feeds send them (issue 62)', async (t) => {
  t.equal(footballEvent({ type: 'second yellow' }), 'secondYellow', 'the documented "second yellow"');
  t.equal(footballEvent({ type: 'yellow' }), 'yellowCard');
  t.equal(footballEvent({ type: 'booking' }), 'yellowCard');
  t.equal(footballEvent({ type: 'red' }), 'redCard');
  t.equal(footballEvent({ type: 'Yellow-Red Card' }), 'secondYellow');
  t.equal(footballEvent({ type: 'Gelb-Rot' }), 'secondYellow');
  t.equal(footballEvent({ type: 'foul' }), null, 'a foul without a card is no card');
  t.equal(footballEvent({ type: 'foul', card: 'yellow' }), 'yellowCard', 'a card field still counts');
  t.equal(actionWords('football', { type: 'second yellow' }), 'Second yellow card');
});

t.test('football goals say assist and penalty; substitutions say who came on and off (issue 62)', async (t) => {
  t.equal(actionWords('football', { type: 'goal', assist: 'Finn Weber' }), 'Goal, assist: Finn Weber');
  t.equal(actionWords('football', { type: 'goal', assist: { name: 'Finn Weber' } }), 'Goal, assist: Finn Weber');
  t.equal(actionWords('football', { type: 'goal', penalty: true }), 'Goal (pen)');
  t.equal(actionWords('football', { type: 'goal', subType: 'penalty' }), 'Goal (pen)');
  t.equal(actionWords('football', { type: { name: 'Shot' }, shot: { outcome: { name: 'Goal' }, type: { name: 'Penalty' } } }), 'Goal (pen)', 'StatsBomb');
  t.equal(actionWords('football', { type: 'substitution', playerIn: 'Ole Schulz', playerOut: 'Timo Brandt' }), 'Substitution: Ole Schulz on for Timo Brandt');
  t.equal(
    actionWords('football', { type: 'substitution', playerIn: { name: 'Max Vogel' }, playerOut: { name: 'Finn Weber' } }),
    'Substitution: Max Vogel on for Finn Weber',
  );
  t.equal(actionWords('football', { type: 'Substitution', player_in: 'Max Vogel' }), 'Substitution: Max Vogel on');
  t.equal(
    actionWords('football', { type: { name: 'Substitution' }, player: { name: 'Finn Weber' }, substitution: { replacement: { name: 'Max Vogel' } } }),
    'Substitution: Max Vogel on for Finn Weber',
    'StatsBomb: the player goes off for the replacement',
  );
  t.equal(actionWords('volleyball', { type: 'substitution', playerIn: 'Mia Lang', playerOut: 'Ava Roth' }), 'Substitution: Mia Lang on for Ava Roth');
  t.equal(actionWords('football', { type: 'substitution' }), 'Substitution', 'nobody named: the word alone');
});

t.test('a stat named twice: the first spelling wins, a sum of parts only when all are there, every spelling consumed', async (t) => {
  const box = boxScore('basketball', [
    // Both a total and its parts: the total (listed first) wins; the parts still fill their own columns.
    { rebounds: 9, reboundsOffensive: 2, reboundsDefensive: 3 },
    // Only the parts: REB is their sum.
    { reboundsOffensive: 1, reboundsDefensive: 4 },
    // One part alone: no REB; "ast" and "AST" are one stat, the first spelling's value shown.
    { reboundsOffensive: 5, assists: 2, AST: 7 },
  ]);
  t.same(
    box.columns.map((c) => c.abbr),
    ['OREB', 'DREB', 'REB', 'AST'],
    'no spelling of a known stat becomes a column of its own',
  );
  t.same(texts(box.rows[0]!), ['2', '3', '9', '']);
  t.same(texts(box.rows[1]!), ['1', '4', '5', '']);
  t.same(texts(box.rows[2]!), ['5', '', '', '2']);
  t.same(texts(box.totals), ['8', '7', '14', '2']);
});

t.test('a line with more names than the vocabulary knows counts its known stats the same', async (t) => {
  const madeUp = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`made_up_${i}`, i]));
  const wide = boxScore('basketball', [{ ...madeUp, reboundsOffensive: 1, reboundsDefensive: 4, AST: 7 }]);
  const narrow = boxScore('basketball', [{ reboundsOffensive: 1, reboundsDefensive: 4, AST: 7 }]);
  const known = (box: ReturnType<typeof boxScore>) => box.columns.flatMap((c, i) => (c.id.startsWith('x:') ? [] : [[c.abbr, box.rows[0]![i]!.text]]));
  t.same(known(wide), known(narrow));
  t.same(known(wide), [
    ['OREB', '1'],
    ['DREB', '4'],
    ['REB', '5'],
    ['AST', '7'],
  ]);
  t.equal(wide.columns.filter((c) => c.id.startsWith('x:')).length, UNKNOWN_STAT_COLUMNS, 'the made-up names are unknown columns');
});
