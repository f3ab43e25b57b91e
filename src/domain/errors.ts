/**
 * The few errors the service raises on purpose. The HTTP layer maps each code to one status
 * (src/http/errorHandling.ts); nothing matches on message text.
 */
export type DomainErrorCode = 'validation' | 'forbidden' | 'not_found' | 'gone' | 'conflict' | 'unsupported' | 'too_many_requests' | 'unavailable' | 'storage_full';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Seconds after which a retry may succeed (sent as Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('validation', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not_found', message);
/** The thing was there and was erased for good (an erased match). */
export const gone = (message: string) => new DomainError('gone', message);
/** What an erased match's page and API say. */
export const erasedNotice = (id: string, erasedAt: string) =>
  `match "${id}" was erased on ${erasedAt.slice(0, 10)}: its versions are gone for good; the transparency log keeps only their salted digests`;
export const conflict = (message: string) => new DomainError('conflict', message);
export const unavailable = (message: string) => new DomainError('unavailable', message);
export const unsupported = (message: string) => new DomainError('unsupported', message);
/** @public the storage_full code's error (507), for a store that is full or gone: issue 38 raises it. */
export const storageFull = (message: string) => new DomainError('storage_full', message);
export const tooManyRequests = (message: string, retryAfter?: number) => new DomainError('too_many_requests', message, retryAfter);
