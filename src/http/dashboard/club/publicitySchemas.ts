import { Type } from '@sinclair/typebox';
import { Csrf } from './clubPageSchemas.js';

/** The club page switch: `on` or `off`. */
export const ClubPublicPageBody = Type.Object({ _csrf: Csrf, publicPage: Type.Union([Type.Literal('on'), Type.Literal('off')]) });

/** A team's publicity form; an unticked checkbox sends no `publicPage`. */
export const TeamPublicityBody = Type.Object({
  _csrf: Csrf,
  publicPage: Type.Optional(Type.Literal('on')),
  privacy: Type.Union([Type.Literal('full'), Type.Literal('first-initial'), Type.Literal('initials'), Type.Literal('numbers')]),
  roster: Type.Union([Type.Literal('shown'), Type.Literal('hidden')]),
  indexing: Type.Union([Type.Literal('noindex'), Type.Literal('index')]),
});
