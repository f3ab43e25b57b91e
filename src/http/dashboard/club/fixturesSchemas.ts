import { Type } from '@sinclair/typebox';
import { Csrf, Text } from './clubPageSchemas.js';

/** Every field is checked by src/domain/fixtures.ts, whose messages say what to write instead. */
export const FixtureBody = Type.Object({
  _csrf: Csrf,
  opponent: Text,
  date: Type.String({ maxLength: 40 }),
  time: Type.String({ maxLength: 40 }),
  timeZone: Type.String({ maxLength: 64 }),
  venue: Type.Optional(Text),
  homeAway: Type.Optional(Type.String({ maxLength: 40 })),
  matchId: Type.Optional(Type.String({ maxLength: 200 })),
});

/** A pasted CSV: the domain caps its length and rows (src/domain/fixtureCsv.ts) with a message of its own. */
export const FixtureCsvBody = Type.Object({ _csrf: Csrf, csv: Type.String({ maxLength: 16_000 }), timeZone: Type.String({ maxLength: 64 }) });

export const FixtureParams = Type.Object({ teamId: Type.String({ maxLength: 64 }), fixtureId: Type.String({ maxLength: 64 }) });
