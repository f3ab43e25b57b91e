import { clubDashboardProjection } from './clubDashboard.js';
import { withErasure } from './historyErasure.js';
import { matchHistoryProjection } from './matchHistory.js';
import type { Projection } from './projection.js';
import { publicViewProjection } from './publicView.js';
import { syncStatusProjection } from './syncStatus.js';
import { transparencyLogProjection } from './transparencyLog.js';

/** Every projection of the service, in the order they are started. */
export const allProjections: Projection[] = [
  publicViewProjection,
  clubDashboardProjection,
  syncStatusProjection,
  withErasure(matchHistoryProjection),
  transparencyLogProjection,
];

/**
 * Projections a write waits for before it is acknowledged (read-your-writes): after a 2xx the
 * public page, and for a synced match the club dashboard and its Sync status, show the upload.
 * Only those its events change: an upload naming no club does not wait for the club's projections.
 */
export function readYourWritesProjections(eventTypes: readonly string[]): string[] {
  return allProjections
    .filter((projection) => projection.changedBy === undefined || projection.changedBy.some((type) => eventTypes.includes(type)))
    .map((projection) => projection.name);
}
