import { createHash } from 'node:crypto';
import t from 'tap';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { parseLogEntry } from '../../src/domain/logEntry.js';
import { leafHash, verifyConsistency, verifyInclusion } from '../../src/domain/merkleTree.js';
import { openNote, parseNoteVerifierKey } from '../../src/domain/signedNote.js';
import { runCli } from '../../src/cli/commands.js';
import { createClubCommands } from '../../src/commands/clubCommands.js';
import { fixtureText } from '../helpers/fixtures.js';
import { startTestApp } from '../helpers/testApp.js';

const token = 'log-token-0123456789abcdef';

t.test('the transparency log over a real server', async (t) => {
  const { app, dataDir } = await startTestApp(t);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (path: string) => fetch(`${base}${path}`);
  const write = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { method, body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const verifier = parseNoteVerifierKey(await (await get('/api/log/key')).text());
  const checkpoint = async () => {
    const note = await (await get('/api/log/checkpoint')).text();
    const opened = openNote(note, verifier);
    if ('error' in opened) throw new Error(opened.error);
    const parsed = parseCheckpointText(opened.text);
    if ('error' in parsed) throw new Error(parsed.error);
    return parsed;
  };

  // An empty log has a signed checkpoint of size 0, its origin from PUBLIC_BASE_URL.
  const response = await get('/api/log/checkpoint');
  t.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
  const empty = await checkpoint();
  t.equal(empty.origin, 'matchlog.test/log');
  t.equal(empty.size, 0);
  t.equal(empty.rootHash.toString('hex'), createHash('sha256').digest('hex'), 'the root of no leaves is SHA-256 of nothing');
  t.match(await (await get('/api/log/key')).text(), /^matchlog\.test\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*\n$/);

  const payload = fixtureText({ seed: 5, actions: 20, id: 'logged' });
  const created = await write('POST', '/api/matches', payload, { 'x-write-token': token });
  const first = await checkpoint();

  t.test('a write answers a receipt whose proof verifies against its signed checkpoint', async (t) => {
    t.equal(created.status, 201);
    t.equal(created.body.id, 'logged');
    const receipt = created.body.receipt as { logIndex: number; entry: string; checkpoint: string; inclusionProof: string[] };
    const opened = openNote(receipt.checkpoint, verifier);
    t.notOk('error' in opened, 'the checkpoint is signed by the log key');
    const cp = parseCheckpointText('text' in opened ? opened.text : '');
    if ('error' in cp) throw new Error(cp.error);
    t.ok(
      verifyInclusion(
        leafHash(receipt.entry),
        receipt.logIndex,
        cp.size,
        receipt.inclusionProof.map((h) => Buffer.from(h, 'base64')),
        cp.rootHash,
      ),
    );
    const entry = parseLogEntry(receipt.entry);
    t.match(entry, { matchId: 'logged', revision: 0, type: 'MatchCreated' });
    t.notMatch(receipt.entry, /token|Hash"/, 'no token or token hash in the entry');
    t.equal(await (await get(`/api/log/entries/${receipt.logIndex}`)).text(), receipt.entry, 'the entry is served byte for byte');
    const version = await get('/api/matches/logged/payload?revision=0');
    const bytes = Buffer.from(await version.arrayBuffer());
    t.equal(bytes.toString(), payload, 'the payload byte for byte');
    const salt = Buffer.from(version.headers.get('matchlog-payload-salt') ?? '', 'base64');
    t.equal(salt.length, 16);
    t.equal(createHash('sha256').update(salt).update(bytes).digest('hex'), entry?.payloadSha256, "SHA-256(salt ‖ payload) is the entry's digest");
  });

  t.test('a repeated upload stores nothing and answers the receipt of the version it repeats', async (t) => {
    const again = await write('POST', '/api/matches', payload, { 'x-write-token': token });
    t.equal(again.status, 201);
    t.same((again.body.receipt as { logIndex: number }).logIndex, (created.body.receipt as { logIndex: number }).logIndex);
  });

  for (let i = 0; i < 12; i += 1) await write('PUT', `/api/matches/other-${i}`, fixtureText({ sport: 'basketball', seed: i, actions: 5 }));
  const replaced = await write('PUT', '/api/matches/logged', fixtureText({ seed: 6, actions: 20, id: 'logged' }), { 'x-write-token': token });
  const second = await checkpoint();

  t.test('the log grew consistently, and every entry is included', async (t) => {
    t.equal(replaced.status, 200);
    t.equal(second.size, first.size + 13);
    const proof = ((await (await get(`/api/log/proof/consistency?from=${first.size}&to=${second.size}`)).json()) as { hashes: string[] }).hashes.map((h) =>
      Buffer.from(h, 'base64'),
    );
    t.ok(verifyConsistency(first.size, second.size, proof, first.rootHash, second.rootHash));
    for (let index = 0; index < second.size; index += 1) {
      const entry = await (await get(`/api/log/entries/${index}`)).text();
      const inclusion = ((await (await get(`/api/log/proof/inclusion?index=${index}&size=${second.size}`)).json()) as { hashes: string[] }).hashes.map((h) =>
        Buffer.from(h, 'base64'),
      );
      if (!verifyInclusion(leafHash(entry), index, second.size, inclusion, second.rootHash)) t.fail(`entry ${index}`);
    }
    t.pass('all included');
  });

  t.test("the history names each event's log index, the page links it, and the export verifies offline", async (t) => {
    const history = (await (await get('/api/matches/logged/history')).json()) as { entries: { revision: number; logIndex: number }[] };
    t.same(
      history.entries.map((entry) => entry.logIndex),
      [(created.body.receipt as { logIndex: number }).logIndex, second.size - 1],
    );
    const page = await (await get('/match/logged/history')).text();
    t.match(page, new RegExp(`<a href="/api/log/entries/${second.size - 1}">${second.size - 1}</a>`));
    t.match(page, /matchlog audit/);
    let out = '';
    const code = await runCli(['export', 'logged'], {
      out: (s) => (out += s),
      err: (s) => (out += s),
      env: { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://matchlog.test' },
    });
    t.equal(code, 0, out);
    const lines = out
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            payloadText: string;
            payloadSalt: string;
            log: { index: number; entry: string; treeSize: number; inclusionProof: string[]; checkpoint: string };
          },
      );
    t.equal(lines.length, 2);
    for (const line of lines) {
      const opened = openNote(line.log.checkpoint, verifier);
      const cp = parseCheckpointText('text' in opened ? opened.text : '');
      if ('error' in cp) throw new Error(cp.error);
      t.ok(
        verifyInclusion(
          leafHash(line.log.entry),
          line.log.index,
          cp.size,
          line.log.inclusionProof.map((h) => Buffer.from(h, 'base64')),
          cp.rootHash,
        ),
        'included offline',
      );
      const digest = createHash('sha256').update(Buffer.from(line.payloadSalt, 'base64')).update(line.payloadText).digest('hex');
      t.equal(digest, parseLogEntry(line.log.entry)?.payloadSha256, 'the version is the one logged');
    }
  });

  t.test('bad proof requests are clear 4xx answers', async (t) => {
    const beyond = await get(`/api/log/proof/inclusion?index=0&size=${second.size + 1}`);
    t.equal(beyond.status, 400);
    t.match(((await beyond.json()) as { message: string }).message, /beyond the log's \d+ entries/);
    t.equal((await get(`/api/log/proof/inclusion?index=5&size=5`)).status, 400);
    t.equal((await get(`/api/log/proof/consistency?from=5&to=4`)).status, 400);
    t.equal((await get(`/api/log/entries/${second.size}`)).status, 404);
    t.equal((await get('/api/log/entries/x')).status, 400);
    t.equal((await get('/api/matches/logged/payload?revision=9')).status, 404);
  });
});

t.test('a repeated synced upload answers the receipt of its version, not of the club sync outcome after it', async (t) => {
  const { app, engine } = await startTestApp(t);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const clubs = createClubCommands({ eventStore: engine.eventStore });
  const context = { requestId: 'test', clientAddressClass: 'loopback' };
  const { clubId, teams } = await clubs.signUp(
    { clubName: 'Receipt VC', email: 'receipts@club.test', password: 'correct horse battery', teams: ['A'] },
    context,
  );
  const { key } = await clubs.issueAppKey(clubId, '', context);
  const synced = JSON.stringify({ ...JSON.parse(fixtureText({ seed: 9, actions: 5, id: 'synced-receipt' })), clubId, teamId: teams[0]?.teamId });
  const upload = async () => {
    const response = await fetch(`${base}/api/matches`, { method: 'POST', body: synced, headers: { 'content-type': 'application/json', 'x-app-key': key } });
    t.equal(response.status, 201);
    return ((await response.json()) as { receipt: { logIndex: number; entry: string } }).receipt;
  };
  const first = await upload();
  const again = await upload();
  t.equal(again.logIndex, first.logIndex);
  t.match(parseLogEntry(again.entry), { type: 'MatchCreated', revision: 0 }, 'the version, though a ClubSyncAccepted follows it in the stream');
  const stream = await engine.eventStore.readStream('match-synced-receipt');
  t.same(
    stream.map((event) => event.type),
    ['MatchCreated', 'ClubSyncAccepted'],
  );
});
