import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Club admin passwords, hashed with scrypt (memory-hard: N=2^15, r=8, p=1, about 32 MiB and
 * tens of milliseconds per hash). The stored form names its parameters, so they can be raised
 * later while old hashes still verify:
 * `scrypt$ln=15,r=8,p=1$<salt base64url>$<hash base64url>`.
 */
export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;
const PASSWORD_RULE = `a password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`;

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    // NFKC: the same password typed on different keyboards gives the same bytes.
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  return length < PASSWORD_MIN || length > PASSWORD_MAX ? PASSWORD_RULE : null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return `scrypt$ln=${LOG_N},r=${R},p=${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const STORED = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** True when `password` is the one `stored` was made from; compares in constant time. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (match === null) return false;
  const [, logN, r, p, salt = '', hash = ''] = match;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash to verify against when there is no account, so that the answer takes as long. */
export const UNUSED_PASSWORD_HASH = `scrypt$ln=${LOG_N},r=${R},p=${P}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
