import { Type } from '@sinclair/typebox';
import { RETURN_TO } from '../views/matchDecisions.js';
import { Csrf } from './clubPageSchemas.js';

/** The page a decision's form came from, where the admin is sent back. */
const ReturnField = Type.Union(RETURN_TO.map((to) => Type.Literal(to)));

export const SideBody = Type.Object({
  _csrf: Csrf,
  side: Type.Union([Type.Literal('home'), Type.Literal('away')]),
  remember: Type.Optional(Type.Literal('yes')),
  returnTo: ReturnField,
});
export const CountingBody = Type.Object({ _csrf: Csrf, counted: Type.Union([Type.Literal('yes'), Type.Literal('no')]), returnTo: ReturnField });
