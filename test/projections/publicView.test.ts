import t from 'tap';
import { asJsonText } from '../../src/domain/jsonText.js';
import { encodeMatchEvent, type MatchEvent } from '../../src/domain/matchEvents.js';
import { PUBLIC_VIEW, publicViewProjection } from '../../projections/publicView.js';
import { projectionSpec, recorded } from '../helpers/projectionSpec.js';

const given = projectionSpec(publicViewProjection);
const noTeams = { home: null, away: null };
const at = (position: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, position)).toISOString();
const stored = (matchId: string, revision: number, position: number, event: MatchEvent) =>
  recorded(`match-${matchId}`, revision, position, { type: event.type, data: encodeMatchEvent(event) });
const created = (matchId: string, position: number, protection: 'protected' | 'unprotected' = 'unprotected') =>
  stored(matchId, 0, position, {
    type: 'MatchCreated',
    data: {
      matchId,
      protection,
      createdVia: 'POST',
      payload: asJsonText('{"v":1}'),
      ...(protection === 'protected' ? { writeTokenHash: 'hmac-sha256:v1:x' } : {}),
    },
  });
const replaced = (matchId: string, revision: number, position: number, v: number) =>
  stored(matchId, revision, position, { type: 'MatchReplaced', data: { matchId, replacedVia: 'PUT', payload: asJsonText(`{"v":${v}}`) } });

t.test('a created match is visible with its protection (never the hash) and the revision holding its payload', async (t) => {
  await given([])
    .when([created('a', 1, 'protected')])
    .then(t, PUBLIC_VIEW, [{ id: 'a', revision: 0, createdAt: at(1), updatedAt: at(1), protected: true, versions: 1, teams: noTeams }]);
});

t.test('replacements move the revision to the new payload and count versions, delivered twice or not', async (t) => {
  await given([created('a', 1)])
    .when([replaced('a', 1, 2, 2), replaced('a', 2, 5, 3)])
    .then(t, PUBLIC_VIEW, [{ id: 'a', revision: 2, createdAt: at(1), updatedAt: at(5), protected: false, versions: 3, teams: noTeams }]);
});

t.test('an old event delivered again after a newer one (a redelivery past the checkpoint) changes nothing', async (t) => {
  await given([created('a', 1), replaced('a', 1, 2, 2)])
    .when([replaced('a', 1, 3, 2)], { times: 1 })
    .then(t, PUBLIC_VIEW, [{ id: 'a', revision: 1, createdAt: at(1), updatedAt: at(2), protected: false, versions: 2, teams: noTeams }]);
});

t.test('matches are independent; events of other types are ignored', async (t) => {
  const other = recorded('club-x', 0, 3, { type: 'ClubRegistered', data: '{"name":"x"}' });
  await given([created('a', 1), created('b', 2)])
    .when([other, replaced('b', 1, 4, 9)])
    .then(t, PUBLIC_VIEW, [
      { id: 'a', revision: 0, createdAt: at(1), updatedAt: at(1), protected: false, versions: 1, teams: noTeams },
      { id: 'b', revision: 1, createdAt: at(2), updatedAt: at(4), protected: false, versions: 2, teams: noTeams },
    ]);
});

t.test("the current version's team names are kept (cut to 200 characters) so titles need no payload", async (t) => {
  const createdAs = (home: string) =>
    stored('n', 0, 1, {
      type: 'MatchCreated',
      data: {
        matchId: 'n',
        protection: 'unprotected',
        createdVia: 'POST',
        payload: asJsonText(JSON.stringify({ homeTeam: { name: home }, awayTeam: 'Owls' })),
      },
    });
  // NBA live data's wrapper, as summarizeMatch reads it.
  const replacedAs = (home: string) =>
    stored('n', 1, 2, {
      type: 'MatchReplaced',
      data: {
        matchId: 'n',
        replacedVia: 'PUT',
        payload: asJsonText(JSON.stringify({ game: { homeTeam: { teamCity: 'Old', teamName: home } }, awayTeam: { name: 'Owls' } })),
      },
    });
  await given([createdAs('Herons')])
    .when([replacedAs('x'.repeat(500))])
    .then(t, PUBLIC_VIEW, [
      { id: 'n', revision: 1, createdAt: at(1), updatedAt: at(2), protected: false, versions: 2, teams: { home: `Old ${'x'.repeat(196)}`, away: 'Owls' } },
    ]);
  await given([])
    .when([createdAs('Herons')])
    .then(t, PUBLIC_VIEW, [
      { id: 'n', revision: 0, createdAt: at(1), updatedAt: at(1), protected: false, versions: 1, teams: { home: 'Herons', away: 'Owls' } },
    ]);
});
