import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import type { Browser, Page } from 'playwright-core';
import { browserTest, checkAccessibility, cookieSession, launchChromium, screenshotDir } from '../helpers/browser.js';
import { publicClubWorld } from '../helpers/publicClub.js';
import { eventually, startWebhookReceiver } from '../helpers/webhookReceiver.js';

/** Every name, given name and family name of the U14 players (test/fixtures/u14-girls-match.json): at `initials` none may show. */
const FULL_NAMES = /Annalena|Brightwater|Sophia|Quellenberg|Mathilde|Okonkwo/;

const fixture = JSON.parse(readFileSync(new URL('../fixtures/u14-girls-match.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** Next Saturday, 10:00 UTC (a week ahead when today is Saturday). */
function nextSaturday(now = new Date()): Date {
  const day = new Date(now);
  day.setUTCHours(10, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + ((6 - day.getUTCDay() + 7) % 7 || 7));
  return day;
}

/** Reloads `page` until `ready` holds on it (the pages are cached per checkpoint: a new upload shows at the next render). */
async function reloadUntil(page: Page, what: string, ready: () => Promise<boolean>) {
  await eventually(what, async () => {
    await page.reload();
    return ready();
  });
}

/** The parent's phone: Chromium at 360 px. */
const phone = async (browser: Browser) => (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();

browserTest(
  "issue 61, Done when: U14 public with initials; a parent follows next Saturday's match on a phone and calendar, live to final; a signed webhook for each",
  async (t) => {
    const w = await publicClubWorld(t, { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.001' });
    const receiver = await startWebhookReceiver(t);
    const browser = await launchChromium(t);
    const shots = screenshotDir(t);

    // The club's scoring app has an app key, so its uploads sync into the club.
    await w.admin.get('/dashboard/connect');
    const appKey = /value="(mlk_[^"]+)"/.exec((await w.admin.post('/dashboard/connect/keys', { label: 'U14 tablet' })).body)?.[1] ?? '';
    t.match(appKey, /^mlk_/);

    // The club admin, in the dashboard: the club page on, the U14 team public with initials only, and the club website's endpoint.
    const adminContext = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      storageState: cookieSession(w.admin.jar, new URL(w.base).hostname),
    });
    const admin = await adminContext.newPage();
    await admin.goto(`${w.base}/dashboard/teams/public`);
    await admin.getByRole('button', { name: 'Switch the club page on' }).click();
    const u14Form = admin.locator('fieldset', { hasText: 'U14 Girls' });
    await u14Form.locator('input[name="publicPage"]').check();
    await u14Form.locator('select[name="privacy"]').selectOption('initials');
    await u14Form.locator('select[name="roster"]').selectOption('shown');
    await u14Form.getByRole('button', { name: 'Save U14 Girls' }).click();
    await admin.waitForLoadState();
    t.equal(await admin.locator('fieldset', { hasText: 'U14 Girls' }).locator('select[name="privacy"]').inputValue(), 'initials', 'saved: initials');
    await admin.goto(`${w.base}/dashboard/connect/webhooks`);
    await admin.locator('input[name="url"]').fill(receiver.url);
    for (const type of ['match.synced', 'match.changed', 'match.final']) await admin.locator(`input[name="events"][value="${type}"]`).check();
    await admin.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await admin.getByTestId('webhook-secret').inputValue();
    t.match(secret, /^whsec_/, 'the signing secret, shown once, goes into the club website');
    receiver.state.secrets = [secret];

    const saturday = nextSaturday();
    const matchId = 'u14-saturday';
    const upload = (fields: Record<string, unknown>, method: 'POST' | 'PUT') =>
      w.uploadMatch(matchId, { startedAt: saturday.toISOString(), venue: 'Riverside Arena', ...fields }, method, { 'x-app-key': appKey });
    const home = (setsWon: number) => ({ ...(fixture.homeTeam as Record<string, unknown>), teamId: w.u14, setsWon });
    const away = (setsWon: number) => ({ ...(fixture.awayTeam as Record<string, unknown>), setsWon });
    const delivered = (count: number) =>
      eventually(`${count} webhook(s) delivered`, () => receiver.acknowledged().size === count && receiver.received.filter((r) => r.status < 300));
    const teamUrl = `${w.base}${w.clubPath}/u14-girls`;
    const matchUrl = `${w.base}/match/${matchId}`;
    const parent = await phone(browser);
    /** What the parent's phone shows (the page's HTML), checked for the players' full names. */
    const shownHtml = async (label: string) => t.notMatch(await parent.content(), FULL_NAMES, `${label}: no player's full, given or family name`);

    // 1. The match is announced: next Saturday, scheduled.
    t.equal(await upload({ status: 'scheduled', homeTeam: home(0), awayTeam: away(0), sets: [], actions: [] }, 'POST'), 201);
    const [announced] = await delivered(1);
    await parent.goto(teamUrl);
    const next = parent.locator('ul[aria-label="next matches"] li', { hasText: 'Riverside Rockets U14' });
    await reloadUntil(parent, 'the team page lists the match', () => next.isVisible());
    t.ok(await parent.locator('ul.roster li', { hasText: 'A. B.' }).first().isVisible(), 'the roster names #7 by her initials');
    await shownHtml('team page, announced');
    t.ok((await parent.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')) === true, 'no sideways scroll at 360 px');
    await parent.screenshot({ path: `${shots}/done-when-1-announced-360.png`, fullPage: true });

    // The parent subscribes to the team's calendar: the link on the page, read by ical.js.
    const calendarHref = (await parent.locator('a[href$="calendar.ics"]').first().getAttribute('href')) ?? '';
    const calendarText = await (await fetch(new URL(calendarHref, teamUrl))).text();
    t.notMatch(calendarText, FULL_NAMES, 'the calendar names no player');
    const events = new ICAL.Component(ICAL.parse(calendarText)).getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const event = events.find((e) => e.uid.startsWith(`${matchId}@`));
    t.equal(event?.startDate.toJSDate().toISOString(), saturday.toISOString(), "the calendar has next Saturday's match at its start time");
    t.equal(event?.location, 'Riverside Arena');
    t.match(event?.summary ?? '', /Lakeside VC U14 Girls vs Riverside Rockets U14/);
    await parent.goto(matchUrl);
    t.match(await parent.locator('main').innerText(), /Starts/, 'its match page says when it starts');

    // 2. Saturday: the match goes live.
    const live = {
      status: 'live',
      homeTeam: home(1),
      awayTeam: away(0),
      sets: [
        { set: 1, home: 25, away: 21 },
        { set: 2, home: 12, away: 9 },
      ],
    };
    t.equal(await upload({ ...live, actions: [] }, 'PUT'), 200);
    await delivered(2);
    await parent.goto(teamUrl);
    await reloadUntil(parent, 'the team page marks it live', () => parent.locator('li.fixture.live .badge.live').isVisible());
    await shownHtml('team page, live');
    await parent.screenshot({ path: `${shots}/done-when-2-live-team-360.png`, fullPage: true });
    await parent.goto(matchUrl);
    t.match(await parent.locator('main').innerText(), /live/i, 'the match page shows it live');
    t.ok(await parent.getByText('A. B.').first().isVisible(), 'its players by initials');
    await shownHtml('match page, live');
    await parent.screenshot({ path: `${shots}/done-when-2-live-match-360.png`, fullPage: true });

    // 3. The final whistle.
    t.equal(await upload({ status: 'final', homeTeam: home(3), awayTeam: away(1), sets: fixture.sets, actions: fixture.actions }, 'PUT'), 200);
    const all = await delivered(3);
    await parent.goto(teamUrl);
    const result = parent.locator(`ul[aria-label="results"] a[href="/match/${matchId}"]`);
    await reloadUntil(parent, 'the team page lists the result', () => result.isVisible());
    t.notOk(await parent.locator('li.fixture.live .badge.live').isVisible(), 'no longer live');
    await shownHtml('team page, final');
    await parent.screenshot({ path: `${shots}/done-when-3-final-team-360.png`, fullPage: true });
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await wide.newPage();
    await desk.goto(teamUrl);
    t.ok(await desk.locator(`ul[aria-label="results"] a[href="/match/${matchId}"]`).isVisible(), 'at 1280 px too');
    await desk.screenshot({ path: `${shots}/done-when-3-final-team-1280.png`, fullPage: true });
    await wide.close();
    await result.click();
    await parent.waitForURL(/\/match\/u14-saturday$/);
    t.match(await parent.locator('main').innerText(), /3\s*[-–:]\s*1|Final/i, 'the match page shows the final result');
    await shownHtml('match page, final');
    await parent.screenshot({ path: `${shots}/done-when-3-final-match-360.png`, fullPage: true });
    const api = await (await fetch(`${w.base}/api/matches/${matchId}`)).text();
    t.notMatch(api, FULL_NAMES, "the API's anonymous read names no player either");
    const club = await (await fetch(`${w.base}${w.clubPath}`)).text();
    t.notMatch(club, FULL_NAMES, 'nor the club page');

    // The club website's endpoint: one signed webhook per step, verified with standardwebhooks.
    const types = all.map((r) => (JSON.parse(r.body) as { type: string }).type);
    t.same(types, ['match.synced', 'match.changed', 'match.final'], 'announced, live, final');
    t.ok(
      all.every((r) => r.verified),
      'each verifies with the secret the admin copied',
    );
    t.notMatch(all.map((r) => r.body).join('\n'), FULL_NAMES, 'no webhook names a player');
    const finalBody = JSON.parse(all[2]?.body ?? '{}') as { data: Record<string, unknown> };
    t.same([finalBody.data.matchId, finalBody.data.status, finalBody.data.teamId], [matchId, 'final', w.u14]);
    t.not(announced?.id, all[2]?.id, 'a webhook-id per event');

    // The delivery log, as the admin sees it after the match.
    await admin.goto(`${w.base}/dashboard/connect/webhooks`);
    await admin.locator('a[href^="/dashboard/connect/webhooks/ep_"]').first().click();
    t.equal(await admin.locator('[data-state="delivered"]').count(), 3, 'three delivered in the delivery log');
    await admin.screenshot({ path: `${shots}/done-when-4-deliveries-1280.png`, fullPage: true });
    await checkAccessibility(t, browser, teamUrl, 'team page after the match');
  },
);
