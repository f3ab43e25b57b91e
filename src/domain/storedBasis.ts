import type { DiffBasis } from './matchDiff.js';

/** A diff basis as its JSON text (JSON.stringify's). */
export type BasisText = string & { readonly __basisText: true };

/**
 * A diff basis as the matchHistory projection keeps it: the basis of a payload text of at least
 * BASIS_TEXT_FROM_CHARS characters as its JSON text, any other as itself. A large payload's basis
 * (1.3 MB for a 300 × 300 box score) is made on the helper thread (src/runtime/helperThread.ts):
 * as text it crosses, is stored and is handed back for the next version's diff without being
 * parsed or written out on the event loop (~110 ms of such a replace's). A live match's small
 * basis stays an object, which its next version is compared with in place. The form depends only
 * on the payload, so a rebuild stores what the write stored.
 */
export type StoredBasis = DiffBasis | BasisText;

/** Payload texts from this many characters on (HELPER_THREAD_BYTES' default) have their basis kept as text. */
export const BASIS_TEXT_FROM_CHARS = 256 * 1024;

export const basisText = (basis: StoredBasis): BasisText => (typeof basis === 'string' ? basis : (JSON.stringify(basis) as BasisText));

export const basisObject = (basis: StoredBasis): DiffBasis => (typeof basis === 'string' ? (JSON.parse(basis) as DiffBasis) : basis);

/** `basis`, of a payload text of `payloadChars` characters, in the form it is kept in. */
export const storedBasis = (payloadChars: number, basis: StoredBasis): StoredBasis =>
  payloadChars >= BASIS_TEXT_FROM_CHARS ? basisText(basis) : basisObject(basis);
