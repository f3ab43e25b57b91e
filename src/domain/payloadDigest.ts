import { createHash } from 'node:crypto';
import type { JsonText } from './jsonText.js';

/**
 * SHA-256 of a payload's UTF-8 text, named by its scheme: stored with each version, so an
 * upload can be told identical to the stored one without reading it back, and an auditor can
 * check a version's text against it.
 */
export const payloadDigest = (payload: JsonText) => `sha256:${createHash('sha256').update(payload).digest('base64url')}`;

/** Bytes of a version's random salt (payloadSha256 below). */
export const PAYLOAD_SALT_BYTES = 16;

/**
 * What the transparency log commits to for a version: lower-case hex SHA-256 of its random salt
 * followed by the payload's exact UTF-8 bytes. With the salt erased, a guessed payload cannot
 * be confirmed against it. Versions stored before salts existed have an empty salt.
 */
export const saltedPayloadSha256 = (salt: Buffer, payload: string) => createHash('sha256').update(salt).update(payload).digest('hex');

/** A version's salt (base64) and salted digest, as a new MatchCreated / MatchReplaced carries them. */
export function saltedVersion(payload: JsonText, salt: Buffer): { payloadSalt: string; payloadSha256: string } {
  return { payloadSalt: salt.toString('base64'), payloadSha256: saltedPayloadSha256(salt, payload) };
}
