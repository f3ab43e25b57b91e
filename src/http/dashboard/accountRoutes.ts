import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { ClubCommands } from '../../commands/clubCommands.js';
import { classifyClientAddress } from '../clientAddress.js';
import { formRefusal } from '../errorHandling.js';
import { renderLoginPage, renderSignUpPage } from './views/accountPages.js';
import { SESSION_COOKIE, SESSION_TTL_MS, sessionCookieOptions, sessionValue, signedInClub } from './session.js';

/** Attempts allowed per client address in a window (login and sign-up). */
export interface AttemptLimit {
  max: number;
  timeWindowMs: number;
}

export interface AccountRoutesDeps {
  clubs: ClubCommands;
  rateLimits: { login: AttemptLimit; signUp: AttemptLimit };
  secure: boolean;
}

const Field = (maxLength: number) => Type.String({ maxLength });
const SignUpBody = Type.Object({ _csrf: Type.Optional(Field(200)), clubName: Field(200), email: Field(400), password: Field(1000) });
const LoginBody = Type.Object({ _csrf: Type.Optional(Field(200)), email: Field(400), password: Field(1000) });
const LoginQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

/** Sign up, log in, log out. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesDeps> = async (app, { clubs, rateLimits, secure }) => {
  const limit = (rate: AttemptLimit) => ({ rateLimit: { max: rate.max, timeWindow: rate.timeWindowMs } });
  const html = 'text/html; charset=utf-8';

  function startSession(reply: FastifyReply, clubId: string) {
    const issuedAt = Date.now();
    reply.setCookie(SESSION_COOKIE, sessionValue({ clubId, issuedAt, expiresAt: issuedAt + SESSION_TTL_MS }), {
      ...sessionCookieOptions(secure),
      maxAge: SESSION_TTL_MS / 1000,
    });
  }

  app.get('/signup', async (_request, reply) =>
    reply.type(html).send(renderSignUpPage({ csrfToken: reply.generateCsrf(), clubName: '', email: '', error: null })),
  );

  app.post('/signup', { schema: { body: SignUpBody }, config: limit(rateLimits.signUp) }, async (request, reply) => {
    const { clubName, email, password } = request.body;
    try {
      const { clubId } = await clubs.signUp(
        { clubName, email, password, teams: [] },
        { requestId: request.id, clientAddressClass: classifyClientAddress(request.ip) },
      );
      startSession(reply, clubId);
      return reply.redirect('/dashboard?done=welcome', 303);
    } catch (error) {
      const refused = formRefusal(error, ['validation', 'conflict']);
      return reply
        .code(refused.statusCode)
        .type(html)
        .send(renderSignUpPage({ csrfToken: reply.generateCsrf(), clubName, email, error: refused.message }));
    }
  });

  app.get('/login', { schema: { querystring: LoginQuery } }, async (request, reply) => {
    const info = request.query.done === 'logged-out' ? 'You are logged out.' : null;
    return reply.type(html).send(renderLoginPage({ csrfToken: reply.generateCsrf(), email: '', error: null, info }));
  });

  app.post('/login', { schema: { body: LoginBody }, config: limit(rateLimits.login) }, async (request, reply) => {
    const club = await clubs.verifyLogin(request.body.email, request.body.password);
    if (club === null) {
      request.log.info({ clientAddressClass: classifyClientAddress(request.ip) }, 'dashboard login failed');
      return reply
        .code(401)
        .type(html)
        .send(renderLoginPage({ csrfToken: reply.generateCsrf(), email: request.body.email, error: 'The email or the password is wrong.', info: null }));
    }
    startSession(reply, club.clubId);
    return reply.redirect('/dashboard', 303);
  });

  app.post('/logout', async (request, reply) => {
    const club = await signedInClub(request, clubs.loadClub);
    // Ends every session of the admin, not only this browser's: a copied cookie stops working too.
    if (club !== null) await clubs.endAdminSessions(club.clubId, { requestId: request.id, clientAddressClass: classifyClientAddress(request.ip) });
    reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(secure));
    return reply.redirect('/dashboard/login?done=logged-out', 303);
  });
};
