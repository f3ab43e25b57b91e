import type { App } from '../../src/runtime/app.js';

/** What the client reads of an answer, however it was sent. */
interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
  cookies: { name: string; value: string; maxAge?: number; expires?: Date }[];
  json: () => unknown;
}

type Send = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: string) => Promise<Answer>;

/** A Set-Cookie header's name, value and expiry attributes. */
function cookieOf(header: string): Answer['cookies'][number] {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  const cookie: Answer['cookies'][number] = { name: pair.slice(0, at), value: pair.slice(at + 1) };
  for (const attribute of attributes) {
    const [name = '', value = ''] = attribute.split('=');
    if (name.toLowerCase() === 'max-age') cookie.maxAge = Number(value);
    if (name.toLowerCase() === 'expires') cookie.expires = new Date(value);
  }
  return cookie;
}

/** Requests over app.inject. */
const injected =
  (app: App): Send =>
  async (method, url, headers, payload) => {
    const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    return { statusCode: res.statusCode, headers: res.headers, body: res.body, rawPayload: res.rawPayload, cookies: res.cookies, json: () => res.json() };
  };

/** Requests over a real socket to `base` (redirects not followed, as the inject client's are not). */
const overSocket =
  (base: string): Send =>
  async (method, url, headers, payload) => {
    const res = await fetch(`${base}${url}`, { method, headers, body: payload, redirect: 'manual' });
    const rawPayload = Buffer.from(await res.arrayBuffer());
    const body = rawPayload.toString('utf8');
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body,
      rawPayload,
      cookies: res.headers.getSetCookie().map(cookieOf),
      json: () => JSON.parse(body),
    };
  };

/**
 * A form-posting client for the dashboard, over app.inject or, given a listening server's base
 * URL, over a real socket: keeps cookies like a browser (by name, path ignored) and reads the
 * CSRF token from the last page.
 */
export function dashboardClient(target: App | string) {
  const send = typeof target === 'string' ? overSocket(target) : injected(target);
  const jar = new Map<string, string>();
  let lastHtml = '';

  function remember(res: Answer) {
    for (const cookie of res.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  }
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  async function get(url: string) {
    const res = await send('GET', url, { cookie: cookieHeader() });
    remember(res);
    if (res.headers['content-type']?.toString().startsWith('text/html')) lastHtml = res.body;
    return res;
  }

  function csrf(): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(lastHtml);
    if (match === null || match[1] === undefined) throw new Error('no CSRF token on the last page');
    return match[1];
  }

  async function post(url: string, form: Record<string, string>, options: { csrf?: string | null } = {}) {
    const fields = { ...form, ...(options.csrf === null ? {} : { _csrf: options.csrf ?? csrf() }) };
    const res = await send(
      'POST',
      url,
      { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(fields).toString(),
    );
    remember(res);
    if (res.headers['content-type']?.toString().startsWith('text/html')) lastHtml = res.body;
    return res;
  }

  return { get, post, csrf, jar };
}
