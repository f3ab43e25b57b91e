import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { Test } from 'tap';
import { browserTest, checkAccessibility, launchChromium, screenshotDir } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

const localFixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const upload = async (base: string, id: string, body: object, method: 'POST' | 'PUT' = 'POST') => {
  const res = await fetch(`${base}/api/matches${method === 'PUT' ? `/${id}` : ''}`, {
    method,
    headers: json,
    body: JSON.stringify(method === 'POST' ? { ...body, id } : body),
  });
  await res.text();
  return res.status;
};

async function open(browser: Browser, url: string, width: number, dark = false, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: dark ? 'dark' : 'light' });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

/** Screenshots of a page at 360 and 1280 px, light and dark, each checked for sideways scroll. */
async function shoot(t: Test, browser: Browser, url: string, name: string, dir: string) {
  for (const width of [360, 1280]) {
    for (const dark of [false, true]) {
      const page = await open(browser, url, width, dark, width === 360 ? 800 : 1000);
      t.ok((await pageWidth(page)) <= width, `${name} at ${width} px ${dark ? 'dark' : 'light'}: no sideways scroll`);
      await page.screenshot({ path: `${dir}/${name}-${width}-${dark ? 'dark' : 'light'}.png` });
      if (width === 360 && (await page.locator('#box').count()) > 0) {
        await page.evaluate("document.getElementById('box').scrollIntoView()");
        await page.screenshot({ path: `${dir}/${name}-${width}-${dark ? 'dark' : 'light'}-stats.png` });
      }
      await page.context().close();
    }
  }
}

/** Words of the play-by-play broken across lines ("Reboun|d"): each word's text should lie on one line box. */
const brokenWords = (page: Page) =>
  page.evaluate(`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll('details[open] .pbp td.what')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const re = /\\S+/g;
        for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1 && !m[0].includes('-')) broken.push(m[0]);
        }
      }
    }
    return broken;
  })()`) as Promise<string[]>;

