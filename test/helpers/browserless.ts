import type { App } from '../../src/runtime/app.js';

/**
 * A form-posting client for the dashboard over app.inject: keeps cookies like a browser
 * (by name, path ignored) and reads the CSRF token from the last page.
 */
export function dashboardClient(app: App) {
  const jar = new Map<string, string>();
  let lastHtml = '';

  function remember(res: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) {
    for (const cookie of res.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  }
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  async function get(url: string) {
    const res = await app.inject({ method: 'GET', url, headers: { cookie: cookieHeader() } });
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
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    remember(res);
    if (res.headers['content-type']?.toString().startsWith('text/html')) lastHtml = res.body;
    return res;
  }

  return { get, post, csrf, jar };
}
