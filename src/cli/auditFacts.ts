import type { LogEntry } from '../domain/logEntry.js';
import { AuditFailure } from './logClient.js';
import { isRecord } from '../platform/isRecord.js';

interface MatchSeen {
  /** The revision its next entry must have: a match's entries come in revision order, without gaps. */
  next: number;
  /** The protection its creation committed, when its entry carries the facts. */
  protection: 'protected' | 'unprotected' | null;
  /** The revision of its MatchErased entry, if the log has one. */
  erasedAt: number | null;
  /** Versions whose payload the server answered as erased (410). */
  erasedVersions: number[];
  /** Its latest version's entry. */
  latest: { revision: number; recordedAt: string } | null;
}

/**
 * What `audit --full` checks of who could write and of erasures (issue 59: F1, F2, F10), beside
 * the digests: each match's entries come in revision order with no gap; versions whose entries
 * commit their facts keep the protection fixed at creation, a protected one's every replace
 * having matched the token; every version the server answers as erased is covered by a
 * MatchErased entry of its match, after it (a faked erasure is not); and what the API serves
 * agrees with the log: an erased match answers 410, another its committed protection and, at the
 * log's latest version, that version's time.
 */
export function createFactsCheck() {
  const matches = new Map<string, MatchSeen>();
  const seen = (matchId: string) => {
    let match = matches.get(matchId);
    if (match === undefined) {
      match = { next: 0, protection: null, erasedAt: null, erasedVersions: [], latest: null };
      matches.set(matchId, match);
    }
    return match;
  };
  return {
    /** An entry, in log order. */
    entry(entry: LogEntry, where: string) {
      if (entry.matchId === undefined) return;
      const match = seen(entry.matchId);
      if (entry.revision !== match.next)
        throw new AuditFailure(`${where}: revision ${entry.revision} where ${match.next} comes next: the log lacks an event of match ${entry.matchId}`);
      match.next = entry.revision + 1;
      if (entry.type === 'MatchErased') match.erasedAt = entry.revision;
      if (entry.type !== 'MatchCreated' && entry.type !== 'MatchReplaced') return;
      match.latest = { revision: entry.revision, recordedAt: entry.recordedAt };
      if (entry.protection === undefined) return;
      if (entry.type === 'MatchCreated') match.protection = entry.protection;
      else if (match.protection !== null && entry.protection !== match.protection)
        throw new AuditFailure(`${where}: committed ${entry.protection}, but match ${entry.matchId} was created ${match.protection}`);
      const credential = entry.protection === 'protected' ? (entry.type === 'MatchCreated' ? 'bound' : 'matched') : 'none';
      if (entry.credential !== credential)
        throw new AuditFailure(`${where}: a ${entry.protection} version with the token ${entry.credential ?? 'not committed'}, not ${credential}`);
    },
    /** A version's payload was answered as erased. */
    erasedVersion(matchId: string, revision: number) {
      seen(matchId).erasedVersions.push(revision);
    },
    /** After every entry: erasures covered, and the API's answers against the log (one GET per match). */
    async finish(base: string) {
      for (const [matchId, match] of matches) {
        const uncovered = match.erasedVersions.filter((revision) => match.erasedAt === null || revision > match.erasedAt);
        if (uncovered.length > 0)
          throw new AuditFailure(
            `match ${matchId}: version(s) ${uncovered.join(', ')} answered as erased, ` +
              'but no MatchErased entry of the match covers them: an erasure the log does not record',
          );
        await checkServed(base, matchId, match);
      }
    },
  };
}

async function checkServed(base: string, matchId: string, match: MatchSeen) {
  const path = `/api/matches/${encodeURIComponent(matchId)}`;
  const res = await fetch(`${base}${path}`).catch((error: unknown) => {
    throw new AuditFailure(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (match.erasedAt !== null) {
    if (res.status !== 410) throw new AuditFailure(`match ${matchId}: erased in the log, but the API answers ${res.status}`);
    await res.body?.cancel();
    return;
  }
  if (res.status === 410) throw new AuditFailure(`match ${matchId}: the API answers 410, but the log records no erasure of it`);
  if (!res.ok) throw new AuditFailure(`match ${matchId}: GET /api/matches/${matchId} answered ${res.status}: the log holds it, the API does not serve it`);
  const answer: unknown = await res.json();
  const served = isRecord(answer) ? answer : {};
  if (match.protection !== null && served.protected !== (match.protection === 'protected'))
    throw new AuditFailure(`match ${matchId}: the API says protected ${String(served.protected)}, but its creation committed ${match.protection}`);
  if (match.latest !== null && served.revision === match.latest.revision && served.updatedAt !== match.latest.recordedAt)
    throw new AuditFailure(`match ${matchId}: the API says updated at ${String(served.updatedAt)}, but the log recorded ${match.latest.recordedAt}`);
}
