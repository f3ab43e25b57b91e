import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, validationError } from '../../../domain/errors.js';
import { type AllowedAddresses, webhookUrlProblem } from '../../../domain/webhookAddress.js';
import { isWebhookEventType, type WebhookEventType } from '../../../domain/webhookEvents.js';
import { newWebhookSecret } from '../../../domain/webhookSignature.js';
import type { WebhookStore } from '../../../webhooks/webhookStore.js';
import { renderEndpointPage, renderWebhooksPage } from '../views/webhookPages.js';
import { clubOf, doneMessage, frame, HTML, type Messages, submitForm } from './clubPage.js';
import { Done } from './clubPageSchemas.js';
import { CsrfForm, DeliveryParams, EndpointParams, NewEndpointBody } from './webhookSchemas.js';

/** What the dashboard needs of the webhook settings (WEBHOOK_*). */
export interface WebhookLimits {
  allowed: AllowedAddresses;
  maxEndpointsPerClub: number;
  secretOverlapMs: number;
}

export interface WebhookRoutesDeps {
  webhooks: WebhookStore;
  webhookLimits: WebhookLimits;
}

const DELIVERIES_SHOWN = 50;
const base = '/dashboard/connect/webhooks';

const chosenEvents = (events: string | string[] | undefined): WebhookEventType[] =>
  (events === undefined ? [] : Array.isArray(events) ? events : [events]).filter(isWebhookEventType);

/** Connect → Webhooks: a club's endpoints, their secrets (shown once), and their delivery logs with redeliver. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesDeps> = async (app, { webhooks, webhookLimits }) => {
  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    messages: Messages,
    form: { url: string; events: WebhookEventType[] } = { url: '', events: [] },
    status = 200,
  ) {
    const endpoints = await webhooks.endpoints(clubOf(request).clubId);
    return reply
      .code(status)
      .type(HTML)
      .send(
        renderWebhooksPage(frame(request, reply, 'connect'), {
          endpoints,
          maxEndpoints: webhookLimits.maxEndpointsPerClub,
          form,
          ...messages,
        }),
      );
  }

  async function endpointOf(request: FastifyRequest, endpointId: string) {
    const endpoint = await webhooks.endpoint(clubOf(request).clubId, endpointId);
    if (endpoint === null) throw notFound(`your club has no webhook endpoint ${endpointId}`);
    return endpoint;
  }

  async function endpointPage(
    request: FastifyRequest,
    reply: FastifyReply,
    endpointId: string,
    info: string | null,
    newSecret: { secret: string; rotated: boolean } | null,
  ) {
    const endpoint = await endpointOf(request, endpointId);
    const deliveries = await webhooks.deliveries(endpointId, DELIVERIES_SHOWN);
    return reply
      .type(HTML)
      .header('cache-control', 'no-store')
      .send(renderEndpointPage(frame(request, reply, 'connect'), { endpoint, deliveries, newSecret, info }));
  }

  app.get('/connect/webhooks', { schema: { querystring: Done } }, async (request, reply) =>
    listPage(request, reply, { info: doneMessage(request.query.done), error: null }),
  );

  app.post('/connect/webhooks', { schema: { body: NewEndpointBody } }, async (request, reply) => {
    const url = request.body.url.trim();
    const events = chosenEvents(request.body.events);
    return submitForm(
      async () => {
        const problem = webhookUrlProblem(url, webhookLimits.allowed);
        if (problem !== null) throw validationError(problem);
        if (events.length === 0) throw validationError('choose at least one event to send');
        const secret = newWebhookSecret();
        const endpoint = await webhooks.addEndpoint(clubOf(request).clubId, url, events, secret, webhookLimits.maxEndpointsPerClub);
        if (endpoint === null)
          throw validationError(`your club has ${webhookLimits.maxEndpointsPerClub} endpoints, the most a club may have: remove one first`);
        // Shown in the answer to this POST only: matchlog keeps it sealed, to sign with, and never shows it again.
        return endpointPage(request, reply, endpoint.endpointId, 'Endpoint added.', { secret, rotated: false });
      },
      async (messages, status) => listPage(request, reply, messages, { url, events }, status),
    );
  });

  app.get('/connect/webhooks/:endpointId', { schema: { params: EndpointParams, querystring: Done } }, async (request, reply) =>
    endpointPage(request, reply, request.params.endpointId, doneMessage(request.query.done), null),
  );

  app.post('/connect/webhooks/:endpointId/rotate', { schema: { params: EndpointParams, body: CsrfForm } }, async (request, reply) => {
    const { endpointId } = request.params;
    await endpointOf(request, endpointId);
    const secret = newWebhookSecret();
    await webhooks.rotateSecret(clubOf(request).clubId, endpointId, secret, new Date(Date.now() + webhookLimits.secretOverlapMs).toISOString());
    return endpointPage(request, reply, endpointId, 'Secret rotated.', { secret, rotated: true });
  });

  for (const [path, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(`/connect/webhooks/:endpointId/${path}`, { schema: { params: EndpointParams, body: CsrfForm } }, async (request, reply) => {
      const { endpointId } = request.params;
      await endpointOf(request, endpointId);
      await webhooks.setEnabled(clubOf(request).clubId, endpointId, enabled, enabled ? null : 'paused by the club admin');
      return reply.redirect(`${base}/${endpointId}?done=${enabled ? 'webhook-enabled' : 'webhook-paused'}`, 303);
    });
  }

  app.post('/connect/webhooks/:endpointId/delete', { schema: { params: EndpointParams, body: CsrfForm } }, async (request, reply) => {
    await endpointOf(request, request.params.endpointId);
    await webhooks.removeEndpoint(clubOf(request).clubId, request.params.endpointId);
    return reply.redirect(`${base}?done=webhook-removed`, 303);
  });

  app.post('/connect/webhooks/:endpointId/deliveries/:eventId/redeliver', { schema: { params: DeliveryParams, body: CsrfForm } }, async (request, reply) => {
    const { endpointId, eventId } = request.params;
    await endpointOf(request, endpointId);
    if (!(await webhooks.redeliver(endpointId, eventId))) throw notFound(`no delivery ${eventId} to send again`);
    return reply.redirect(`${base}/${endpointId}?done=webhook-redeliver`, 303);
  });
};
