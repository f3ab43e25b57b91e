import { isKeyName, parseNoteSignerKey } from '../domain/signedNote.js';
import { ConfigError } from './configError.js';

type Env = Record<string, string | undefined>;

/**
 * LOG_ORIGIN and LOG_SIGNING_KEY (docs/auditing.md, docs/operations.md "The log's identity").
 * The origin is the signing key's name, fixed when the key is made: `logOrigin` is the name a key
 * made now gets (LOG_ORIGIN, else PUBLIC_BASE_URL's host with its scheme's default port dropped,
 * else `localhost`: never a port the process happened to listen on), and `logOriginSet` says
 * LOG_ORIGIN was given, so that a key named otherwise is refused rather than followed.
 * With LOG_SIGNING_KEY the origin is its name. Several API processes over a shared log must sign
 * with one key: give it to each.
 */
export function transparencyLogSettings(env: Env, publicBaseUrl: string) {
  const given = env.LOG_ORIGIN || null;
  if (given !== null && !isKeyName(given))
    throw new ConfigError('LOG_ORIGIN', `must be one line without spaces or "+" (it names the signing key too), got "${given}"`);
  const logSigningKey = env.LOG_SIGNING_KEY || null;
  let keyName: string | null = null;
  if (logSigningKey !== null) {
    try {
      keyName = parseNoteSignerKey(logSigningKey).name;
    } catch (error) {
      throw new ConfigError(
        'LOG_SIGNING_KEY',
        "must be a note signer key (PRIVATE+KEY+<name>+<hash>+<base64>, the format of DATA_DIR/log-signing.key and of Go's note.GenerateKey): " +
          (error instanceof Error ? error.message : String(error)),
      );
    }
  }
  if (given !== null && keyName !== null && given !== keyName) throw originConflict(given, keyName, 'LOG_SIGNING_KEY');
  const logOrigin = keyName ?? given ?? `${env.PUBLIC_BASE_URL ? new URL(publicBaseUrl).host : 'localhost'}/log`;
  return { logOrigin, logOriginSet: given !== null, logSigningKey };
}

/** The one line that refuses a LOG_ORIGIN other than the origin fixed with the key. */
export const originConflict = (given: string, fixed: string, key: string) =>
  new ConfigError(
    'LOG_ORIGIN',
    `is "${given}", but the log's origin is "${fixed}", fixed with its signing key (${key}): unset LOG_ORIGIN or set it to "${fixed}"; ` +
      'a new origin is a new log with a new key (docs/operations.md, "The log\'s identity")',
  );
