/** The flags node runs the server with, for a machine of `cores` (./node-flags.mjs). */
export function serverNodeFlags(cores?: number): string[];
