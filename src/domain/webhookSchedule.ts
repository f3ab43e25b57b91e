/**
 * When a failed webhook delivery is tried again: the Standard Webhooks (Svix) schedule, after
 * the first attempt 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts over about 27.6 h).
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Each delay is moved by up to this fraction either way, so endpoints that failed together are not retried together. */
const RETRY_JITTER = 0.2;

/**
 * The wait before the next attempt once `failedAttempts` (≥ 1) attempts failed, or null when the
 * schedule is over. `scale` shrinks the schedule (WEBHOOK_RETRY_SCALE, for tests); `random` is in [0, 1).
 */
export function retryDelayMs(failedAttempts: number, scale: number, random: number): number | null {
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (1 + RETRY_JITTER * (2 * random - 1)));
}
