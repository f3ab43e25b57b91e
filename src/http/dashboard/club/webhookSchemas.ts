import { Type } from '@sinclair/typebox';
import { Csrf } from './clubPageSchemas.js';

const EventChoice = Type.String({ maxLength: 40 });

export const NewEndpointBody = Type.Object({
  _csrf: Csrf,
  url: Type.String({ maxLength: 2100 }),
  /** One checkbox ticked comes as a string, several as an array, none not at all. */
  events: Type.Optional(Type.Union([EventChoice, Type.Array(EventChoice, { maxItems: 10 })])),
});
export const EndpointParams = Type.Object({ endpointId: Type.String({ maxLength: 40 }) });
export const DeliveryParams = Type.Object({ endpointId: Type.String({ maxLength: 40 }), eventId: Type.String({ maxLength: 100 }) });
export const CsrfForm = Type.Object({ _csrf: Csrf });
