import Fastify, { type FastifyInstance } from 'fastify';
import t from 'tap';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors.js';
import { pageErrorHandler, registerErrorHandling, statusOf } from '../../src/http/errorHandling.js';
import { isStorageFull } from '../../src/platform/storageFailure.js';
import { dashboardClient } from '../helpers/browserless.js';
import { startTestApp } from '../helpers/testApp.js';

const CODES = Object.keys(statusOf) as DomainErrorCode[];

/** One route answering JSON and one plugin answering pages, both throwing the same errors. */
async function bothHandlers(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  const fail = async (request: { params: unknown }) => {
    const { code } = request.params as { code: DomainErrorCode };
    throw new DomainError(code, `refused: ${code} <b>`, code === 'too_many_requests' ? 7 : undefined);
  };
  app.get('/json/:code', fail);
  await app.register(async (pages) => {
    pages.setErrorHandler(pageErrorHandler(({ statusCode, title, message }) => `<h1>${title}</h1><p>${message.replace(/</g, '&lt;')}</p><p>${statusCode}</p>`));
    pages.get('/page/:code', fail);
  });
  return app;
}

t.test('every domain error code: the JSON body and the page answer the same status, message and Retry-After', async (t) => {
  const app = await bothHandlers();
  t.teardown(() => app.close());
  for (const code of CODES) {
    const json = await app.inject({ url: `/json/${code}` });
    const page = await app.inject({ url: `/page/${code}` });
    t.equal(json.statusCode, statusOf[code], `${code}: JSON status`);
    t.same(json.json(), { statusCode: statusOf[code], error: json.statusMessage, message: `refused: ${code} <b>` });
    t.equal(page.statusCode, json.statusCode, `${code}: the page has the same status`);
    t.match(page.headers['content-type'], /^text\/html/);
    t.ok(page.body.includes(`refused: ${code} &lt;b>`), `${code}: the page shows the same message`);
    t.equal(page.headers['retry-after'], json.headers['retry-after'], `${code}: same Retry-After`);
  }
  t.equal((await app.inject({ url: '/page/too_many_requests' })).headers['retry-after'], '7');
});

t.test('the public page and the API say the same about a missing match', async (t) => {
  const { app } = await startTestApp(t);
  const api = await app.inject({ url: '/api/matches/nope' });
  for (const url of ['/match/nope', '/match/nope/history', '/match/nope?revision=3', '/match/nope/embed']) {
    const page = await app.inject({ url });
    t.equal(page.statusCode, 404, url);
    t.ok(page.body.includes('no match with id &quot;nope&quot;'), `${url}: the API's message (${api.json<{ message: string }>().message})`);
  }
});

t.test("the dashboard renders a domain error's status and message as its page", async (t) => {
  const { app } = await startTestApp(t);
  const client = dashboardClient(app);
  await client.get('/dashboard/signup');
  await client.post('/dashboard/signup', { clubName: 'Errors VC', email: 'admin@errors.test', password: 'correct horse battery' });
  const res = await client.get('/dashboard/matches/never-synced');
  t.equal(res.statusCode, 404);
  t.match(res.headers['content-type'], /^text\/html/);
  t.match(res.body, /no match never-synced was synced into this club/);
});

t.test('a full store is known by its error code, on the error or a cause, never by its message', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  t.ok(isStorageFull(coded('SQLITE_FULL')), 'SQLite');
  t.ok(isStorageFull(coded('ENOSPC')), 'the file system');
  t.ok(isStorageFull(Object.assign(new Error('x'), { code: 14031, codeName: 'OutOfDiskSpace' })), 'MongoDB');
  t.ok(isStorageFull(new Error('commit failed', { cause: coded('SQLITE_FULL') })), 'as the cause');
  t.notOk(isStorageFull(new Error('database or disk is full')), 'words alone are not a code');
  t.notOk(isStorageFull(coded('SQLITE_BUSY')));
});
