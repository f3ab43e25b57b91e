import t from 'tap';
import { type LogEntry, logEntryText, parseLogEntry } from '../../src/domain/logEntry.js';

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
