/** A value read from JSON (or thrown, or configured) that is an object with named members: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
