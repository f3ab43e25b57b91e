import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../../src/cli/commands.js';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { leafHash, verifyConsistency, verifyInclusion } from '../../src/domain/merkleTree.js';
import { openNote, parseNoteVerifierKey } from '../../src/domain/signedNote.js';
import { fixture } from '../helpers/fixtures.js';
import { startTestApp } from '../helpers/testApp.js';

const token = 'erasure-token-0123456789';
const MARKER = 'Qzxmarker7Kidname';

/** A match payload whose home team and first player carry a unique marker string. */
function markedPayload(id: string, seed: number, score: number): string {
  const payload = fixture({ seed, actions: 30, id });
  const players = payload.playerStats as { name?: string }[] | undefined;
  if (players?.[0]) players[0].name = `${MARKER} ${id}`;
  return JSON.stringify({ ...payload, homeTeam: { name: `${MARKER} Herons`, setsWon: score }, awayTeam: { name: 'Owls', setsWon: 1 } });
}

/** Every file of the data directory (the logs, the read models, their -wal and -shm) that holds `text`. */
function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(Buffer.from(text)));
}

t.test('erasure: gone from every file, 410 everywhere, every proof from before still holds', async (t) => {
  const { app, dataDir, logs } = await startTestApp(t);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const send = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { body }),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  const verifier = parseNoteVerifierKey((await send('GET', '/api/log/key')).text);
  const checkpointOf = (note: string) => {
    const opened = openNote(note, verifier);
    if ('error' in opened) throw new Error(opened.error);
    const parsed = parseCheckpointText(opened.text);
    if ('error' in parsed) throw new Error(parsed.error);
    return parsed;
  };

  const receipts: { logIndex: number; entry: string; checkpoint: string; inclusionProof: string[] }[] = [];
  for (let v = 0; v < 4; v += 1) {
    const answer = await send('POST', '/api/matches', markedPayload('secret', 1, v), { 'x-write-token': token });
    t.equal(answer.status, 201);
    receipts.push(answer.json().receipt as (typeof receipts)[number]);
  }
  await send('PUT', '/api/matches/open-1', markedPayload('open-1', 2, 0));
  await send('PUT', '/api/matches/open-1', markedPayload('open-1', 2, 1));
  await send('PUT', '/api/matches/kept', JSON.stringify(fixture({ seed: 3, actions: 10, id: 'kept' })));
  const before = checkpointOf((await send('GET', '/api/log/checkpoint')).text);
  const entriesBefore = await Promise.all(Array.from({ length: before.size }, async (_, i) => (await send('GET', `/api/log/entries/${i}`)).text));
  t.ok(filesHolding(dataDir, MARKER).length > 0, 'the marker is in the files before');

  {
    // An unprotected match cannot be erased through the API; a protected one needs its token.
    const open = await send('DELETE', '/api/matches/open-1');
    t.equal(open.status, 403);
    t.match(open.json().message, /an unprotected match cannot be erased through the API .*matchlog erase/);
    const noToken = await send('DELETE', '/api/matches/secret');
    t.equal(noToken.status, 403);
    t.match(noToken.json().message, /needs the X-Write-Token/);
    t.equal((await send('DELETE', '/api/matches/secret', undefined, { 'x-write-token': 'wrong-token-0123456789' })).status, 403);
    t.equal((await send('DELETE', '/api/matches/nope', undefined, { 'x-write-token': token })).status, 404);
  }

  const erased = await send('DELETE', '/api/matches/secret', JSON.stringify({ reason: 'a parent asked' }), { 'x-write-token': token });
  const cli = { out: '', err: '' };
  const cliCode = await runCli(['erase', 'open-1', '--reason', 'uploaded by mistake'], {
    out: (s) => (cli.out += s),
    err: (s) => (cli.err += s),
    env: { DATA_DIR: dataDir },
  });

  t.test('DELETE with the token and matchlog erase erase', async (t) => {
    t.equal(erased.status, 200, erased.text);
    t.match(erased.json(), { id: 'secret', erased: true, receipt: { entry: /"type":"MatchErased"/ } });
    t.equal(cliCode, 0, cli.err);
    t.match(cli.out, /erased match open-1: 2 version\(s\) gone/);
    t.equal((await send('DELETE', '/api/matches/secret', undefined, { 'x-write-token': token })).status, 410, 'twice is 410');
  });

  t.test('the marker is in no store file (-wal and -shm included), no log line, no answer', async (t) => {
    t.same(filesHolding(dataDir, MARKER), []);
    t.notOk(logs.join('').includes(MARKER), 'no log line');
    const answers = await Promise.all(
      [
        '/api/matches/secret',
        '/match/secret',
        '/api/matches/secret?revision=0',
        '/api/matches/secret/payload?revision=1',
        '/api/matches/secret/history',
        '/match/secret/history',
        '/api/matches/open-1',
      ].map((path) => send('GET', path)),
    );
    t.same(
      answers.map((answer) => answer.status),
      [410, 410, 410, 410, 200, 200, 410],
    );
    t.match(answers[0]!.json().message, /was erased on \d{4}-\d\d-\d\d: its versions are gone for good/);
    t.match(answers[1]!.text, /was erased on/);
    for (const answer of answers) t.notOk(answer.text.includes(MARKER));
    const history = answers[4]!.json() as { entries: { revision: number; type: string; details?: { erased?: boolean } }[] };
    t.same(
      history.entries.map((entry) => [entry.type, entry.details?.erased ?? false]),
      [
        ['MatchCreated', true],
        ['MatchReplaced', true],
        ['MatchReplaced', true],
        ['MatchReplaced', true],
        ['MatchErased', false],
      ],
    );
    t.equal((await send('PUT', '/api/matches/secret', markedPayload('secret', 1, 9), { 'x-write-token': token })).status, 410, 'the id is not taken again');
    t.equal((await send('GET', '/api/matches/kept')).status, 200, 'other matches stay');
  });

  t.test('checkpoints, receipts and entries from before still verify', async (t) => {
    const after = checkpointOf((await send('GET', '/api/log/checkpoint')).text);
    t.equal(after.size, before.size + 2);
    const consistency = ((await send('GET', `/api/log/proof/consistency?from=${before.size}&to=${after.size}`)).json().hashes as string[]).map((h) =>
      Buffer.from(h, 'base64'),
    );
    t.ok(verifyConsistency(before.size, after.size, consistency, before.rootHash, after.rootHash));
    for (const receipt of receipts) {
      const cp = checkpointOf(receipt.checkpoint);
      t.ok(
        verifyInclusion(
          leafHash(receipt.entry),
          receipt.logIndex,
          cp.size,
          receipt.inclusionProof.map((h) => Buffer.from(h, 'base64')),
          cp.rootHash,
        ),
      );
      t.equal((await send('GET', `/api/log/entries/${receipt.logIndex}`)).text, receipt.entry);
    }
    const entriesAfter = await Promise.all(entriesBefore.map(async (_, i) => (await send('GET', `/api/log/entries/${i}`)).text));
    t.same(entriesAfter, entriesBefore, 'every entry is served as before');
  });

  t.test('a rebuild of every read model from the erased log gives the same documents (the tree: the same root)', async (t) => {
    let out = '';
    const code = await runCli(['verify'], { out: (s) => (out += s), err: (s) => (out += s), env: { DATA_DIR: dataDir } });
    t.equal(code, 0, out);
    t.match(out, /payloads: 1 version\(s\) match their digests; .*\n|payloads: 1 version/);
    t.match(out, /transparencyLog: matches the log/);
    t.match(out, /matchHistory: matches the log/);
  });
});
