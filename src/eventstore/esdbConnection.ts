import { EventStoreDBClient } from '@eventstore/db-client';
import { redactUrl, urlPassword } from '../platform/redactUrl.js';

/** Connection-string options of @eventstore/db-client 6 (lower case, as it compares them). */
const KNOWN_OPTIONS = new Set(
  [
    'connectionName',
    'maxDiscoverAttempts',
    'discoveryInterval',
    'gossipTimeout',
    'nodePreference',
    'tls',
    'tlsVerifyCert',
    'tlsCAFile',
    'userCertFile',
    'userKeyFile',
    'defaultDeadline',
    'keepAliveInterval',
    'keepAliveTimeout',
    'throwOnAppendFailure',
  ].map((key) => key.toLowerCase()),
);

/**
 * Checks the connection string before the client sees it: the client prints the whole string,
 * password included, to stderr for an unknown option, and puts it in its parse errors.
 */
function checkConnectionString(url: string): void {
  const query = url.split('?')[1] ?? '';
  for (const pair of query.split('&').filter(Boolean)) {
    const [rawKey = '', rawValue = ''] = pair.split('=');
    const key = rawKey.trim().toLowerCase();
    const value = rawValue.trim().toLowerCase();
    if (!KNOWN_OPTIONS.has(key)) throw new Error(`EVENT_STORE_URL has an unknown option "${rawKey}" (${redactUrl(url)})`);
    // The client ignores it (and says so on stderr); certificates are trusted with tlsCAFile instead.
    if (key === 'tlsverifycert' && value === 'false') throw new Error('EVENT_STORE_URL: tlsVerifyCert=false is not supported by the client; pass tlsCAFile');
    // Without throwing, the client misreports the current revision of batch appends that conflict.
    if (key === 'throwonappendfailure' && value === 'false') throw new Error('EVENT_STORE_URL: throwOnAppendFailure=false is not supported');
  }
}

/** A client for an `esdb://` / `esdb+discover://` URL; errors never repeat its password. */
export function connectEsdb(url: string): EventStoreDBClient {
  checkConnectionString(url);
  try {
    return EventStoreDBClient.connectionString(url);
  } catch (error) {
    const password = urlPassword(url);
    const message = error instanceof Error ? error.message : String(error);
    const safe = password === null ? message : message.split(password).join('***');
    throw new Error(`EVENT_STORE_URL is not a valid EventStoreDB connection string: ${safe}`);
  }
}
