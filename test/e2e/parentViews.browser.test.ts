import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { browserTest, launchChromium } from '../helpers/browser.js';
import { json, startTestApp } from '../helpers/testApp.js';

/** What a parent reads on a match page (issue 62, viewers): short names, cards, plays, box scores, live details. Each at 360 and 1280 px. */

const WIDTHS = [360, 1280] as const;
const now = () => new Date().toISOString();

const upload = async (base: string, id: string, body: object) => {
  const res = await fetch(`${base}/api/matches`, { method: 'POST', headers: json, body: JSON.stringify({ ...body, id }) });
  await res.text();
  return res.status;
};

async function open(browser: Browser, url: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
/** The texts of the elements that match a selector and show (not hidden, not clipped to 1 px for screen readers). */
const visibleTexts = (page: Page, selector: string) =>
  page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})]
      .filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 1)
      .map((e) => e.textContent.trim())`,
  ) as Promise<string[]>;

const football = () => ({
  sport: 'football',
  status: 'live',
  startedAt: now(),
  homeTeam: { name: 'TSV Holtensen', score: 2 },
  awayTeam: { name: 'SG Rosdorf', score: 1 },
  actions: [
    { period: 1, minute: 12, team: 'home', type: 'goal', playerName: 'Jonas Köhler', assist: 'Finn Weber', score: { home: 1, away: 0 } },
    { period: 1, minute: 30, team: 'away', type: 'yellow', playerName: 'Timo Brandt' },
    { period: 1, minute: 40, team: 'away', type: 'goal', playerName: 'Ole Schulz', penalty: true, score: { home: 1, away: 1 } },
    { period: 2, minute: 46, team: 'away', type: 'substitution', playerIn: 'Ole Schulz', playerOut: 'Timo Brandt' },
    { period: 2, minute: 58, team: 'home', type: 'goal', playerName: 'Jonas Köhler', subType: 'penalty', score: { home: 2, away: 1 } },
    { period: 2, minute: 61, team: 'away', type: 'second yellow', playerName: 'Timo Brandt' },
    { period: 2, minute: 63, team: 'home', type: 'substitution', playerIn: { name: 'Max Vogel' }, playerOut: { name: 'Finn Weber' } },
    { period: 2, minute: 70, team: 'home', type: 'booking', playerName: 'Lukas Meyer' },
  ],
});

browserTest('what a parent reads on a match page, at 360 and 1280 px (issue 62)', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);

  t.test('both sides get distinct, readable short names; whole names where they fit', async (t) => {
    const sets = [
      [25, 20],
      [22, 25],
      [25, 18],
      [25, 23],
    ];
    t.equal(
      await upload(base, 'owls', {
        sport: 'basketball',
        status: 'final',
        homeTeam: { name: 'Northgate Owls', score: 99 },
        awayTeam: { name: 'Northgate Comets', score: 85 },
        periods: [
          [20, 22],
          [25, 20],
          [30, 21],
          [24, 22],
        ],
        actions: [{ period: 1, clock: 'PT11M40.00S', team: 'home', actionType: '2pt', shotResult: 'Made', scoreHome: 2, scoreAway: 0 }],
      }),
      201,
    );
    const u18 = { sport: 'volleyball', status: 'final', sets };
    t.equal(
      await upload(base, 'u18', {
        ...u18,
        homeTeam: { name: 'SV Lengede-Vallstedt U18 A', setsWon: 3 },
        awayTeam: { name: 'SV Lengede-Vallstedt U18 B', setsWon: 1 },
      }),
      201,
    );
    t.equal(
      await upload(base, 'goettingen', {
        ...u18,
        homeTeam: { name: '1. FC Göttingen-Weende 05 e.V.', setsWon: 3 },
        awayTeam: { name: 'SV Lengede-Vallstedt U18 A', setsWon: 1 },
      }),
      201,
    );
    const expected: Record<string, [string, string, string, string]> = {
      owls: ['Owls', 'Comets', 'Northgate Owls', 'Northgate Comets'],
      u18: ['Lengede A', 'Lengede B', 'SV Lengede-Vallstedt U18 A', 'SV Lengede-Vallstedt U18 B'],
      goettingen: ['Göttingen', 'Lengede', '1. FC Göttingen-Weende 05 e.V.', 'SV Lengede-Vallstedt U18 A'],
    };
    for (const [id, [homeShort, awayShort, homeFull, awayFull]] of Object.entries(expected)) {
      for (const width of WIDTHS) {
        const page = await open(browser, `${base}/match/${id}`, width);
        const board = await visibleTexts(page, '.board .team .name, .board .team .short');
        const lineScore = await visibleTexts(page, '.line-score .team-cell .full, .line-score .team-cell .short');
        if (width === 360) {
          t.same(board, [homeShort, awayShort], `${id} at 360 px: the scoreboard reads ${homeShort} v ${awayShort}`);
          t.same(lineScore, [homeShort, awayShort], `${id} at 360 px: so does the line score`);
        } else {
          t.same(board, [homeFull, awayFull], `${id} at 1280 px: whole names on the scoreboard`);
          t.same(lineScore, [homeFull, awayFull], `${id} at 1280 px: and in the line score`);
        }
        if (id === 'owls') {
          const team = await visibleTexts(page, '.pbp .team-cell .full, .pbp .team-cell .short');
          t.same(team, [width === 360 ? 'Owls' : 'Northgate Owls'], `play-by-play at ${width} px names the side so`);
        }
        t.ok((await pageWidth(page)) <= width, `${id} at ${width} px: no sideways scroll`);
        await page.context().close();
      }
    }
  });

  t.test('football: a sending-off shows (11 v 10), cards from their type alone; plays say subs, assists and penalties', async (t) => {
    t.equal(await upload(base, 'kreisliga', football()), 201);
    for (const width of WIDTHS) {
      const page = await open(browser, `${base}/match/kreisliga`, width);
      const off = page.locator('.board .team.away .sent-off');
      t.ok(await off.isVisible(), `at ${width} px a red card shows beside the away side`);
      t.equal(await off.getAttribute('aria-label'), '1 player sent off');
      t.equal(await page.locator('.board .team.home .sent-off').count(), 0, 'none beside the home side');
      const away = await page.locator('.goals ul.events.away').innerText();
      t.match(away, /Second yellow card:\s*Brandt\s+61'/, 'the second yellow under the score');
      t.match(away, /Yellow card:\s*Brandt\s+30'/, 'the "yellow" type is a booking');
      t.match(await page.locator('.goals ul.events.home').innerText(), /Yellow card:\s*Meyer\s+70'/, '"booking" is a booking');
      t.match(await page.locator('.goals ul.events.home').innerText(), /Köhler\s+12', 58' \(pen\)/, 'a penalty is marked under the score');
      t.match(await page.locator('#pbp + p.hint').innerText(), /Earlier halves are folded/, 'halves, not "sets and periods"');
      await page.evaluate("document.querySelectorAll('details.play-by-play').forEach((d) => { d.open = true; })");
      const plays = await page.locator('.pbp td.what').allInnerTexts();
      for (const text of [
        'Substitution: Max Vogel on for Finn Weber',
        'Substitution: Ole Schulz on for Timo Brandt',
        'Goal (pen)',
        'Goal, assist: Finn Weber',
        'Second yellow card',
      ])
        t.ok(
          plays.some((p) => p.startsWith(text)),
          `at ${width} px the play-by-play reads "${text}"`,
        );
      t.ok((await pageWidth(page)) <= width, `at ${width} px: no sideways scroll`);
      await page.context().close();
    }
  });

  t.test('live: the basketball clock, fouls, bonus and timeouts; the football minute; volleyball set points, serve, timeouts, subs', async (t) => {
    const side = (name: string, tricode: string, score: number, fouls: number, bonus: string, timeouts: number) => ({
      teamName: name,
      teamCity: 'Riverside',
      teamTricode: tricode,
      score,
      inBonus: bonus,
      timeoutsRemaining: timeouts,
      statistics: { foulsTeam: fouls },
    });
    t.equal(
      await upload(base, 'nba-live', {
        sport: 'basketball',
        gameStatus: 2,
        gameStatusText: 'Q3 4:12',
        period: 3,
        gameClock: 'PT04M12.00S',
        gameTimeUTC: now(),
        homeTeam: side('Falcons', 'RIV', 61, 5, '1', 2),
        awayTeam: { ...side('Wolves', 'OHW', 58, 3, '0', 3), teamCity: 'Old Harbour' },
      }),
      201,
    );
    t.equal(await upload(base, 'fb-live', { ...football(), minute: 67 }), 201);
    t.equal(
      await upload(base, 'vb-live', {
        sport: 'volleyball',
        status: 'live',
        startedAt: now(),
        homeTeam: { name: 'Hillcrest Herons', setsWon: 1 },
        awayTeam: { name: 'Stonebridge Owls', setsWon: 1 },
        sets: [
          [25, 21],
          [19, 25],
          [14, 12],
        ],
        actions: [
          { set: 2, team: 'home', type: 'timeout' },
          { set: 3, team: 'away', skill: 'serve', evaluation: '+', score: { home: 13, away: 12 } },
          { set: 3, team: 'away', type: 'timeout', score: { home: 13, away: 12 } },
          { set: 3, team: 'away', type: 'substitution', playerIn: 'Mia Lang', playerOut: 'Ava Roth' },
          { set: 3, team: 'home', skill: 'attack', evaluation: '#', score: { home: 14, away: 12 } },
          { set: 3, team: 'home', skill: 'serve', evaluation: '+', score: { home: 14, away: 12 } },
        ],
      }),
      201,
    );
    for (const width of WIDTHS) {
      let page = await open(browser, `${base}/match/nba-live`, width);
      t.equal(await page.locator('.scoreboard .badge').innerText(), 'LIVE · Q3 · 4:12', `at ${width} px the badge has the game clock`);
      t.same(await page.locator('.live-facts ul.home li').allInnerTexts(), ['Fouls 5', 'Bonus', '2 timeouts left'], 'home: team fouls, bonus, timeouts');
      t.same(await page.locator('.live-facts ul.away li').allInnerTexts(), ['Fouls 3', '3 timeouts left'], 'away: not in the bonus');
      t.ok((await pageWidth(page)) <= width, 'no sideways scroll');
      await page.context().close();

      page = await open(browser, `${base}/match/fb-live`, width);
      t.equal(await page.locator('.scoreboard .badge').innerText(), "LIVE · 2ND HALF · 67'", `at ${width} px football's badge has the minute`);
      await page.context().close();

      page = await open(browser, `${base}/match/vb-live`, width);
      const points = page.locator('[data-testid=set-points]');
      t.equal((await points.innerText()).replace(/\s+/g, ''), '14:12', `at ${width} px the current set's points`);
      const size = (selector: string) =>
        page.evaluate(`parseFloat(getComputedStyle(document.querySelector(${JSON.stringify(selector)})).fontSize)`) as Promise<number>;
      t.ok((await size('[data-testid=set-points]')) >= 1.5 * (await size('.sets-inline span')), 'in large type, not small under the set count');
      t.same(await page.locator('.live-facts ul.home li').allInnerTexts(), ['Serving'], 'the home side serves (the last serve)');
      t.same(await page.locator('.live-facts ul.away li').allInnerTexts(), ['1 timeout', '1 sub'], "this set's timeouts and subs, not set 2's");
      t.ok((await pageWidth(page)) <= width, 'no sideways scroll');
      await page.context().close();
    }
  });

  t.test("basketball box score: DNP and inactive players say so, the feed's order, every column in view at 1280 px", async (t) => {
    const line = (i: number) => ({
      minutes: 'PT34M12.00S',
      points: '112',
      fieldGoalsMade: '14',
      fieldGoalsAttempted: '25',
      threePointersMade: '10',
      threePointersAttempted: '15',
      freeThrowsMade: '10',
      freeThrowsAttempted: '12',
      reboundsOffensive: '10',
      reboundsDefensive: '13',
      reboundsTotal: '23',
      assists: '11',
      steals: '2',
      blocks: '3',
      turnovers: '4',
      foulsPersonal: '5',
      plusMinusPoints: `-${10 + i}.0`,
    });
    const names = [
      'Shai Gilgeous-Alexander',
      'Giannis Antetokounmpo',
      'Karl-Anthony Towns',
      'Jaren Jackson Jr.',
      'Nickeil Alexander-Walker',
      'Jonas Valančiūnas',
    ];
    const players = names.map((name, i) => ({
      personId: 100 + i,
      name,
      jerseyNum: String(40 - i * 5),
      position: ['PG', 'SG', 'SF', 'PF', 'C', ''][i],
      starter: i < 5 ? '1' : '0',
      order: i + 1,
      played: '1',
      statistics: line(i),
    }));
    const inactive = { personId: 200, name: 'Bench Player', jerseyNum: '0', starter: '0', order: 7, played: '0', notPlayingReason: 'INACTIVE_INJURY' };
    const coach = {
      personId: 201,
      name: 'Coach Choice',
      jerseyNum: '1',
      starter: '0',
      order: 8,
      played: '0',
      notPlayingReason: 'DNP_COACH',
      statistics: { points: '0' },
    };
    t.equal(
      await upload(base, 'nba-box', {
        sport: 'basketball',
        gameStatus: 3,
        gameStatusText: 'Final',
        homeTeam: { teamCity: 'Riverside', teamName: 'Falcons', score: 120, players: [...players, inactive, coach] },
        awayTeam: { teamCity: 'Old Harbour', teamName: 'Wolves', score: 110, players: [] },
      }),
      201,
    );
    for (const width of WIDTHS) {
      const page = await open(browser, `${base}/match/nba-box`, width);
      const rows = page.locator('.player-stats tbody tr:not(.group)');
      const starters = await page.locator('.player-stats tbody:not(.bench) th.player .name.full').allInnerTexts();
      t.same(starters, names.slice(0, 5), `at ${width} px starters in the feed's order (PG, SG, SF, PF, C), not by shirt`);
      t.equal(await rows.filter({ hasText: 'Bench Player' }).locator('td').innerText(), 'Inactive — injury', 'an inactive player says so');
      t.equal(await rows.filter({ hasText: 'Coach Choice' }).locator('td').innerText(), "DNP — coach's decision", 'a DNP says why, not a row of zeros');
      if (width === 1280) {
        const scroll = page.locator('.box .scroll').first();
        const over = await scroll.evaluate((e) => e.scrollWidth - e.clientWidth);
        t.ok(over <= 1, `at 1280 px the whole box (PF and +/− too) is in view: ${over} px over`);
        t.ok(await page.locator('.player-stats thead abbr[title="Plus-minus"], .player-stats thead th:last-child').last().isVisible(), '+/− shows');
      }
      t.ok((await pageWidth(page)) <= width, 'no sideways scroll of the page');
      await page.context().close();
    }
  });

  t.test('the embed fits the snippet\'s 400 px frame without embed.js, whatever the football match; a status alone is not "nothing known"', async (t) => {
    const worst = {
      sport: 'football',
      status: 'live',
      startedAt: now(),
      minute: 118,
      venue: 'Sportplatz an der Weende, Göttingen-Weende, Niedersachsen, Deutschland',
      competition: 'Kreisliga Göttingen-Osterode Staffel 2, Saison 2026/27',
      category: 'Herren Ü32 Reserve',
      homeTeam: { name: 'Sportgemeinschaft Göttingen-Weende-Nikolausberg 1905 e.V. Reserve', score: 8 },
      awayTeam: { name: 'Spielvereinigung Lengede-Vallstedt-Broistedt-Woltwiesche II', score: 7 },
      periods: [
        [2, 3],
        [4, 2],
        [1, 1],
        [1, 1],
      ],
      actions: Array.from({ length: 40 }, (_, i) => ({
        period: 1 + (i % 4),
        minute: 2 + i * 3,
        team: i % 2 ? 'away' : 'home',
        type: ['goal', 'yellow', 'second yellow', 'red', 'booking'][i % 5],
        playerName: `Maximilian-Alexander Papadopoulos-Schmidt${String.fromCharCode(65 + i)}`,
        penalty: i % 3 === 0,
      })),
    };
    t.equal(await upload(base, 'embed-worst', worst), 201);
    t.equal(await upload(base, 'embed-kreisliga', football()), 201);
    const host = createServer((request, response) => {
      const id = new URL(request.url ?? '/', 'http://host').searchParams.get('id');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><title>Club</title><body style="margin:0">` +
          `<iframe src="${base}/match/${id}/embed" title="Live score" width="360" height="400" style="border:0;max-width:100%"></iframe></body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => host.close(() => resolve())));
    const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    for (const width of WIDTHS) {
      for (const id of ['embed-worst', 'embed-kreisliga']) {
        const page = await open(browser, `${hostUrl}/?id=${id}`, width);
        await page.frameLocator('iframe').locator('.board').waitFor();
        const frame = page.frames().find((f) => f.url().includes('/embed'))!;
        const content = (await frame.evaluate(
          'Math.ceil(Math.max(document.body.scrollHeight, document.documentElement.getBoundingClientRect().height))',
        )) as number;
        t.ok(content <= 400, `${id} in a page ${width} px wide: the widget (${content} px) fits the 400 px frame`);
        t.ok(
          await page
            .frameLocator('iframe')
            .getByRole('link', { name: /Full match/ })
            .isVisible(),
          'its "Full match" link shows',
        );
        await page.context().close();
      }
    }

    // The README's own example: a status and a sport, nothing else.
    t.equal(await upload(base, 'readme-example', { sport: 'basketball', status: 'final' }), 201);
    for (const width of WIDTHS) {
      const page = await open(browser, `${base}/match/readme-example`, width);
      t.equal(await page.locator('.scoreboard .badge').innerText(), 'FINAL');
      t.equal(await page.getByText('none of its fields are ones matchlog knows').count(), 0, `at ${width} px: not "nothing known" under a badge it read`);
      t.ok(await page.getByText('Only its sport (basketball) and its status so far').isVisible(), 'it says what it read and what is missing');
      await page.context().close();
    }
  });
});
