import { type AllowedAddresses, allowedAddresses } from '../domain/webhookAddress.js';
import { ConfigError } from './configError.js';

/** The webhooks' limits (docs/limits.md, docs/operations.md). */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: addresses and ranges webhooks may reach although loopback or private. */
  allowPrivate: string[];
  allowed: AllowedAddresses;
  /** WEBHOOK_TIMEOUT_MS: the longest one attempt takes. */
  timeoutMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries in flight at once. */
  concurrency: number;
  /** WEBHOOK_MAX_ENDPOINTS: endpoints per club. */
  maxEndpointsPerClub: number;
  /** WEBHOOK_RETRY_SCALE: the retry schedule multiplied by it (tests shrink it). */
  retryScale: number;
  /** WEBHOOK_SECRET_OVERLAP_MS: after a rotation, the old secret signs beside the new one this long. */
  secretOverlapMs: number;
}

type Env = Record<string, string | undefined>;

function bounded(env: Env, name: string, fallback: number, min: number, max: number, integer = true): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new ConfigError(name, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function webhookSettings(env: Env): { webhooks: WebhookSettings } {
  const allowPrivate = (env.WEBHOOK_ALLOW_PRIVATE ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  const allowed = allowedAddresses(allowPrivate);
  if ('invalid' in allowed) {
    throw new ConfigError(
      'WEBHOOK_ALLOW_PRIVATE',
      `must be addresses or CIDR ranges separated by commas (127.0.0.1,::1,10.0.0.0/8); "${allowed.invalid}" is not one`,
    );
  }
  return {
    webhooks: {
      allowPrivate,
      allowed,
      timeoutMs: bounded(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      concurrency: bounded(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
      maxEndpointsPerClub: bounded(env, 'WEBHOOK_MAX_ENDPOINTS', 5, 1, 100),
      retryScale: bounded(env, 'WEBHOOK_RETRY_SCALE', 1, 0.00001, 1, false),
      secretOverlapMs: bounded(env, 'WEBHOOK_SECRET_OVERLAP_MS', 24 * 3_600_000, 0, 30 * 24 * 3_600_000),
    },
  };
}
