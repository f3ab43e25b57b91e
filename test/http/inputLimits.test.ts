import { gzipSync } from 'node:zlib';
import t from 'tap';
import { json, seedFields, startTestApp } from '../helpers/testApp.js';

// Defect 6 and the input limits of issue 10 (docs/limits.md), over a real listening server.
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{"id":"deep"}${'}'.repeat(depth - 1)}`;

t.test('depth, size, identifiers, charset, encoding: 400/415 with a message, nothing stored', async (t) => {
  const { app, engine } = await startTestApp(t, { MAX_JSON_VALUES: '1000' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const post = (body: string | Buffer, headers: Record<string, string> = json) => fetch(`${base}/api/matches`, { method: 'POST', headers, body });
  const refusals: [string, Promise<Response>, number, RegExp][] = [
    ['65 levels deep', post(nested(65).replace('"deep"', '"d65"')), 400, /nested more than 64 levels deep \(MAX_JSON_DEPTH\)/],
    ['5,000 levels deep', post(`{"id":"d5000","x":${'['.repeat(5000)}${']'.repeat(5000)}}`), 400, /MAX_JSON_DEPTH/],
    [
      'too many values',
      post(JSON.stringify({ id: 'many', list: Array.from({ length: 1001 }, (_, i) => i) })),
      400,
      /more than 1000 keys and array items \(MAX_JSON_VALUES\)/,
    ],
    ['clubId as an object', post('{"id":"c1","clubId":{"x":{"y":1}},"teamId":"t"}'), 400, /body\.clubId must be string/],
    ['teamId as a boolean', post('{"id":"c2","clubId":"c","teamId":true}'), 400, /body\.teamId must be string/],
    [
      'latin-1 charset',
      post(Buffer.from('{"id":"l1","name":"Caf\xe9"}', 'latin1'), { 'content-type': 'application/json; charset=iso-8859-1' }),
      415,
      /charset "iso-8859-1" is not accepted; send the JSON as UTF-8/,
    ],
    ['invalid UTF-8', post(Buffer.from('{"id":"u1","name":"Caf\xe9"}', 'latin1')), 400, /not valid UTF-8/],
    [
      'gzip',
      post(gzipSync('{"id":"g1"}'), { ...json, 'content-encoding': 'gzip' }),
      415,
      /Content-Encoding "gzip" is not accepted; send the JSON uncompressed/,
    ],
    [
      '"__proto__" deep inside',
      post('{"id":"p1","sets":[{"actions":[{"__proto__":{"isAdmin":true}}]}]}'),
      400,
      /"__proto__" key, which is refused \(prototype poisoning\)/,
    ],
    ['"__proto__" written with escapes', post('{"id":"p2","\\u005f_proto__":{"x":1}}'), 400, /"__proto__" key/],
    ['"constructor" with a "prototype"', post('{"id":"p3","team":{"constructor":{"prototype":{"x":1}}}}'), 400, /"constructor\.prototype" key/],
    ['not JSON', post('{"id":"j1",'), 400, /the request body is not valid JSON: .+/],
    ['empty', post(''), 400, /the request body is empty/],
  ];
  for (const [name, response, status, message] of refusals) {
    const res = await response;
    t.equal(res.status, status, name);
    t.match(await res.json(), { statusCode: status, message }, name);
  }
  t.equal(await engine.eventStore.headPosition(), null, 'nothing was stored');

  t.equal((await post(nested(64))).status, 201, '64 levels are fine');
  const utf8 = await post(Buffer.from('{"id":"u2","name":"Café ⚽"}', 'utf8'), { 'content-type': 'application/json; charset=UTF-8' });
  t.equal(utf8.status, 201);
  t.equal(((await (await fetch(`${base}/api/matches/u2`)).json()) as { payload: { name: string } }).payload.name, 'Café ⚽', 'stored as sent');
  t.equal((await post('{"id":"n1","clubId":42,"teamId":null}')).status, 201, 'numbers and null are identifiers (null: none)');
  const harmless = await post('{"id":"k1","constructor":"Acme","team":{"constructor":{"name":"x"}},"prototype":{"a":1},"\\ufeff":1}');
  t.equal(harmless.status, 201, 'a "constructor" without a "prototype", and a "prototype" on its own, are data');
  const bom = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"bom1"}')]));
  t.equal(bom.status, 201, 'a leading byte order mark is dropped');
});

t.test('club sync is decided on the parsed payload: "\\u0063lubId" names the club', async (t) => {
  const { app } = await startTestApp(t, { CLUB_SYNC_ENFORCEMENT: 'enforce' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: '{"id":"esc","\\u0063lubId":"nosuchclub000000","te\\u0061mId":"t1"}' });
  t.equal(res.status, 201);
  t.same(
    seedFields(await res.json()),
    { id: 'esc', url: 'http://matchlog.test/match/esc', crmSync: 'skipped_auth' },
    'the sync was attempted and skipped, as for "clubId"',
  );
});

t.test('a body sent again is answered as the first time: refusals repeat, kept bodies pass the route checks again', async (t) => {
  const { app, engine } = await startTestApp(t, { MAX_JSON_VALUES: '1000' });
  const send = (method: 'POST' | 'PUT', url: string, payload: string) => app.inject({ method, url, headers: json, payload });
  const refused = ['{"id":"p1","team":{"__proto__":{"x":1}}}', '{"id":"c1","clubId":{"x":1},"teamId":"t"}', '{"id":"j1",', '[1,2]'];
  for (const payload of refused) {
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push((await send('POST', '/api/matches', payload)).json());
    t.equal(answers[0].statusCode, 400, payload);
    t.same(answers[1], answers[0], `${payload}: the same refusal the second time`);
    t.same(answers[2], answers[0], `${payload}: and the third`);
  }
  t.equal(await engine.eventStore.headPosition(), null, 'nothing was stored');

  const body = '{"id":"kept","homeTeam":{"name":"Lakeside","setsWon":2}}';
  for (let i = 0; i < 3; i += 1) t.equal((await send('PUT', '/api/matches/kept', body)).statusCode, 200, `sent ${i + 1} times`);
  const other = await send('PUT', '/api/matches/other', body);
  t.equal(other.statusCode, 400, 'a kept body is still checked against the path');
  t.match(other.json().message, /differs from the id in the path "other"/);
  t.equal((await send('PUT', '/api/matches/kept', ` ${body}\n`)).statusCode, 200, 'the same text with spacing around it');
  const view = (await app.inject({ method: 'GET', url: '/api/matches/kept' })).json();
  t.same([view.versions, view.payload], [1, JSON.parse(body)], 'stored once, as sent');
});
