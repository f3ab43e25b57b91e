import { type Credentials, EventStoreDBClient } from '@eventstore/db-client';
import { redactUrl, urlPassword } from '../platform/redactUrl.js';
import type { EsdbClient } from './esdbClient.js';

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
function checkConnectionString(url: string): Map<string, string> {
  const query = url.split('?')[1] ?? '';
  const options = new Map<string, string>();
  for (const pair of query.split('&').filter(Boolean)) {
    const [rawKey = '', rawValue = ''] = pair.split('=');
    const key = rawKey.trim().toLowerCase();
    const value = rawValue.trim().toLowerCase();
    if (!KNOWN_OPTIONS.has(key)) throw new Error(`EVENT_STORE_URL has an unknown option "${rawKey}" (${redactUrl(url)})`);
    // The client ignores it (and says so on stderr); certificates are trusted with tlsCAFile instead.
    if (key === 'tlsverifycert' && value === 'false') throw new Error('EVENT_STORE_URL: tlsVerifyCert=false is not supported by the client; pass tlsCAFile');
    // Without throwing, the client misreports the current revision of batch appends that conflict.
    if (key === 'throwonappendfailure' && value === 'false') throw new Error('EVENT_STORE_URL: throwOnAppendFailure=false is not supported');
    options.set(key, value);
  }
  return options;
}

/** The client's own default for calls that do not set a deadline. */
const CLIENT_DEFAULT_DEADLINE_MS = 10_000;

export interface EsdbConnection {
  client: EsdbClient;
  /**
   * Given with every append: per-call credentials make 6.2.1 take the unary Append, never its
   * batch append (whose promises are shared by every client of the process; see docs/decisions.md).
   * The URL's own; over an insecure channel the client sends none, so any do.
   */
  appendCredentials: Credentials;
  /** The URL's `defaultDeadline` (the client's 10 s without it): appends and reads are bounded by it. */
  deadlineMs: number;
}

/** A client for an `esdb://` / `esdb+discover://` URL; errors never repeat its password. */
export function connectEsdb(url: string): EsdbConnection {
  const options = checkConnectionString(url);
  const credentials = urlCredentials(url);
  // The client's default is TLS: only `tls=false` is insecure.
  if (credentials === null && options.get('tls') !== 'false') {
    throw new Error(`EVENT_STORE_URL with TLS must carry user:password: appends send them with each call (${redactUrl(url)})`);
  }
  const deadline = Number(options.get('defaultdeadline') ?? CLIENT_DEFAULT_DEADLINE_MS);
  if (!Number.isSafeInteger(deadline) || deadline <= 0) throw new Error('EVENT_STORE_URL: defaultDeadline must be a positive whole number of milliseconds');
  try {
    const client: EsdbClient = EventStoreDBClient.connectionString(url);
    return { client, appendCredentials: credentials ?? { username: '', password: '' }, deadlineMs: deadline };
  } catch (error) {
    const password = urlPassword(url);
    const message = error instanceof Error ? error.message : String(error);
    const safe = password === null ? message : message.split(password).join('***');
    throw new Error(`EVENT_STORE_URL is not a valid EventStoreDB connection string: ${safe}`);
  }
}

/** The user and password of a connection string, decoded as the client decodes them. */
function urlCredentials(url: string): Credentials | null {
  const userinfo = /^[a-z+]+:\/\/([^@/?#]*)@/i.exec(url)?.[1];
  const colon = userinfo?.indexOf(':') ?? -1;
  if (userinfo === undefined || colon <= 0) return null;
  return { username: decodeURIComponent(userinfo.slice(0, colon)), password: decodeURIComponent(userinfo.slice(colon + 1)) };
}
