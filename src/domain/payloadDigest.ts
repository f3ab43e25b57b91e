import { createHash } from 'node:crypto';
import type { JsonText } from './jsonText.js';

/**
 * SHA-256 of a payload's UTF-8 text, named by its scheme: stored with each version, so an
 * upload can be told identical to the stored one without reading it back, and an auditor can
 * check a version's text against it.
 */
export const payloadDigest = (payload: JsonText) => `sha256:${createHash('sha256').update(payload).digest('base64url')}`;
