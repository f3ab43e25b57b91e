import fc from 'fast-check';
import t from 'tap';
import { type MatchSummary, summarizeMatch, summarizeMatchText } from '../../src/domain/matchPayload.js';
import { payloadTextsOfEveryShape } from '../helpers/fixtures.js';
import { holds, numRuns } from '../helpers/properties.js';

/** A summary as plain data: its play-by-play worded (a function is not compared by value). */
const plain = ({ actions, ...rest }: MatchSummary) => ({ ...rest, actions: actions() });

t.test('the summary of a payload read from its text is the summary of the parsed payload', async (t) => {
  const texts = payloadTextsOfEveryShape();
  for (const text of texts) t.same(plain(summarizeMatchText(text)), plain(summarizeMatch(JSON.parse(text))));
});

t.test('whatever fields a payload has, at the top or inside `game`, read from its text or parsed', async (t) => {
  // The fields summarizeMatch reads, some it does not, and values of every kind in each.
  const fields = [
    'game',
    'actions',
    'events',
    'sport',
    'gameTimeUTC',
    'sets',
    'periods',
    'playerStats',
    'players',
    'period',
    'homeTeam',
    'awayTeam',
    'home',
    'away',
    'teams',
    'home_team',
    'away_team',
    'home_team_name',
    'away_team_name',
    'score',
    'home_score',
    'homeScore',
    'away_score',
    'awayScore',
    'status',
    'gameStatusText',
    'match_status',
    'state',
    'gameStatus',
    'competition',
    'season',
    'category',
    'venue',
    'arena',
    'stadium',
    'location',
    'startedAt',
    'date',
    'startTime',
    'match_date',
    'kick_off',
    'other',
    'k1',
    'constructor',
    'name',
    'stats',
  ];
  const leaf = fc.oneof(
    fc.constantFrom('home', 'away', '12', 'Final', 'live', 'PT11M43.00S', 'basketball', 'football', 'volleyball', 'h', 'v'),
    fc.integer({ min: -3, max: 30 }),
    fc.boolean(),
    fc.constant(null),
    fc.string({ maxLength: 4 }),
  );
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.dictionary(fc.constantFrom(...fields), tie('v'), { maxKeys: 6 }),
      fc.array(tie('v'), { maxLength: 4 }),
    ),
  })).v;
  const payload = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 10 });
  fc.assert(
    fc.property(payload, fc.constantFrom(undefined, 1), (body, space) => {
      const text = JSON.stringify(body, null, space);
      holds.same(plain(summarizeMatchText(text)), plain(summarizeMatch(JSON.parse(text))));
    }),
    { numRuns: numRuns(3000) },
  );
  t.same(
    plain(summarizeMatchText('{"sport":"curling","sport":"basketball","\\u0067ame":{"homeTeam":{"name":"A"}}}')),
    plain(summarizeMatch({ sport: 'basketball', game: { homeTeam: { name: 'A' } } })),
    'duplicates and escaped names read as JSON.parse reads them',
  );
});
