import { readFileSync } from 'node:fs';
import t from 'tap';
import { summarizeMatch } from '../../src/domain/matchPayload.js';
import { privacyInputOfText, privateSummary, redactJson, redactText, replacementsOf } from '../../src/domain/playerPrivacy.js';

const text = readFileSync(new URL('../fixtures/u14-girls-match.json', import.meta.url), 'utf8');
const payload: unknown = JSON.parse(text);
const summary = summarizeMatch(payload);
const FULL_NAMES = ['Annalena Brightwater', 'Sophia Quellenberg', 'Mathilde Okonkwo-Reyes'];
const everyName = /Annalena|Brightwater|Sophia|Quellenberg|Mathilde|Okonkwo/;

t.test("the club's side is named by the level; the other side is left as uploaded", async (t) => {
  const shown = privateSummary(summary, { level: 'initials', side: 'home' });
  t.same(
    shown.players.map((p) => p.name),
    ['A. B.', 'S. Q.', 'M. O.-R.', 'Rita Visiting'],
  );
  const plays = JSON.stringify(shown.actions());
  t.notMatch(plays, everyName, 'no name of the team in the play-by-play');
  t.match(plays, /Ace by Q\. after a pass from M\./);
  t.same(summary.players[0]?.name, 'Annalena Brightwater', 'the summary itself is unchanged');
});

t.test('side unknown: every player of the match is named by the level', async (t) => {
  const shown = privateSummary(summary, { level: 'numbers', side: null });
  t.same(
    shown.players.map((p) => p.name),
    ['#7', '#4', '#11', '#9'],
  );
  t.notMatch(JSON.stringify(shown.actions()), /Rita|Visiting|Quellenberg|Mathilde/);
});

t.test('the payload seen anonymously has no full name, first or last name of the team left', async (t) => {
  for (const level of ['first-initial', 'initials', 'numbers'] as const) {
    const seen = JSON.stringify(redactJson(payload, replacementsOf(summary, { level, side: 'home' })));
    for (const name of FULL_NAMES) t.notOk(seen.includes(name), `${level}: no "${name}"`);
    t.notMatch(seen, level === 'first-initial' ? /Brightwater|Quellenberg|Okonkwo/ : everyName, `${level}: nor name words it hides`);
    t.match(seen, /Rita Visiting/, 'the other side stays as uploaded');
    t.match(seen, /Lakeside VC U14 Girls/, 'team names stay');
  }
});

t.test('whole words only', async (t) => {
  t.equal(redactText('Ann met Anna in Hannover', [['Ann', 'A.']]), 'A. met Anna in Hannover');
});

t.test('the club and team a payload syncs into are read from its text', async (t) => {
  const input = privacyInputOfText(JSON.stringify({ clubId: 'c1', teamId: 't1', homeTeam: { name: 'X', players: [1, 2] } }));
  t.same(input.target, { clubId: 'c1', teamId: 't1' });
  t.same(privacyInputOfText(text).target, null);
});
