import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { documentUploads } from './payloadDocument.js';

/** The OpenAPI document, generated from the route schemas, at /openapi.json; a docs page at /docs. */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string) {
  await app.register(swagger, {
    // The upload bodies are documented by the typed MatchPayload schema, with named examples.
    transformObject: (document) => ('openapiObject' in document ? documentUploads(document.openapiObject) : document.swaggerObject),
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'matchlog',
        version: '1.0.0',
        description:
          'Open match storage for sports scoring apps. Upload a match as JSON; anyone can view it. ' +
          'X-Write-Token on the creating POST protects a match; X-App-Key authenticates club sync.',
      },
      servers: [{ url: publicBaseUrl, description: 'PUBLIC_BASE_URL of this server' }],
      components: {
        securitySchemes: {
          writeToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Write-Token',
            description:
              'Per-match secret chosen by the creating client (at least 128 random bits). ' +
              'Sent on the creating POST it protects the match; later writes to a protected match need it.',
          },
          appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key', description: "The club's app key (dashboard, Connect), for club sync." },
        },
      },
      tags: [
        { name: 'matches', description: 'Upload and view matches' },
        { name: 'history', description: 'Every version of a match, from the append-only log' },
        { name: 'operations', description: 'Health and readiness' },
      ],
    },
  });
  // The docs page's own CSP: helmet's, plus connect-src for the server it documents, so "Try it out"
  // reaches PUBLIC_BASE_URL even where the page was opened by another name; without
  // upgrade-insecure-requests, which would send those calls to https on a plain-http server.
  const docsCsp = [
    "default-src 'self'",
    "base-uri 'self'",
    `connect-src 'self' ${new URL(publicBaseUrl).origin}`,
    "font-src 'self' https: data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' https: 'unsafe-inline'",
  ].join('; ');
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('content-security-policy', docsCsp);
        done();
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
