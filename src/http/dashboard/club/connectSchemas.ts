import { Type } from '@sinclair/typebox';
import { SYNC_OUTCOMES } from '../../../../projections/syncStatus.js';
import { Csrf, PageNumber, Text } from './clubPageSchemas.js';

export const NewKeyBody = Type.Object({ _csrf: Csrf, label: Type.Optional(Text) });
export const KeyParams = Type.Object({ keyId: Type.String({ maxLength: 64 }) });
export const CsrfOnlyBody = Type.Object({ _csrf: Csrf });
export const KeyRequirementBody = Type.Object({ _csrf: Csrf, required: Type.Union([Type.Literal('yes'), Type.Literal('no')]) });
export const SyncQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  outcome: Type.Optional(Type.Union(SYNC_OUTCOMES.map((o) => Type.Literal(o)))),
  page: PageNumber,
});
