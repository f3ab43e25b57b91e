import { Type } from '@sinclair/typebox';

/** Schemas every section's forms and pages share. */

/** A form's text field. */
export const Text = Type.String({ maxLength: 200 });
/** Every form posts its CSRF token (checked by the dashboard's hook, not by the schema). */
export const Csrf = Type.Optional(Text);
/** A page after a redirect: `?done=` names the confirmation shown. */
export const Done = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
export const PageNumber = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 }));
