/**
 * The few errors the service raises on purpose. The HTTP layer maps each code to one status
 * (src/http/errorHandling.ts); nothing matches on message text.
 */
export type DomainErrorCode =
  | 'validation'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'conflict'
  | 'unsupported'
  | 'too_many_requests'
  | 'unavailable'
  | 'storage_full';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Seconds after which a retry may succeed (sent as Retry-After). */
    readonly retryAfter?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
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
export const unavailable = (message: string, retryAfter?: number) => new DomainError('unavailable', message, retryAfter);
export const unsupported = (message: string) => new DomainError('unsupported', message);
/** Seconds a client refused for lack of storage is asked to wait: space is freed by an operator, not in a moment. */
const STORAGE_RETRY_AFTER = 60;
/** The store refused a write: it is full, or its files are gone or read-only (`cause`: the store's own error). Nothing was stored. */
export const storageFull = (why: 'full' | 'unwritable', cause?: unknown) =>
  new DomainError(
    'storage_full',
    why === 'full'
      ? "the server's storage is full, so nothing was stored; retry later (the operator has been alerted in the log)"
      : 'the server cannot write to its storage (its data directory is missing or read-only), so nothing was stored; ' +
          'retry later (the operator has been alerted in the log)',
    STORAGE_RETRY_AFTER,
    { cause },
  );
export const tooManyRequests = (message: string, retryAfter?: number) => new DomainError('too_many_requests', message, retryAfter);
