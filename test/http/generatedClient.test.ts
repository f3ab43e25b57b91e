import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t from 'tap';
import { PAYLOAD_EXAMPLES } from '../../src/http/api/payloadExamples.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startTestApp, tempDataDir } from '../helpers/testApp.js';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');

/** openapi-typescript's API, or why it cannot run here. */
async function openapiTypescript(): Promise<{ generate: (document: object) => Promise<string> } | string> {
  try {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    return { generate: async (document) => astToString(await openapiTS(document as Parameters<typeof openapiTS>[0])) };
  } catch (error) {
    return `openapi-typescript is not installed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/** tsc on one file beside the generated types: its errors, or [] when it type-checks. */
function typeCheck(dir: string, name: string, source: string): string[] {
  writeFileSync(join(dir, name), `import type { components } from './api.js';\ntype MatchPayload = components['schemas']['MatchPayload'];\n${source}\n`);
  const run = spawnSync(
    process.execPath,
    [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', join(dir, name)],
    { encoding: 'utf8' },
  );
  return run.stdout.split('\n').filter((line) => line.includes('error TS'));
}

t.test(
  'types generated from /openapi.json by openapi-typescript check a payload: ' +
    'playerStats: 42 and homeTeam: 7 are refused, real feeds and numbers as strings pass',
  async (t) => {
    const tool = await openapiTypescript();
    if (typeof tool === 'string') {
      t.comment(`skipping the compile test: ${tool}`);
      t.pass('skipped: no openapi-typescript');
      return;
    }
    const { app } = await startTestApp(t);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as object;
    const answer = await fetch(`${base}/api/matches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"playerStats": 42, "homeTeam": 7}',
    });
    t.equal(answer.status, 201, 'the server still accepts any JSON object: the schema documents, it does not validate');
    const dir = tempDataDir(t, 'matchlog-client-');
    writeFileSync(join(dir, 'api.ts'), await tool.generate(document));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');

    const feeds = {
      volleyball: JSON.parse(fixtureText({ seed: 3, club: 'c1', team: 't1' })) as unknown,
      basketball: JSON.parse(fixtureText({ sport: 'basketball', seed: 4 })) as unknown,
      nbaLive: JSON.parse(readFileSync(new URL('../fixtures/nba-live-game.json', import.meta.url), 'utf8')) as unknown,
      statsBomb: JSON.parse(readFileSync(new URL('../fixtures/statsbomb-match.json', import.meta.url), 'utf8')) as unknown,
      examples: PAYLOAD_EXAMPLES,
    };
    const good = `
const feeds = ${JSON.stringify(feeds)};
export const volleyball: MatchPayload = feeds.volleyball;
export const basketball: MatchPayload = feeds.basketball;
export const nbaLive: MatchPayload = feeds.nbaLive;
export const statsBomb: MatchPayload = feeds.statsBomb;
export const examples: MatchPayload[] = feeds.examples;
export const asStrings: MatchPayload = {
  homeTeam: { name: 'Herons', setsWon: '3' },
  awayTeam: { name: 'Owls', setsWon: '1' },
  home_score: '2',
  sets: [{ set: '1', home: '25', away: '20' }],
  playerStats: [{ playerId: 7, number: '7', team: 'home', stats: { kills: '14' } }],
  actions: [{ seq: '12', set: 1, clock: 'PT9M12S' }],
  anyOtherField: { stays: 'valid' },
};`;
    t.same(typeCheck(dir, 'good.ts', good), [], 'a correct payload, real feeds, examples and numbers sent as strings type-check');
    const playerStats = typeCheck(dir, 'playerStats.ts', 'export const bad: MatchPayload = { playerStats: 42 };');
    t.equal(playerStats.length, 1, `playerStats: 42 is refused: ${playerStats.join(' ')}`);
    t.match(playerStats[0], /playerStats/);
    const homeTeam = typeCheck(dir, 'homeTeam.ts', "export const bad: MatchPayload = { homeTeam: 7, awayTeam: { name: 'Owls' } };");
    t.equal(homeTeam.length, 1, `homeTeam: 7 is refused: ${homeTeam.join(' ')}`);
    t.match(homeTeam[0], /homeTeam|number/);
  },
);

