import t from 'tap';
import { decideClub, evolveClub, initialClubState, teamPublicity } from '../../src/domain/club.js';
import type { ClubEvent } from '../../src/domain/clubEvents.js';
import { DEFAULT_PUBLICITY, shownName } from '../../src/domain/teamPublicity.js';
import { deciderSpec } from '../helpers/givenWhenThen.js';

const at = '2026-03-01T10:00:00.000Z';
const registered: ClubEvent = {
  type: 'ClubRegistered',
  data: { clubId: 'c0000000000000001', name: 'Lakeside VC', adminEmail: 'admin@lakeside.test', passwordHash: 'scrypt$x', registeredAt: at },
};
const u14: ClubEvent = { type: 'TeamAdded', data: { teamId: 'team000001', name: 'U14 Girls' } };
const spec = deciderSpec({ initialState: initialClubState, decide: decideClub, evolve: evolveClub });
const initialsOnly = { publicPage: true, privacy: 'initials', roster: 'shown', indexing: 'noindex' } as const;
const initialsSet: ClubEvent = { type: 'TeamPublicitySet', data: { teamId: 'team000001', ...initialsOnly, at } };

t.test('a team is private until the club says otherwise: no page, noindex, roster hidden, names as uploaded', async (t) => {
  const club = [registered, u14].reduce(evolveClub, initialClubState());
  if (!club.exists) throw new Error('no club');
  t.same(teamPublicity(club, 'team000001'), DEFAULT_PUBLICITY);
  t.same(DEFAULT_PUBLICITY, { publicPage: false, privacy: 'full', roster: 'hidden', indexing: 'noindex' });
  t.equal(club.publicPage ?? false, false);
});

t.test('setting a team publicity appends TeamPublicitySet; the same settings again append nothing', async (t) => {
  spec([registered, u14])
    .when({ type: 'SetTeamPublicity', teamId: 'team000001', ...initialsOnly, at })
    .then(t, [initialsSet]);
  spec([registered, u14, initialsSet])
    .when({ type: 'SetTeamPublicity', teamId: 'team000001', ...initialsOnly, at })
    .then(t, []);
  spec([registered, u14])
    .when({ type: 'SetTeamPublicity', teamId: 'nope', ...initialsOnly, at })
    .thenThrows(t, 'not_found', /no team nope/);
  const club = [registered, u14, initialsSet].reduce(evolveClub, initialClubState());
  if (!club.exists) throw new Error('no club');
  t.same(teamPublicity(club, 'team000001'), initialsOnly, 'the last setting is what the public sees');
});

t.test("the club's public page is switched on and off; setting it as it is appends nothing", async (t) => {
  const on: ClubEvent = { type: 'ClubPublicPageSet', data: { publicPage: true, at } };
  spec([registered]).when({ type: 'SetClubPublicPage', publicPage: true, at }).then(t, [on]);
  spec([registered]).when({ type: 'SetClubPublicPage', publicPage: false, at }).then(t, []);
  spec([registered, on])
    .when({ type: 'SetClubPublicPage', publicPage: false, at })
    .then(t, [{ type: 'ClubPublicPageSet', data: { publicPage: false, at } }]);
});

t.test('names as each privacy level shows them', async (t) => {
  t.equal(shownName('Anna-Lena Schmidt', '7', 'full'), 'Anna-Lena Schmidt');
  t.equal(shownName('Anna-Lena Schmidt', '7', 'first-initial'), 'Anna-Lena S.');
  t.equal(shownName('Anna-Lena Schmidt', '7', 'initials'), 'A.-L. S.');
  t.equal(shownName('Anna-Lena Schmidt', '7', 'numbers'), '#7');
  t.equal(shownName('Schmidt, Anna', null, 'first-initial'), 'Anna S.', 'a "family, given" name is turned first');
  t.equal(shownName('Maria José da Silva', null, 'first-initial'), 'Maria José da S.');
  t.equal(shownName('Zoë', '12', 'first-initial'), 'Z.', 'a one-word name shows no more than its initial');
  t.equal(shownName(null, '#9', 'initials'), '#9', 'no name: the number');
  t.equal(shownName(null, null, 'numbers'), 'Player');
  t.equal(shownName('Émilie Ødegaard', null, 'initials'), 'É. Ø.');
});
