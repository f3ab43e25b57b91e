#!/usr/bin/env node
// The naive CRUD server matchlog is measured against (npm run bench): bare Fastify, one SQLite
// table upserted with the body text (WAL, synchronous=FULL, a transaction per request), a plain
// SELECT for GET. No events, no protection, no read models. Env: PORT, HOST, DATA_DIR.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const dataDir = process.env.DATA_DIR ?? './baseline-data';
mkdirSync(dataDir, { recursive: true });
const db = new Database(join(dataDir, 'matches.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS matches (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
const upsert = db.prepare('INSERT INTO matches (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body');
const select = db.prepare('SELECT body FROM matches WHERE id = ?');

const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
  try {
    done(null, { text, json: JSON.parse(text) });
  } catch (error) {
    error.statusCode = 400;
    done(error);
  }
});

function save(id, text) {
  upsert.run(id, text);
  return { id, url: `/match/${id}` };
}

app.post('/api/matches', async (request, reply) => reply.code(201).send(save(request.body.json.id ?? crypto.randomUUID(), request.body.text)));
app.put('/api/matches/:id', async (request) => save(request.params.id, request.body.text));
app.get('/api/matches/:id', async (request, reply) => {
  const row = select.get(request.params.id);
  if (row === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'no such match' });
  return reply.type('application/json; charset=utf-8').send(row.body);
});
app.get('/healthz', async () => ({ ok: true }));

await app.listen({ port: Number(process.env.PORT ?? 3999), host: process.env.HOST ?? '127.0.0.1' });
console.log(`baseline listening on ${app.server.address().port}`);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => db.close()));
