import { dashboardClient } from './browserless.js';
import { clubPayload } from './syncWorld.js';

/** A club signed up over `base`, with a team and an app key, and a way to upload its matches. */
export async function clubWithAppKey(base: string, email = 'admin@lakeside.test') {
  const client = dashboardClient(base);
  await client.get('/dashboard/signup');
  await client.post('/dashboard/signup', { clubName: 'Lakeside VC', email, password: 'correct horse battery' });
  await client.get('/dashboard/teams');
  await client.post('/dashboard/teams', { name: 'U14 Girls' });
  const teams = await client.get('/dashboard/teams');
  const teamId = /action="\/dashboard\/teams\/([0-9a-z]+)\/aliases"/.exec(teams.body)?.[1] ?? '';
  const connect = await client.get('/dashboard/connect');
  const clubId = /data-testid="club-id">([0-9a-z]{16})</.exec(connect.body)?.[1] ?? '';
  const issued = await client.post('/dashboard/connect/keys', { label: 'tablet' });
  const appKey = /value="(mlk_[^"]+)"/.exec(issued.body)?.[1] ?? '';
  return {
    client,
    /** The admin's cookies (session, CSRF), to sign a browser in. */
    jar: client.jar,
    clubId,
    teamId,
    /** Adds an endpoint; its secret, shown once, and its id. */
    async addEndpoint(url: string, events: string[]) {
      await client.get('/dashboard/connect/webhooks');
      const form = new URLSearchParams({ url, _csrf: client.csrf() });
      for (const event of events) form.append('events', event);
      const res = await fetch(`${base}/dashboard/connect/webhooks`, {
        method: 'POST',
        headers: { cookie: [...client.jar].map(([n, v]) => `${n}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const body = await res.text();
      return {
        status: res.status,
        body,
        secret: /value="(whsec_[^"]+)"/.exec(body)?.[1] ?? '',
        endpointId: /action="\/dashboard\/connect\/webhooks\/(ep_[A-Za-z0-9_-]+)\/rotate"/.exec(body)?.[1] ?? '',
      };
    },
    /** Uploads a version of a club's match: live unless `status` says otherwise, with the app key unless `withKey` is false, to `base` (a restarted server). */
    async upload(id: string, options: { status?: string; version?: number; withKey?: boolean; base?: string } = {}) {
      const payload = clubPayload(clubId, teamId, {
        id,
        edit: (body) => {
          body.status = options.status ?? 'live';
          body.venue = `Westbrook Sports Hall, court ${options.version ?? 1}`;
        },
      });
      const res = await fetch(`${options.base ?? base}/api/matches/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(options.withKey === false ? {} : { 'x-app-key': appKey ?? '' }) },
        body: payload,
      });
      const answer = await res.text();
      if (res.status >= 300) throw new Error(`upload ${id}: ${res.status} ${answer}`);
      return res.status;
    },
  };
}
