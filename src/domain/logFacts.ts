import type { MatchState } from './match.js';
import type { MatchEvent } from './matchEvents.js';

/**
 * What a transparency log entry commits of who could write (docs/auditing.md): for a version,
 * the match's protection, how it came and the token's part; for an erasure, who asked. Kept in
 * the event's metadata (EventMetadata.logFacts), so the entry is made again the same on a rebuild,
 * and absent on events written before entries committed it (their entries stay as they were).
 */
export interface LogFacts {
  protection?: 'protected' | 'unprotected';
  /** POST or PUT for a version; DELETE (the token's holder) or operator (matchlog erase) for an erasure. */
  via: 'POST' | 'PUT' | 'DELETE' | 'operator';
  /** For a version: the token was bound (a protected creation), matched (a protected replace), or none. */
  credential?: 'bound' | 'matched' | 'none';
}

/** A version's facts, from the event and the state it was decided on: a replace keeps the protection fixed at creation. */
export function versionFacts(event: MatchEvent, before: MatchState): LogFacts {
  if (event.type === 'MatchCreated') {
    const { protection, createdVia } = event.data;
    return { protection, via: createdVia, credential: protection === 'protected' ? 'bound' : 'none' };
  }
  const protection = before.exists ? before.protection : 'unprotected';
  return { protection, via: event.data.replacedVia, credential: protection === 'protected' ? 'matched' : 'none' };
}
