const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i;

/**
 * A connection string fit for a log line or an error message: the password in its userinfo
 * (`scheme://user:password@host`) becomes `***`. Works on strings no URL parser accepts,
 * such as multi-host `esdb://a:2113,b:2113` and `mongodb://a,b/db` seed lists.
 */
export function redactUrl(raw: string): string {
  return raw.replace(USERINFO, (_match, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon === -1 ? `${scheme}${userinfo}@` : `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}

/** The password of a connection string, or null; for scrubbing it out of third-party messages. */
export function urlPassword(raw: string): string | null {
  const userinfo = USERINFO.exec(raw)?.[2];
  if (userinfo === undefined) return null;
  const colon = userinfo.indexOf(':');
  return colon === -1 || colon === userinfo.length - 1 ? null : userinfo.slice(colon + 1);
}
