import { clubDashboardProjection } from './clubDashboard.js';
import type { Projection } from './projection.js';
import { publicViewProjection } from './publicView.js';
import { syncStatusProjection } from './syncStatus.js';

/** Every projection of the service, in the order they are started. */
export const allProjections: Projection[] = [publicViewProjection, clubDashboardProjection, syncStatusProjection];

/**
 * Projections a write waits for before it is acknowledged (read-your-writes): after a 2xx the
 * public page, and for a synced match the club dashboard and its Sync status, show the upload.
 */
export const readYourWritesProjections = [publicViewProjection.name, clubDashboardProjection.name, syncStatusProjection.name];
