import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodes } from 'fastify';
import t from 'tap';
import { statusOf } from '../../src/http/errorHandling.js';
import { startTestApp } from '../helpers/testApp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code table of docs/api.md: `code` → its status and message. */
function documentedCodes(): Map<string, { status: number; message: string }> {
  const lines = read('docs/api.md').split('\n');
  const header = lines.findIndex((line) => /^\| code \| status \| message/.test(line));
  const rows = new Map<string, { status: number; message: string }>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [, code, status, message] = line.split('|').map((cell) => cell.trim());
    rows.set((code ?? '').replace(/`/g, ''), { status: Number(status), message: message ?? '' });
  }
  return rows;
}

/** The domain's codes, as src/domain/errors.ts declares them (the type the mapping's table is keyed by). */
const errorsTs = read('src/domain/errors.ts');
const domainCodes = [...(/type DomainErrorCode =\s*([^;]+);/.exec(errorsTs)?.[1] ?? '').matchAll(/'(\w+)'/g)].map((match) => match[1]!);
/** Fastify's and its plugins' codes the mapping words itself (src/http/errorHandling.ts). */
const fastifyCodes = [...read('src/http/errorHandling.ts').matchAll(/^\s+(FST_[A-Z_]+): \{/gm)].map((match) => match[1]!);

t.test('the codes are collected from the source', async (t) => {
  t.ok(domainCodes.length >= 9, `the domain's codes: ${domainCodes.join(', ')}`);
  t.same([...domainCodes].sort(), Object.keys(statusOf).sort(), 'the mapping has a status for each');
  t.ok(fastifyCodes.length >= 4, `Fastify's: ${fastifyCodes.join(', ')}`);
});

t.test('every error code has its status and a message in docs/api.md, and docs/api.md names no code that does not exist', async (t) => {
  const documented = documentedCodes();
  const known = [...domainCodes, ...fastifyCodes];
  t.same(
    known.filter((code) => !documented.has(code)),
    [],
    'undocumented codes',
  );
  t.same(
    [...documented.keys()].filter((code) => !known.includes(code)),
    [],
    'documented codes that do not exist',
  );
  for (const [code, { message }] of documented) t.ok(message.length > 10, `${code}: a message`);
  for (const code of domainCodes) t.equal(documented.get(code)?.status, statusOf[code as keyof typeof statusOf], `${code}: the mapping's status`);
  for (const code of fastifyCodes.filter((code) => code.startsWith('FST_ERR_'))) {
    const FastifyError = errorCodes[code as keyof typeof errorCodes];
    t.equal(documented.get(code)?.status, new FastifyError('x', 'x').statusCode, `${code}: Fastify's status`);
  }
  // The statuses of the status table, too: one row each for every code's status.
  const statusTable = new Set([...read('docs/api.md').matchAll(/^\| (\d{3}) \| /gm)].map((match) => Number(match[1])));
  for (const [code, { status }] of documented) t.ok(statusTable.has(status), `${code}: ${status} is in the status table`);
});

t.test('every domain error code is raised somewhere (a code nothing raises is a promise the service does not keep)', async (t) => {
  const helpers = new Map<string, string[]>();
  for (const match of errorsTs.matchAll(/export const (\w+) = \([^)]*\)[^=]*=>\s*new DomainError\(\s*'(\w+)'/g))
    helpers.set(match[2]!, [...(helpers.get(match[2]!) ?? []), match[1]!]);
  const code = [...sources('src'), ...sources('projections')]
    .filter((file) => file !== join('src', 'domain', 'errors.ts'))
    .map(read)
    .join('\n');
  for (const name of domainCodes) {
    const raisers = [`new DomainError('${name}'`, ...(helpers.get(name) ?? []).map((helper) => `${helper}(`)];
    t.ok(
      raisers.some((raiser) => code.includes(raiser)),
      `${name} is raised (by ${raisers.join(' or ')})`,
    );
  }
});

t.test("the dashboard's CSRF refusals answer their documented status", async (t) => {
  const { app } = await startTestApp(t);
  const documented = documentedCodes();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const missing = await app.inject({ method: 'POST', url: '/dashboard/login', headers: form, payload: 'email=a%40b.test&password=x' });
  t.equal(missing.statusCode, documented.get('FST_CSRF_MISSING_SECRET')?.status, 'no CSRF cookie');
  const page = await app.inject({ method: 'GET', url: '/dashboard/login' });
  const cookie = page.cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  const invalid = await app.inject({
    method: 'POST',
    url: '/dashboard/login',
    headers: { ...form, cookie },
    payload: '_csrf=forged&email=a%40b.test&password=x',
  });
  t.equal(invalid.statusCode, documented.get('FST_CSRF_INVALID_TOKEN')?.status, 'a forged token');
  t.match(invalid.body, /This form has expired or did not come from this site/);
});
