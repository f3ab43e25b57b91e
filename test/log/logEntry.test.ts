import t from 'tap';
import { createHash } from 'node:crypto';
import { createFactsCheck } from '../../src/cli/auditFacts.js';
import { type LogEntry, logEntryOf, logEntryText, parseLogEntry, saltedSha256Hex } from '../../src/domain/logEntry.js';

/** Canonical JSON as RFC 8785 orders it: members sorted by name, the absent ones left out. */
const sortedJson = (entry: LogEntry) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(entry)
        .filter(([, value]) => value !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

t.test("an entry's text is canonical JSON, and reads back as the entry", async (t) => {
  const entries: LogEntry[] = [
    { matchId: 'cup-final', revision: 3, type: 'MatchReplaced', recordedAt: '2026-11-27T08:00:00.000Z', payloadSha256: 'ab'.repeat(32) },
    { clubId: 'club-1', revision: 0, type: 'ClubCreated', recordedAt: '2026-11-27T08:00:01.000Z', dataSha256: 'cd'.repeat(32) },
    { type: 'ClubSyncAccepted', dataSha256: 'ef'.repeat(32), recordedAt: '2026-11-27T08:00:02.000Z', revision: 1, matchId: 'm"\\é' },
  ];
  for (const entry of entries) {
    const text = logEntryText(entry);
    t.equal(text, sortedJson(entry));
    t.same(parseLogEntry(text), entry);
  }
  t.equal(parseLogEntry(JSON.stringify(entries[0])), null, 'members out of order are not canonical');
});

t.test('issue 59: an entry commits the facts of who could write; an erasure its reason only after a salt; a club action stays out', async (t) => {
  const event = (streamId: string, type: string, data: string, metadata: Parameters<typeof logEntryOf>[0]['metadata']) =>
    logEntryOf({ streamId, revision: 1, position: 9, type, data, recordedAt: '2026-11-29T10:00:00.000Z', metadata });
  const version = event('match-cup', 'MatchReplaced', '{"schemaVersion":1}', {
    payloadSha256: 'ab'.repeat(32),
    logFacts: { protection: 'protected', via: 'PUT', credential: 'matched' },
  });
  t.equal(
    logEntryText(version!),
    `{"credential":"matched","matchId":"cup","payloadSha256":"${'ab'.repeat(32)}","protection":"protected",` +
      '"recordedAt":"2026-11-29T10:00:00.000Z","revision":1,"type":"MatchReplaced","via":"PUT"}',
  );
  t.same(parseLogEntry(logEntryText(version!)), version, 'and reads back');
  t.equal(parseLogEntry(logEntryText({ ...version!, via: 'PATCH' as 'PUT' })), null, 'a fact outside its values is not an entry');
  const reason = '{"schemaVersion":1,"matchId":"cup","reason":"Jane asked"}';
  const salt = Buffer.alloc(16, 7).toString('base64');
  const erasure = event('match-cup', 'MatchErased', reason, { dataSalt: salt, logFacts: { via: 'DELETE' } });
  t.equal(erasure?.dataSha256, saltedSha256Hex(salt, reason));
  t.not(erasure?.dataSha256, createHash('sha256').update(reason).digest('hex'), 'a guessed reason cannot be confirmed from the entry');
  t.equal(erasure?.via, 'DELETE');
  t.equal(event('club-c1', 'AppKeyRevoked', '{}', { publicLog: false }), null, "a club's dashboard action is not in the public log");
  t.ok(event('club-c1', 'AppKeyRevoked', '{}', {}), 'one written before it stays, as it was');
});

t.test('issue 59, F9: audit --full finds a gap in a match’s revisions (0, 1, 3)', async (t) => {
  const facts = createFactsCheck();
  const entry = (revision: number) => ({ matchId: 'm', revision, type: 'MatchReplaced', recordedAt: 'x', payloadSha256: 'ab'.repeat(32) });
  facts.entry(entry(0), 'entry 0');
  facts.entry(entry(1), 'entry 1');
  t.throws(() => facts.entry(entry(3), 'entry 2'), /entry 2: revision 3 where 2 comes next: the log lacks an event of match m/);
});
