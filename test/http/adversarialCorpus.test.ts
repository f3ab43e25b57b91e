import { request } from 'node:http';
import t from 'tap';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { HISTORY_RESPONSE_BYTES } from '../../src/http/api/historyApi.js';
import { CSV_COLUMNS, CSV_ROWS, PAGE_BYTES } from '../../src/http/views/renderCaps.js';
import { DIFF_BASIS_FIELDS, DIFF_LIST_MAX } from '../../src/domain/matchDiff.js';
import { ADVERSARIAL, adversarialCorpus } from '../fixtures/adversarial.mjs';
import { dashboardClient } from '../helpers/browserless.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Issue 33: every payload a hostile client can send inside the upload limits, uploaded (synced
// to a club) and then read through every public route over a real socket, and through the
// club's dashboard and exports (over the socket too): each answer is 2xx and stays under its documented cap
// (docs/limits.md). The CPU each costs is measured by `npm run bench:hostile`, not here.

const context = { requestId: 'test', clientAddressClass: 'loopback' };
const password = 'correct horse battery';

/** Status, headers and the byte length of a GET over the socket (decoded bodies are not needed). */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; type: string; head: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let bytes = 0;
      let head = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < 512) head += chunk.toString('latin1', 0, 512);
        // A live stream never ends: its first event is the answer.
        if (String(res.headers['content-type']).startsWith('text/event-stream') && head.includes('event: revision')) req.destroy();
      });
      const done = () => resolve({ status: res.statusCode ?? 0, bytes, type: String(res.headers['content-type']), head });
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

t.test('every adversarial payload, read through every route, stays under its cap', async (t) => {
  const s = await startTestApp(t, { MAX_BODY_BYTES: String(4 * 1024 * 1024) });
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const clubs = createClubCommands({ eventStore: s.engine.eventStore });
  const { clubId, teams } = await clubs.signUp({ clubName: 'Hostile VC', email: 'hostile@club.test', password, teams: ['First Team'] }, context);
  const teamId = teams[0]?.teamId ?? '';
  const { key } = await clubs.issueAppKey(clubId, '', context);

  const corpus = adversarialCorpus({ clubId, teamId });
  for (const { name, text } of corpus) {
    for (const version of [text, text.replace(/}$/, ',"replaced":true}')]) {
      const res = await fetch(`${base}/api/matches/${name}`, { method: 'PUT', headers: { ...json, 'x-app-key': key }, body: version });
      t.ok(res.ok, `${name}: uploaded (${res.status})`);
      const body = (await res.json()) as { crmSync?: string };
      t.equal(body.crmSync, undefined, `${name}: synced to the club (no crmSync: skipped_auth)`);
    }
  }

  for (const { name, text } of corpus) {
    t.test(name, async (t) => {
      const payloadBytes = Buffer.byteLength(text);
      const routes: [string, string, number, Record<string, string>?][] = [
        ['API JSON', `/api/matches/${name}`, payloadBytes + 64 * 1024],
        ['API JSON, brotli', `/api/matches/${name}`, payloadBytes + 64 * 1024, { 'accept-encoding': 'br' }],
        ['API JSON of revision 0', `/api/matches/${name}?revision=0`, payloadBytes + 64 * 1024],
        ['history JSON', `/api/matches/${name}/history?limit=100`, HISTORY_RESPONSE_BYTES],
        ['page', `/match/${name}`, PAGE_BYTES],
        ['page, gzip', `/match/${name}`, PAGE_BYTES, { 'accept-encoding': 'gzip' }],
        ['page, live part', `/match/${name}?part=main`, PAGE_BYTES],
        ['page of revision 0', `/match/${name}?revision=0`, PAGE_BYTES],
        ['embed', `/match/${name}/embed`, PAGE_BYTES],
        ['history page', `/match/${name}/history`, PAGE_BYTES],
        ['QR code', `/match/${name}/qr.svg`, 64 * 1024],
        ['link preview card', `/match/${name}/card.png`, 128 * 1024],
        ['live stream, to its first event', `/match/${name}/live`, 1024],
      ];
      for (const [route, path, cap, headers] of routes) {
        const res = await get(base, path, headers);
        t.equal(res.status, 200, `${route}: 200`);
        t.ok(res.bytes <= cap, `${route}: ${res.bytes} bytes ≤ ${cap}`);
      }
      // Further pages of plays, where the page links one, are as bounded.
      const page = await (await fetch(`${base}/match/${name}`)).text();
      const next = /href="(\/match\/[^"]+\?part=plays&amp;page=\d+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
      if (next !== undefined) {
        const res = await get(base, next);
        t.equal(res.status, 200, `older plays (${next}): 200`);
        t.ok(res.bytes <= PAGE_BYTES, `older plays: ${res.bytes} bytes ≤ ${PAGE_BYTES}`);
      }
    });
  }

  t.test("the club's dashboard and exports of the synced copies", async (t) => {
    const client = dashboardClient(base);
    await client.get('/dashboard/login');
    t.equal((await client.post('/dashboard/login', { email: 'hostile@club.test', password })).statusCode, 303, 'logged in');
    const pages = ['/dashboard', '/dashboard/matches', '/dashboard/players', '/dashboard/stats', ...corpus.map(({ name }) => `/dashboard/matches/${name}`)];
    for (const path of pages) {
      const res = await client.get(path);
      t.equal(res.statusCode, 200, `${path}: 200`);
      t.ok(res.rawPayload.length <= PAGE_BYTES, `${path}: ${res.rawPayload.length} bytes ≤ ${PAGE_BYTES}`);
    }
    // Each player's page, as the Players page links them (the widest: one with 300 unknown stats).
    const links = [...(await client.get('/dashboard/players')).body.matchAll(/href="(\/dashboard\/player\?[^"]+)"/g)].map((m) =>
      (m[1] ?? '').replaceAll('&amp;', '&'),
    );
    t.ok(links.length > 0, 'the Players page links players');
    for (const path of links.slice(0, 20)) {
      const res = await client.get(path);
      t.equal(res.statusCode, 200, `${path}: 200`);
      t.ok(res.rawPayload.length <= PAGE_BYTES, `${path}: ${res.rawPayload.length} bytes ≤ ${PAGE_BYTES}`);
    }

    const csv = await client.get('/dashboard/export/players.csv');
    t.equal(csv.statusCode, 200, 'players.csv: 200');
    const lines = csv.body.split('\r\n').filter((line) => line !== '');
    t.ok(lines.length <= CSV_ROWS + 2, `players.csv: ${lines.length} lines ≤ ${CSV_ROWS} rows, a header and a note`);
    t.ok((lines[0]?.split(',').length ?? 0) <= CSV_COLUMNS + 16, `players.csv: ${lines[0]?.split(',').length} columns, stat columns ≤ ${CSV_COLUMNS}`);
    const exported = await client.get('/dashboard/export/players.json');
    t.equal(exported.statusCode, 200, 'players.json: 200');
    t.ok((exported.json() as { columns: string[] }).columns.length <= CSV_COLUMNS + 16, 'players.json: columns bounded like the CSV');
  });
});