browserTest('viewer pages in Chromium: history timeline, self-sizing embed, match states, football, basketball, real feeds', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchChromium(t);
  const shots = screenshotDir(t);

  // A volleyball match scored live, then finished: a history of several versions.
  const vb = fixture({ seed: 7, id: 'vb-history' }) as Record<string, unknown> & { homeTeam: { name: string; setsWon: number } };
  t.equal(await upload(base, 'vb-history', { ...vb, status: 'in_progress', homeTeam: { ...vb.homeTeam, name: 'Hillcrest Community Volleyball Club' } }), 201);
  for (let i = 1; i <= 4; i += 1) {
    const status = i === 4 ? 'final' : 'in_progress';
    t.equal(
      await upload(
        base,
        'vb-history',
        { ...vb, status, homeTeam: { ...vb.homeTeam, name: i >= 2 ? 'Hillcrest Herons' : 'Hillcrest Community Volleyball Club', setsWon: Math.min(i, 3) } },
        'PUT',
      ),
      200,
    );
  }

  t.test('the history page is a timeline of cards: nothing off-screen, no blank bands, readable times', async (t) => {
    for (const width of [360, 1280]) {
      const page = await open(browser, `${base}/match/vb-history/history`, width);
      t.ok((await pageWidth(page)) <= width, `no sideways scroll at ${width} px`);
      const cards = page.locator('ol.timeline > li');
      t.equal(await cards.count(), 5, 'one card per version');
      for (let i = 0; i < 5; i += 1) {
        const box = await cards.nth(i).boundingBox();
        // Blank space in a card: its height less what its parts take.
        const blank = (await page.evaluate(
          `(() => {
            const card = document.querySelectorAll('ol.timeline > li')[${i}];
            return card.getBoundingClientRect().height - [...card.children].reduce((sum, c) => sum + c.getBoundingClientRect().height, 0);
          })()`,
        )) as number;
        t.ok(
          box !== null && box.x + box.width <= width && blank < 40,
          `card ${i} on screen, ${Math.round(box?.height ?? 0)} px tall with ${Math.round(blank)} px not text`,
        );
      }
      const change = await page.locator('ul.changes', { hasText: 'home team renamed' }).first().boundingBox();
      t.ok(change !== null && change.x >= 0 && change.x + change.width <= width, 'what changed is on screen');
      const times = await page.locator('ol.timeline time').allInnerTexts();
      t.notOk(
        times.some((time) => /\d{4}-\d\d-\d\dT\d\d:\d\d/.test(time)),
        `times read as dates, not raw ISO (${times[0]})`,
      );
      await page.context().close();
    }
    const noScript = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${base}/match/vb-history/history`);
    t.match(await plain.locator('ol.timeline time').first().innerText(), /^\w{3}, \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/, 'without script: a readable UTC time');
    t.match(
      await plain.locator('ol.timeline time').first().getAttribute('datetime'),
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
      'the exact instant in datetime',
    );
    await noScript.close();
    await checkAccessibility(t, browser, `${base}/match/vb-history/history`, 'history page');
    await shoot(t, browser, `${base}/match/vb-history/history`, 'history', shots);
  });

  t.test('a final match has no live marker; an old revision of it is never live', async (t) => {
    const page = await open(browser, `${base}/match/vb-history`, 1280);
    t.equal(await page.locator('.scoreboard .badge').innerText(), 'FINAL');
    await page.locator('.live-state', { hasText: 'Any change appears here by itself.' }).waitFor({ timeout: 60_000 });
    t.equal(await page.locator('.dot-live').count(), 0, 'no live dot');
    t.notMatch((await page.locator('.livebar, .scoreboard').allInnerTexts()).join(' '), /\bLive\b/i, 'no "Live" in the bar or on the scoreboard');
    await page.goto(`${base}/match/vb-history?revision=1`);
    t.match(await page.locator('.scoreboard .badge').innerText(), /^IN PLAY THEN · SET \d$/, 'an in-progress revision is "then", not live');
    t.equal(await page.locator('.livebar, .badge.live').count(), 0, 'no live bar, no live badge');
    await page.context().close();
    await checkAccessibility(t, browser, `${base}/match/vb-history?revision=1`, 'old revision');
    await shoot(t, browser, `${base}/match/vb-history?revision=1`, 'match-old-revision', shots);
  });

  t.test('the embed in a cross-origin frame of the snippet’s size: nothing cut, and the snippet’s script sizes it', async (t) => {
    t.equal(await upload(base, 'fb-long', localFixture('football-long-names.json')), 201);
    const matchPage = await open(browser, `${base}/match/vb-history`, 1280);
    const snippet = ((await matchPage.locator('.share pre code').textContent()) ?? '').replaceAll('http://matchlog.test', base);
    await matchPage.context().close();
    t.match(
      snippet,
      /<iframe [^>]*width="360" height="(\d+)"[^>]*><\/iframe>\s*<script src="[^"]+\/assets\/embed\.js" async><\/script>/,
      'the snippet: a frame and its sizing script',
    );
    const frameHeight = Number(/height="(\d+)"/.exec(snippet)?.[1]);
    const host = createServer((request, response) => {
      const withScript = !(request.url ?? '').startsWith('/bare');
      const id = new URL(request.url ?? '/', 'http://host').searchParams.get('id') ?? 'vb-history';
      const code = snippet.replace(/\/match\/[^/]+\/embed/, `/match/${id}/embed`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><title>Club site</title><body style="margin:0"><h1>Our club</h1>` +
          `${withScript ? code : code.replace(/<script[^>]*><\/script>/, '')}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => host.close(() => resolve())));
    const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    t.not(new URL(hostUrl).origin, new URL(base).origin, 'the host page is another origin');

    const context = await browser.newContext({ viewport: { width: 400, height: 900 } });
    const page = await context.newPage();
    const longNames = {
      ...vb,
      status: 'in_progress',
      sets: [
        [25, 20],
        [19, 25],
        [25, 23],
        [22, 25],
        [15, 13],
      ],
      homeTeam: { name: 'Hillcrest Community Volleyball Club Ladies', setsWon: 3 },
      awayTeam: { name: 'Stonebridge Municipal Sports Association', setsWon: 2 },
    };
    t.equal(await upload(base, 'vb-long', longNames), 201);
    for (const id of ['vb-history', 'vb-long', 'fb-long']) {
      await page.goto(`${hostUrl}/bare?id=${id}`);
      await page.frameLocator('iframe').locator('.board').waitFor();
      const bare = page.frames().find((f) => f.url().includes('/embed'))!;
      const content = (await bare.evaluate(
        'Math.ceil(Math.max(document.body.scrollHeight, document.documentElement.getBoundingClientRect().height))',
      )) as number;
      t.ok(content <= frameHeight, `${id} without the script: the widget (${content} px) fits the snippet's ${frameHeight} px frame`);
      t.ok(
        await page
          .frameLocator('iframe')
          .getByRole('link', { name: /Full match/ })
          .isVisible(),
        `${id}: the "Full match" link is there`,
      );

      await page.goto(`${hostUrl}/?id=${id}`);
      await page.frameLocator('iframe').locator('.board').waitFor();
      const inner = page.frames().find((f) => f.url().includes('/embed'))!;
      const scrollHeight = (await inner.evaluate('document.documentElement.scrollHeight')) as number;
      // The widget posts its height once it has laid out; the host's script applies it.
      for (let i = 0; i < 50 && Math.abs(((await page.locator('iframe').boundingBox())?.height ?? 0) - scrollHeight) > 1; i += 1)
        await page.waitForTimeout(100);
      const frameBox = await page.locator('iframe').boundingBox();
      t.ok(
        frameBox !== null && Math.abs(frameBox.height - scrollHeight) <= 1,
        `${id}: the script sized the frame to the widget (${frameBox?.height} px for ${scrollHeight} px)`,
      );
      const link = await inner.getByRole('link', { name: /Full match/ }).boundingBox();
      t.ok(link !== null && frameBox !== null && link.y + link.height <= frameBox.y + frameBox.height, `${id}: the "Full match" link is inside the frame`);
      if (id === 'vb-long') {
        await page.frameLocator('iframe').locator('.livebar[data-connected]').waitFor({ timeout: 60_000 });
        t.match(await page.frameLocator('iframe').locator('.live-state').innerText(), /^\s*Live: updates appear here/, 'a live match’s widget says live');
      }
      await page.screenshot({
        path: `${shots}/embed-${id}-360.png`,
        clip: { x: 0, y: 0, width: 400, height: Math.min(900, (frameBox?.y ?? 0) + (frameBox?.height ?? 0) + 8) },
      });
    }
    await context.close();
    await checkAccessibility(t, browser, `${base}/match/fb-long/embed`, 'football embed');
  });

  t.test('football as football: scorers and cards with minute marks, a step chart from 0–0, minutes, starters and bench, names', async (t) => {
    const page = await open(browser, `${base}/match/fb-long`, 1280);
    t.equal(await page.locator('.goals .events.home li.goal').first().innerText(), "Köhler 23', 67'", 'scorers under the score');
    t.match(await page.locator('.goals .events.away').innerText(), /Yellow card:\s+Szczęsna-Żółkiewska 38'/);
    t.match(await page.locator('.goals .events.away').innerText(), /Peñalosa 58'/);
    const d = (await page.locator('figure.chart.wide path.home').getAttribute('d')) ?? '';
    t.match(d, /^M22\.0,110\.0(H[\d.]+V[\d.]+)+H[\d.]+$/, 'the home line steps from 0 at minute 0 (horizontal, then vertical at each goal)');
    const home = page.locator('table.player-stats').first();
    t.match(
      await home.locator('tbody').first().locator('tr').first().innerText(),
      /^1\s+Ingibjörg Sigurðardóttir-Þórsdóttir\s+GK/,
      'the goalkeeper first among the starters',
    );
    t.equal(await home.locator('tbody').first().locator('tr').count(), 11, 'eleven starters');
    t.equal(await home.locator('tbody.bench tr.group').innerText(), 'SUBSTITUTES');
    t.match(await home.locator('tbody.bench tr').nth(1).innerText(), /Friðrika Guðmundsdóttir\s+GK/, 'the bench, its goalkeeper first');
    const min = (await home.locator('thead th').allInnerTexts()).findIndex((h) => h.startsWith('MIN'));
    t.equal(
      await home
        .locator('tbody tr')
        .first()
        .locator('td')
        .nth(min - 1)
        .innerText(),
      '90',
      'minutes as minutes',
    );
    t.equal(
      await home
        .locator('tfoot td')
        .nth(min - 1)
        .innerText(),
      '',
      'no team total of minutes',
    );
    const clipped = (await page.evaluate(
      `[...document.querySelectorAll('.player-stats .name.full, .board .name')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent)`,
    )) as string[];
    t.same(clipped, [], 'no name is clipped at 1280 px');
    t.ok(await page.getByText('Anna-Katharina Papadopoulou-Schmidt').isVisible(), 'whole names at 1280 px');
    await page.context().close();

    const phone = await open(browser, `${base}/match/fb-long`, 360);
    t.ok((await pageWidth(phone)) <= 360, 'no sideways scroll at 360 px');
    t.same(await phone.locator('.board .team .short').allInnerTexts(), ['SEF', 'BMG'], 'short names on the scoreboard: the payload’s, else initials');
    const overflowing = (await phone.evaluate(
      `[...document.querySelectorAll('.board .team, .line-score .team-cell')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)`,
    )) as string[];
    t.same(overflowing, [], 'no team name overflows or is cut on the scoreboard and line score');
    const shorts = (await phone.locator('.player-stats tbody th.player .name:visible').allInnerTexts()).map((n) => n.trim().replaceAll('\u2011', '-'));
    t.ok(shorts.includes('A.-K. Papadopoulou-Schmidt'), 'initials for given names');
    t.ok(shorts.includes('L. Haraldsdóttir') && shorts.includes('L. Haraldsdottir-Berg'), 'two Leas stay two names');
    t.equal(new Set(shorts).size, shorts.length, 'every shown name differs');
    t.notOk(
      shorts.some((n) => n.includes('…')),
      'no name cut with an ellipsis',
    );
    await phone.context().close();
    await checkAccessibility(t, browser, `${base}/match/fb-long`, 'football match');
    await shoot(t, browser, `${base}/match/fb-long`, 'match-football', shots);
  });

  t.test('real feeds: StatsBomb events and raw NBA play-by-play', async (t) => {
    t.equal(await upload(base, 'sb-events', localFixture('statsbomb-events.json')), 201);
    const sb = await open(browser, `${base}/match/sb-events`, 360);
    t.equal(await sb.locator('.scoreboard .badge').count(), 0, 'match_status "available" is no badge');
    t.match(
      await sb.locator('.goals .events.away').innerText(),
      /Demiral \(og\) 53'[\s\S]*Immobile 66'[\s\S]*Insigne 79'/,
      'own goal and scorers from player.name, on the side of team.name',
    );
    t.ok(await sb.locator('.pbp td.what', { hasText: /^Goal/ }).first().isVisible(), 'a goal reads "Goal"');
    await sb.context().close();

    t.equal(await upload(base, 'nba-pbp', localFixture('nba-playbyplay.json')), 201);
    const nba = await open(browser, `${base}/match/nba-pbp`, 360);
    t.equal(await nba.getByTestId('score').innerText(), '117 : 116', 'the score header from the feed');
    t.same(await nba.locator('.board .team .name').allInnerTexts(), ['MIA', 'NYK'], 'tricodes from teamTricode and location');
    const who = await nba.locator('.pbp .who').allTextContents();
    t.ok(who.length > 0 && who.every((w) => /^[A-Z]\. /.test(w)), `player names from the feed, not person ids (${who[0]})`);
    t.equal(await nba.locator('figure.chart').count(), 1, 'one whole-game lead tracker');
    t.same(await brokenWords(nba), [], 'no word of the play-by-play broken across lines at 360 px');
    await nba.context().close();

    // A generated basketball match: three-digit scores beside long names, its play-by-play at 360 px.
    t.equal(await upload(base, 'bb-gen', fixture({ sport: 'basketball', seed: 11 })), 201);
    const bb = await open(browser, `${base}/match/bb-gen`, 360);
    const overflowing = (await bb.evaluate(
      `[...document.querySelectorAll('.board .team, .line-score .team-cell, details[open] .pbp .team-cell')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent)`,
    )) as string[];
    t.same(overflowing, [], 'no team name overflows or is cut: beside a three-digit score, in the line score, in the play-by-play');
    t.equal(await bb.locator('figure.chart').count(), 1, 'one lead tracker, not a chart per quarter');
    t.same(await brokenWords(bb), [], 'no word of its play-by-play broken across lines');
    await bb.context().close();
    await checkAccessibility(t, browser, `${base}/match/bb-gen`, 'basketball match');
    await checkAccessibility(t, browser, `${base}/match/nba-pbp`, 'NBA play-by-play');
    await shoot(t, browser, `${base}/match/nba-pbp`, 'match-basketball-pbp', shots);
  });

  t.test('a share card for link previews', async (t) => {
    const page = await open(browser, `${base}/match/fb-long`, 1280);
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    t.equal(image, 'http://matchlog.test/match/fb-long/card.png?revision=0');
    await page.context().close();
    const res = await fetch(`${base}/match/fb-long/card.png?revision=0`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    t.same([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    t.same([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], 'the size og:image:width and height say');
    const again = await fetch(`${base}/match/fb-long/card.png`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    t.equal(again.status, 304, 'kept per revision: the same card again');
    const old = await fetch(`${base}/match/vb-history/card.png?revision=1`);
    const latest = await fetch(`${base}/match/vb-history/card.png`);
    t.same([old.status, latest.status], [200, 200]);
    t.not(old.headers.get('etag'), latest.headers.get('etag'), 'an old revision has its own card (its score, "In play then")');
    await Promise.all([old.arrayBuffer(), latest.arrayBuffer()]);
    t.equal((await fetch(`${base}/match/vb-history/card.png?revision=x`)).status, 400, 'a malformed revision');
    t.equal((await fetch(`${base}/match/nope/card.png`)).status, 404);
  });
});
