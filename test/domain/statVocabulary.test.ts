import t from 'tap';
import { actionWords, boxScore } from '../../src/domain/statVocabulary.js';

const texts = (cells: { text: string }[]) => cells.map((c) => c.text);

t.test('volleyball: standard order and abbreviations, hitting % derived, blank where missing, unknown stats last', async (t) => {
  const box = boxScore('volleyball', [
    { digs: 5, attacks: 8, kills: 3, attackErrors: 1, aces: 2, jumpHeight: 61 },
    { kills: 1, attacks: 4 },
    { digs: 7 },
  ]);
  t.same(box.columns.map((c) => c.abbr), ['K', 'E', 'TA', 'Hit %', 'SA', 'D', 'Jump height']);
  t.equal(box.columns[3]?.title, 'Hitting percentage: (kills − attack errors) / total attacks');
  t.same(texts(box.rows[0]!), ['3', '1', '8', '.250', '2', '5', '61']);
  t.same(texts(box.rows[1]!), ['1', '', '4', '.250', '', '', ''], 'blank, not 0, where a player has no value');
  t.same(texts(box.rows[2]!), ['', '', '', '', '', '7', ''], 'no attacks: no hitting %');
  t.same(texts(box.totals), ['4', '1', '12', '.250', '2', '12', '61'], 'totals sum; the rate comes from the totals');
});

t.test('basketball: made-attempted pairs from 2pt and 3pt parts, percentages, NBA keys, minutes', async (t) => {
  const box = boxScore('basketball', [
    { points: 7, '2ptMade': 2, '2ptAttempted': 3, '3ptMade': 1, '3ptAttempted': 1, freethrowAttempted: 1, rebounds: 2 },
    { minutes: 34.2, points: 21, fieldGoalsMade: 7, fieldGoalsAttempted: 15, fieldGoalsPercentage: 0.467, threePointersMade: 3, threePointersAttempted: 6, reboundsTotal: 4, plusMinusPoints: 9 },
  ]);
  t.same(box.columns.map((c) => c.abbr), ['MIN', 'PTS', 'FGM-A', 'FG %', '3PM-A', '3P %', 'FTM-A', 'FT %', 'REB', '+/−']);
  t.same(texts(box.rows[0]!), ['', '7', '3-4', '75.0', '1-1', '100.0', '0-1', '0.0', '2', '']);
  t.same(texts(box.rows[1]!), ['34:12', '21', '7-15', '46.7', '3-6', '50.0', '', '', '4', '9']);
  t.same(texts(box.totals), ['34:12', '28', '10-19', '52.6', '4-7', '57.1', '0-1', '0.0', '6', '9']);
});

t.test('an unknown sport shows every stat by name', async (t) => {
  const box = boxScore('curling', [{ stonesInHouse: 3 }]);
  t.same(box.columns.map((c) => [c.abbr, c.title]), [['Stones in house', 'stonesInHouse']]);
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
