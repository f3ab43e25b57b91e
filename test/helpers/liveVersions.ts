import { createHash } from 'node:crypto';
import type { NewEvent } from '../../src/eventstore/eventStore.js';

/**
 * Version `revision` of a growing match, the same in every process: a score and stats near the
 * top, one more action at the end, as a live scoring app re-uploads it (~4 KB + 120 B a version).
 */
export function liveVersion(revision: number): NewEvent {
  const actions = Array.from({ length: revision + 20 }, (_, i) => ({
    seq: i,
    team: i % 3 ? 'home' : 'away',
    skill: ['serve', 'attack', 'block'][i % 3],
    note: i % 7 ? '' : 'Zoë ⚽',
  }));
  const payload = JSON.stringify({
    score: { home: revision >> 1, away: revision - (revision >> 1) },
    stats: Array.from({ length: 12 }, (_, p) => ({ p, kills: (revision * (p + 1)) % 17 })),
    actions,
  });
  const id = createHash('sha256').update(`crash-${revision}`).digest('hex');
  return {
    id: `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}`,
    type: revision === 0 ? 'MatchCreated' : 'MatchReplaced',
    data: `{"schemaVersion":1,"revision":${revision},"payload":${payload}}`,
    metadata: { schemaVersion: 1 },
  };
}