t.test('item 4 over a real server: a replace that changes all of 290,000 keys is one history entry, 100 changes named and the rest counted', async (t) => {
  const s = await startTestApp(t, { MAX_BODY_BYTES: String(4 * 1024 * 1024) });
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  for (const round of [0, 1]) {
    const res = await fetch(`${base}/api/matches/wide-keys`, { method: 'PUT', headers: json, body: JSON.stringify(ADVERSARIAL.wideKeys!({ round })) });
    t.equal(res.status, 200, `version ${round}: stored`);
    await res.text();
  }
  const history = (await (await fetch(`${base}/api/matches/wide-keys/history?order=newest&limit=1`)).json()) as {
    entries: { revision: number; diff: { fields: { field: string; change: string }[]; omitted: number } }[];
  };
  const diff = history.entries[0]!.diff;
  t.equal(diff.fields.length, DIFF_LIST_MAX, 'the first DIFF_LIST_MAX changes named');
  t.same(
    diff.fields.map((f) => f.field).sort(),
    Array.from({ length: DIFF_LIST_MAX }, (_, i) => `k${i}`).sort(),
    "the first DIFF_LIST_MAX in the new version's order (listed sorted by name)",
  );
  t.ok(
    diff.fields.every((f) => f.change === 'changed'),
    'each a change',
  );
  // Every value changed: the rest of the fields named in the basis counted one by one, the
  // 280,000 past them one per digest (docs/limits.md, "history diff basis").
  t.equal(diff.omitted, DIFF_BASIS_FIELDS - DIFF_LIST_MAX + 64, 'the rest counted by fingerprint, then by digest');
});
