import { hkdfSync } from 'node:crypto';
import type { ExistingClub } from '../../domain/club.js';

/**
 * Dashboard sessions are stateless: a signed (HMAC-SHA256, @fastify/cookie), HttpOnly,
 * SameSite=Lax cookie saying which club's admin logged in, when, and until when. Any API
 * process with the same key accepts it. It ends when it expires, or when the admin logs out:
 * logout is an event in the club's stream, and sessions issued before it are refused.
 */
export const SESSION_COOKIE = 'matchlog_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const DASHBOARD_PATH = '/dashboard';

export interface Session {
  clubId: string;
  issuedAt: number;
  expiresAt: number;
}

export const sessionValue = (session: Session) => `v1.${session.clubId}.${session.issuedAt}.${session.expiresAt}`;

const VALUE = /^v1\.([0-9a-z]{16})\.(\d{13})\.(\d{13})$/;

function parseSessionValue(value: string): Session | null {
  const match = VALUE.exec(value);
  if (match === null) return null;
  const [, clubId = '', issuedAt, expiresAt] = match;
  return { clubId, issuedAt: Number(issuedAt), expiresAt: Number(expiresAt) };
}

/** A session counts while it has not expired and the admin has not logged out since it began. */
function sessionIsLive(session: Session, club: ExistingClub, now: number): boolean {
  if (now >= session.expiresAt || session.issuedAt > now + 60_000) return false;
  return club.sessionsEndedAt === null || session.issuedAt > Date.parse(club.sessionsEndedAt);
}

/** The cookie-signing key: SESSION_SECRET, else derived from the write-token key (HKDF, its own label). */
export function sessionKey(sessionSecret: string | null, writeTokenKey: Buffer): Buffer {
  if (sessionSecret !== null) return Buffer.from(sessionSecret, 'base64');
  return Buffer.from(hkdfSync('sha256', writeTokenKey, Buffer.alloc(0), 'matchlog dashboard session cookies v1', 32));
}

export interface SessionCookies {
  cookies: Record<string, string | undefined>;
  unsignCookie(value: string): { valid: boolean; value: string | null };
}

/** The club whose admin this request is signed in as, or null. */
export async function signedInClub(
  request: SessionCookies,
  loadClub: (clubId: string) => Promise<ExistingClub | null>,
  now = Date.now(),
): Promise<ExistingClub | null> {
  const raw = request.cookies[SESSION_COOKIE];
  if (raw === undefined || raw === '') return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  const session = parseSessionValue(unsigned.value);
  if (session === null) return null;
  const club = await loadClub(session.clubId);
  return club !== null && sessionIsLive(session, club, now) ? club : null;
}

export const sessionCookieOptions = (secure: boolean) => ({ path: DASHBOARD_PATH, httpOnly: true, sameSite: 'lax', secure, signed: true }) as const;
