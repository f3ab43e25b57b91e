import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { applyEdit, liveSequences, textEdit } from '../helpers/jsonEdits.js';
import { numRuns } from '../helpers/properties.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/**
 * The incremental parse end to end (issue 60): two servers, one parsing a live match's uploads
 * against its last accepted one (the default) and one parsing every upload whole
 * (LIVE_PARSE_BYTES=0), get the same requests: the uploads of live-scored matches, and random
 * edits of them (valid or not). Every answer's status and body, the stored bytes, the history
 * and every projection's documents are the same on both, but for what is random or a time
 * (salts, the digests and hashes they go into, signatures, timestamps).
 */

const TOKEN = 'a-write-token-of-32-characters-xx';

async function listening(t: Test, env: Record<string, string>): Promise<{ app: TestApp; base: string }> {
  const app = await startTestApp(t, env);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return { app, base: `http://127.0.0.1:${address.port}` };
}

/** What is random or a time in an answer or document, left out of the comparison. */
const VOLATILE = /(At|Sha256|sha256|Hash|hash|hashes|frontier|[sS]alt|signature|checkpoint|note|receipt|leaf|root|requestId|eventId)$/;
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  // A log entry is kept as its text.
  if (typeof value === 'string' && value.startsWith('{"')) return stable(JSON.parse(value));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, child]) => (VOLATILE.test(key) ? [] : [[key, stable(child)]])));
}

async function answer(base: string, method: string, path: string, body?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json', 'x-write-token': TOKEN },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: stable(parsed) };
}

/** Every read model document of a server, volatile fields left out. */
function readModelDocuments(app: TestApp): Record<string, unknown[]> {
  const db = new Database(join(app.dataDir, 'readmodel.sqlite'), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name").all() as {
      name: string;
    }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`SELECT id, doc FROM "${name}" ORDER BY id`).all() as { id: string; doc: string }[]).map((row) => stable(JSON.parse(row.doc))),
      ]),
    );
  } finally {
    db.close();
  }
}

t.test('live uploads and random edits of them: the same answers, stored bytes, history and documents with and without the incremental parse', async (t) => {
  const incremental = await listening(t, {});
  const whole = await listening(t, { LIVE_PARSE_BYTES: '0' });
  const [volleyball, basketball] = liveSequences();
  let requests = 0;
  let differences = 0;
  const both = async (method: string, path: string, body?: string) => {
    requests += 1;
    const [a, b] = await Promise.all([answer(incremental.base, method, path, body), answer(whole.base, method, path, body)]);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      differences += 1;
      t.same(a, b, `${method} ${path}: the same answer`);
    }
  };
  const upload = (id: string, text: string) => both('POST', '/api/matches', `{"id":"${id}",${text.slice(1)}`);

  // Whole live matches, one upload after another, as their apps send them.
  for (const [n, sequence] of [volleyball!.slice(0, 60), basketball!.slice(0, 30)].entries()) {
    for (const text of sequence) await upload(`live-${n}`, text);
    await both('GET', `/api/matches/live-${n}`);
    await both('GET', `/api/matches/live-${n}/history`);
  }

  // Random edits at random offsets after a few real uploads: the next upload parsed against the last accepted one.
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.nat(volleyball!.length - 4), fc.array(textEdit, { minLength: 1, maxLength: 3 }), async (start, edits) => {
      run += 1;
      const id = `edited-${run}`;
      for (const text of volleyball!.slice(start, start + 3)) await upload(id, text);
      let text = volleyball![start + 3]!;
      for (const edit of edits) {
        text = applyEdit(text, edit);
        await upload(id, text);
      }
      await both('GET', `/api/matches/${id}`);
      return true;
    }),
    { numRuns: numRuns(60) },
  );

  t.equal(differences, 0, `${requests} requests to each server, the same answers`);
  const parses = (app: TestApp, how: string) => app.logs.join('').split(`"parse":"${how}"`).length - 1;
  t.ok(
    parses(incremental.app, 'incremental') >= 80,
    `${parses(incremental.app, 'incremental')} uploads parsed incrementally (${parses(incremental.app, 'whole')} whole)`,
  );
  t.equal(parses(whole.app, 'incremental'), 0, 'none on the server without LIVE_PARSE_BYTES');
  t.same(readModelDocuments(incremental.app), readModelDocuments(whole.app), 'every projection’s documents the same');
});