t.test('the OpenAPI document: operationIds on every operation, MatchPayload in components.schemas, named examples, the club-sync header', async (t) => {
  const { app } = await startTestApp(t);
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId?: string;
          requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, unknown> }> };
          responses: Record<string, { headers?: Record<string, unknown> }>;
        }
      >
    >;
    components: { schemas: Record<string, { additionalProperties?: unknown }> };
  };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, ...operation })),
  );
  t.same(
    operations.filter((o) => !o.operationId).map((o) => o.at),
    [],
    'every operation has an operationId',
  );
  t.equal(new Set(operations.map((o) => o.operationId)).size, operations.length, 'all different');
  t.equal(document.components.schemas.MatchPayload?.additionalProperties, true, 'MatchPayload stays open');
  for (const at of [document.paths['/api/matches']?.post, document.paths['/api/matches/{id}']?.put]) {
    const media = at?.requestBody?.content['application/json'];
    t.same(media?.schema, { $ref: '#/components/schemas/MatchPayload' });
    t.same(Object.keys(media?.examples ?? {}), ['volleyball', 'basketball', 'football'], 'examples by name, not example1..3');
  }
  t.ok(document.paths['/api/matches']?.post?.responses['201']?.headers?.['Matchlog-Club-Sync'], 'the club-sync header is documented');
});

/** The JSON code blocks of docs/payload.md, in order. */
const payloadDocExamples = () =>
  [...readFileSync(new URL('../../docs/payload.md', import.meta.url), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  );

t.test(
  "every example in docs/payload.md is stored (201) and compiles against the generated types; status: 42 and a team's " +
    'name: 7 do not; headers are typed as written; GET /api/matches/{id} types its payload',
  async (t) => {
    const tool = await openapiTypescript();
    if (typeof tool === 'string') {
      t.comment(`skipping the compile test: ${tool}`);
      t.pass('skipped: no openapi-typescript');
      return;
    }
    const { app } = await startTestApp(t);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const examples = payloadDocExamples();
    t.ok(examples.length >= 3, `${examples.length} examples in docs/payload.md`);
    for (const example of examples) {
      const answer = await fetch(`${base}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(example) });
      t.equal(answer.status, 201, `the ${String(example.sport)} example is stored`);
    }
    const dir = tempDataDir(t, 'matchlog-client-');
    writeFileSync(join(dir, 'api.ts'), await tool.generate((await (await fetch(`${base}/openapi.json`)).json()) as object));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const good = `import type { operations } from './api.js';
${examples.map((example, i) => `export const example${i}: MatchPayload = ${JSON.stringify(example)};`).join('\n')}
type Headers = NonNullable<operations['putMatch']['parameters']['header']>;
export const headers: Headers = { 'X-Write-Token': 'a-token-of-the-device', 'X-App-Key': 'key' };
type View = operations['getMatch']['responses'][200]['content']['application/json'];
export const status = (view: View): string | undefined => view.payload.status;`;
    t.same(typeCheck(dir, 'examples.ts', good), [], 'every example, the headers as the spec writes them and the read payload type-check');
    const wrong = [
      'export const a: MatchPayload = { status: 42 };',
      'export const b: MatchPayload = { homeTeam: { name: 7 } };',
      'export const c: MatchPayload = { actions: [{ evaluation: 3 }] };',
      'export const d: MatchPayload = { sets: [{ home: true }] };',
    ];
    const errors = typeCheck(dir, 'wrong.ts', wrong.join('\n'));
    // The helper puts two lines before the source: line 3 is the first wrong payload.
    t.same(
      errors.map((line) => Number(/\((\d+),\d+\)/.exec(line)?.[1]) - 2),
      [1, 2, 3, 4],
      `each wrong payload is refused, on its own line: ${errors.join(' ')}`,
    );
    t.match(errors[0], /status|number.*string/);
  },
);
