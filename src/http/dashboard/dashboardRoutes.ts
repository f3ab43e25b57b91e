import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tooManyRequests } from '../../domain/errors.js';
import { type ErrorAnswer, pageErrorHandler } from '../errorHandling.js';
import { type AttemptLimit, accountRoutes } from './accountRoutes.js';
import { clubRoutes, type ClubRoutesDeps } from './clubRoutes.js';
import { DASHBOARD_PATH } from './session.js';
import { renderDashboardErrorPage } from './views/accountPages.js';
import { DASHBOARD_CSP } from '../views/layout.js';

/** What the club's pages need (ClubRoutesDeps), and the dashboard's sessions and login limits. */
export interface ClubDashboardDeps extends ClubRoutesDeps {
  /** Signs session and CSRF cookies. */
  sessionKey: Buffer;
  /** Login and sign-up attempts per client address. */
  rateLimits?: { login: AttemptLimit; signUp: AttemptLimit };
}

const CSRF_COOKIE = 'matchlog_csrf';
const DEFAULT_RATE_LIMITS = { login: { max: 10, timeWindowMs: 60_000 }, signUp: { max: 10, timeWindowMs: 60 * 60_000 } };

/** An error answer as a dashboard page (also for addresses under /dashboard that no route has). */
export const dashboardErrorPage = ({ statusCode, title, message }: ErrorAnswer) =>
  renderDashboardErrorPage(statusCode, title, message, { href: '/dashboard', label: 'Back to the dashboard' });

/**
 * The club dashboard under /dashboard: server-rendered pages that work without JavaScript.
 * Cookies, form bodies, CSRF protection and rate limits are registered in this plugin's own
 * context, so the JSON API keeps taking JSON only and sets no cookies.
 */
export const clubDashboard: FastifyPluginAsyncTypebox<ClubDashboardDeps> = async (app, deps) => {
  const secure = deps.publicBaseUrl.startsWith('https:');
  // Pages, not API: kept out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie, { secret: deps.sessionKey });
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(fastifyCsrf, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: DASHBOARD_PATH, sameSite: 'lax', httpOnly: true, signed: true, secure },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyRequests(`Too many attempts from your address: retry in ${context.after}.`),
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply
      .header('content-security-policy', DASHBOARD_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      // Pages show club data and, once, a new app key: never cache them.
      .header('cache-control', 'no-store');
  });
  // Every form posts a CSRF token; checked once the form body is parsed.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'POST') app.csrfProtection(request, reply, done);
    else done();
  });

  // The app's one error mapping, rendered as a dashboard page.
  app.setErrorHandler(pageErrorHandler(dashboardErrorPage));
  const { clubs, readModel, eventStore, matchUrl, publicBaseUrl, globalEnforcement, webhooks, webhookLimits, erasure, rateLimits = DEFAULT_RATE_LIMITS } = deps;
  await app.register(accountRoutes, { clubs, rateLimits, secure });
  // Field by field: the options Fastify hands this plugin also carry its prefix, which must not apply twice.
  await app.register(clubRoutes, { clubs, readModel, eventStore, matchUrl, publicBaseUrl, globalEnforcement, webhooks, webhookLimits, erasure });
};
