import type { Projection } from './projection.js';
import { publicViewProjection } from './publicView.js';

/** Every projection of the service, in the order they are started. */
export const allProjections: Projection[] = [publicViewProjection];

/** Projections a write waits for before it is acknowledged (read-your-writes). */
export const readYourWritesProjections = [publicViewProjection.name];
