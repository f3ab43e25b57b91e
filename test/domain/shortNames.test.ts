import t from 'tap';
import { familyName, initialledName, shortNames, teamShortName, teamShortNames } from '../../src/domain/shortNames.js';

t.test('player names: given names as initials, whole words kept', async (t) => {
  t.equal(initialledName('Anna-Katharina Papadopoulou-Schmidt'), 'A.-K. Papadopoulou-Schmidt');
  t.equal(initialledName('Virgil van Dijk'), 'V. van Dijk');
  t.equal(initialledName('Joana dos Santos Araújo'), 'J. dos Santos Araújo');
  t.equal(initialledName('Jaren Jackson Jr.'), 'J. Jackson Jr.');
  t.equal(initialledName('Ólafía Þorvaldsdóttir'), 'Ó. Þorvaldsdóttir');
  t.equal(initialledName('Pelé'), 'Pelé');
  t.equal(familyName('Maria-Magdalena Köhler'), 'Köhler');
  t.equal(familyName('Virgil van Dijk'), 'van Dijk');
});

t.test('short forms stay unique: two that would read alike keep their whole names', async (t) => {
  t.same(shortNames(['Lea Haraldsdóttir', 'Lea Haraldsdottir-Berg', 'Lina Haraldsdóttir']), [
    'Lea Haraldsdóttir',
    'L. Haraldsdottir-Berg',
    'Lina Haraldsdóttir',
  ]);
  t.same(shortNames(['Tyrese Haliburton', null], ['T. Haliburton', null]), ['T. Haliburton', null], "the feed's own short form first");
});

t.test('team short names: the first distinctive word, else initials; never cut inside a word', async (t) => {
  t.equal(teamShortName('Hillcrest Community Volleyball Club', 'Stonebridge Lynx'), 'Hillcrest');
  t.equal(teamShortName('FC Internationale Milano', null), 'FIM', 'a first word too long for a narrow column gives initials');
  t.equal(teamShortName('Massachusetts Minutemen', null), 'MAS', 'or, with two words, a tricode');
  t.equal(teamShortName('Lakeside Volleyball', null), 'Lakeside', 'a generic word goes');
  t.equal(teamShortName('Lakeside VC', null), 'Lakeside VC', 'a name of 12 characters or fewer stays');
  t.equal(
    teamShortName('Riverside Rockets Basketball', 'Riverside Ravens Basketball'),
    'Rockets',
    'not the same first word as the other side: the word that tells them apart',
  );
});

t.test('issue 62: both sides always distinct and readable', async (t) => {
  const pair = (home: string, away: string) => teamShortNames({ name: home, short: null }, { name: away, short: null });
  t.same(pair('Northgate Owls', 'Northgate Comets'), { home: 'Owls', away: 'Comets' }, 'the same first word: the word that tells them apart');
  t.same(
    pair('1. FC Göttingen-Weende 05 e.V.', 'SV Lengede-Vallstedt U18 A'),
    { home: 'Göttingen', away: 'Lengede' },
    'numbers and legal forms skipped, a long hyphenated word by its first part',
  );
  t.same(
    pair('SV Lengede-Vallstedt U18 A', 'SV Lengede-Vallstedt U18 B'),
    { home: 'Lengede A', away: 'Lengede B' },
    'two teams of one club: the club and the team',
  );
  t.same(pair('Northgate', 'Northgate Reserves Team'), { home: 'Northgate', away: 'Reserves' });
  t.same(
    teamShortNames({ name: 'Northgate Owls', short: 'NOR' }, { name: 'Northgate Comets', short: 'NOR' }),
    { home: 'Owls', away: 'Comets' },
    'a payload giving both sides the same short name: derived ones instead',
  );
  t.same(teamShortNames({ name: 'Indiana Pacers', short: 'IND' }, { name: 'Boston Celtics', short: 'BOS' }), { home: 'IND', away: 'BOS' }, 'tricodes kept');
  t.same(teamShortNames({ name: null, short: null }, { name: null, short: null }), { home: 'Home', away: 'Away' });
});
