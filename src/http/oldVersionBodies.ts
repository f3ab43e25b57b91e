import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventStore } from '../eventstore/eventStore.js';
import type { MatchAtRevision } from '../history/historyQueries.js';
import { cachedBody, type RenderedBody, type RenderedCache } from './renderedPages.js';
import { type KeyVariant, renderedKeys } from './renderedKeys.js';

/**
 * How long clients and shared caches may keep an old version's answer without asking again: a
 * stored version never changes, but an erasure must reach caches too; after one, the operator
 * purges a CDN in front of the service (docs/decisions.md: old revisions are immutable).
 */
const OLD_VERSION_MAX_AGE_SECONDS = 86_400;

/**
 * The kept body of the version that `revision` of match `id` resolves to, with that version's
 * revision; when it is not kept, the match is read from the log at `revision` (bounded per
 * client address: cache.oldVersions) and `make` makes the body from it. A second request for the
 * same revision reads nothing from the log.
 */
export async function oldVersionBody(
  request: FastifyRequest,
  { cache, eventStore }: { cache: RenderedCache; eventStore: Pick<EventStore, 'readStream'> },
  kind: 'api' | 'page',
  id: string,
  revision: number,
  /** What else the body depends on (a team's privacy, the host a page was opened by). */
  variant: KeyVariant,
  make: (old: MatchAtRevision) => Promise<RenderedBody> | RenderedBody,
): Promise<{ body: RenderedBody; version: number }> {
  const read = () => cache.oldVersions.read(eventStore, request.ip, id, revision);
  const known = cache.oldVersions.resolvedVersion(id, revision);
  if (known !== undefined) {
    return { body: await cachedBody(request, cache, renderedKeys.oldVersion(kind, id, known, variant), async () => make(await read())), version: known };
  }
  const old = await read();
  return {
    body: await cachedBody(request, cache, renderedKeys.oldVersion(kind, id, old.version.revision, variant), () => make(old)),
    version: old.version.revision,
  };
}

/**
 * An old version's answer depends on nothing but its version, so it never changes: once a later
 * version exists (`version` below `currentRevision`), caches may keep it (`immutable`); the current
 * version asked by its revision is revalidated, its ETag unchanged when a later upload comes. An answer
 * shown through a team's privacy (`revalidate`) is revalidated too: the club may change the setting.
 */
export function oldVersionCaching(reply: FastifyReply, version: number, currentRevision: number, revalidate = false) {
  reply.header('cache-control', version < currentRevision && !revalidate ? `public, max-age=${OLD_VERSION_MAX_AGE_SECONDS}, immutable` : 'no-cache');
}
