import { Type } from '@sinclair/typebox';
import { Csrf, Text } from './clubPageSchemas.js';

export const TeamParams = Type.Object({ teamId: Type.String({ maxLength: 64 }) });
export const TeamNameBody = Type.Object({ _csrf: Csrf, name: Text });
/** One alias per line (or separated by semicolons): team names may contain commas. */
export const AliasesBody = Type.Object({ _csrf: Csrf, aliases: Type.String({ maxLength: 1000 }) });
