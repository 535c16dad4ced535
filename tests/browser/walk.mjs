// A newcomer's walk, every game at a phone's size (390x844) and a laptop's (1366x768), against
// the random bot: at each of the player's decisions the choice and Submit are inside the
// viewport, both players' scores are in view, nothing scrolls sideways and no visible text holds
// a seat id, a game id, "null" or "undefined"; after the last move the result is on screen; no
// console error; axe finds nothing serious on the table, live and finished, or on the replay
// with its analysis. The moves themselves go through the HTTP API (the clicking is tested in
// tests.mjs), so that the walk checks the page at every decision of a whole game quickly.
//
// run.sh runs it after tests.mjs, against the same `colosseum serve`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const BASE = process.env.COLOSSEUM_URL;
const GAMES = ['goofspiel', 'square-goofspiel', 'all-in-goofspiel', 'thwart-omega', 'galespiel', 'witchs-brew'];
const OPTIONS = { goofspiel: { cards: '6' } };
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1366, height: 768 } };
// Words a person must never read on a page: seat ids, a program's empty values, game ids.
const FORBIDDEN = new RegExp(`\\b(p1|p2|null|undefined|NaN)\\b|(^|[^-\\w])(${GAMES.join('|')})(?![-\\w])`);

let browser;
before(async () => {
  assert.ok(BASE, 'COLOSSEUM_URL is set (run tests/browser/run.sh)');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
});
after(async () => { await browser?.close(); });

async function newPage(viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()} ${m.location()?.url || ''}`); });
  return page;
}

async function axe(page) {
  const source = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  await page.evaluate(source);
  const res = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} \u2014 ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** What the page shows that breaks the walk's rules, as sentences (empty: nothing). */
async function pageFaults(page, where) {
  const found = await page.evaluate((pattern) => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) out.push(`scrolls sideways (${doc.scrollWidth} px wide in ${window.innerWidth})`);
    // Notation (code, pre, kbd, samp) may name seats: it is what a record or a command holds.
    const copy = document.createElement('div');
    for (const child of document.body.children) if (child.tagName !== 'SCRIPT') copy.append(child.cloneNode(true));
    copy.querySelectorAll('code, pre, kbd, samp, script, style, [hidden], details:not([open]) > :not(summary)').forEach((n) => n.remove());
    copy.style.cssText = 'position:absolute;left:-99999px;top:0;width:' + window.innerWidth + 'px';
    document.body.append(copy);
    const text = copy.innerText;
    copy.remove();
    const re = new RegExp(pattern, 'g');
    for (const line of text.split('\n')) {
      if (re.test(line)) out.push(`says "${line.trim().slice(0, 120)}"`);
      re.lastIndex = 0;
    }
    return out;
  }, FORBIDDEN.source);
  return found.map((f) => `${where}: ${f}`);
}

/** Whether the element is wholly inside the viewport as the page stands (no scrolling). */
async function inView(locator) {
  return locator.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
  });
}

async function state(id, token) {
  const res = await fetch(`${BASE}/api/matches/${id}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return res.json();
}

/** One move for the seat: a random legal one through the API; where the list is too long to be
 *  sent (Thwart Omega's pairs of cells), chosen on the board and submitted with the page's Submit. */
async function move(page, id, token) {
  const s = await state(id, token);
  if (s.status !== 'live' || !s.match.seats[s.you].to_act || s.match.seats[s.you].submitted) return;
  if (Array.isArray(s.legal_moves) && s.legal_moves.length) {
    const mv = s.legal_moves[Math.floor(Math.random() * s.legal_moves.length)];
    const res = await fetch(`${BASE}/api/matches/${id}/submit`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ move: mv, decision: s.decision }),
    });
    if (res.status !== 200) {
      const body = await res.text();
      // A bot or a timer moved the match on meanwhile: the next round asks again.
      assert.match(body, /decision|stale|not your|already/i, `submit ${mv}: ${res.status} ${body}`);
    }
    return;
  }
  // Built on the page, as a player would, until the server takes one: The Witch's Brew's card
  // plays (a card, then its choice: a button or a cell), Thwart Omega's two cells.
  const pickOne = async (loc) => { const n = await loc.count(); if (n) await loc.nth(Math.floor(Math.random() * n)).click(); return n; };
  for (let attempt = 0; attempt < 40; attempt++) {
    const steps = await page.evaluate(() => document.body.dataset.steps);
    if (await page.locator('#clear-move:not([hidden])').count()) await page.locator('#clear-move').click();
    if (await page.locator('#tools select').count()) {
      // The Intermission's assignment form: its selects start at a legal assignment.
      await page.locator('#tools select').first().selectOption({ index: attempt % 3 });
    } else if (await pickOne(page.locator('#hand button.wb-card:not([disabled])'))) {
      if (!(await pickOne(page.locator('[data-testid=wb-choice] button[data-choice]')))
        && await page.locator('[data-testid=wb-choice]').count() && attempt % 2) await pickOne(page.locator('#board .clickable'));
    } else {
      const cells = page.locator('#board .clickable');
      const n = await cells.count();
      assert.ok(n >= 1, 'a move too long to list is built on the board');
      const a = Math.floor(Math.random() * n);
      await cells.nth(a).click();
      if (n > 1) await cells.nth((a + 1 + Math.floor(Math.random() * (n - 1))) % n).click();
    }
    await page.locator('#submit-move').click();
    const taken = await page.waitForFunction((st) => document.body.dataset.steps !== st || document.body.dataset.canAct !== 'true'
      || document.querySelector('#message.error:not([hidden])'), steps, { timeout: 10000 }).then(() => page.evaluate((st) => document.body.dataset.steps !== st || document.body.dataset.canAct !== 'true', steps));
    if (taken) return;
  }
  assert.fail(`no move built on the page in 40 tries was taken: the table says "${await page.locator('#status').innerText()}", "${await page.locator('#message').innerText()}", draft "${await page.locator('#draft').innerText()}"; tools: ${await page.locator('#tools').innerText()}`);
}

for (const [size, viewport] of Object.entries(SIZES)) {
  for (const game of GAMES) {
    test(`a newcomer's walk: ${game} at ${size} size, every decision in view, the score in view, the result where the player is`, async () => {
      const res = await fetch(`${BASE}/api/matches`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game, options: OPTIONS[game] || {}, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] }),
      });
      const c = await res.json();
      assert.equal(res.status, 201, JSON.stringify(c));
      const token = new URL(c.links.p1, BASE).hash.replace(/^#seat=/, '');
      const page = await newPage(viewport);
      await page.goto(`${BASE}${c.links.p1}`);
      await page.locator('#join-name').fill('Ada');
      await page.locator('#join button[type=submit]').click();
      const faults = [];
      let decisions = 0;
      let axed = false;
      for (let guard = 0; guard < 400; guard++) {
        await page.waitForFunction(() => document.body.dataset.status === 'finished' || document.body.dataset.canAct === 'true', null, { timeout: 30000 })
          .catch(async (e) => {
            const s = await state(c.id, token);
            throw new Error(`${e.message}: the table shows "${await page.locator('#status').innerText().catch(() => '')}"; the server says ${JSON.stringify({ status: s.status, seat: s.match.seats[s.you], legal: s.legal_moves?.length ?? null, decision: s.decision })}`);
          });
        if (await page.evaluate(() => document.body.dataset.status === 'finished')) break;
        decisions += 1;
        if (decisions === 1) await page.evaluate(() => window.scrollTo(0, 0));
        // The choice: a card of the hand, a move of the list, a clickable cell, or a form's choice.
        const choices = page.locator('#hand button:not([disabled]), #legal button[data-move], #board .clickable, #tools select, #tools button');
        let shown = false;
        for (let i = 0, n = await choices.count(); i < n && !shown; i++) shown = await inView(choices.nth(i));
        if (!shown) faults.push(`decision ${decisions}: nothing to choose with is in the viewport`);
        if (!(await inView(page.locator('#submit-move')))) faults.push(`decision ${decisions}: Submit is not in the viewport`);
        for (const seat of ['p1', 'p2']) {
          const score = page.locator(`[data-testid=score-${seat}]`);
          if (!(await score.count()) || !(await inView(score.first())) || !(await score.first().innerText()).trim()) {
            faults.push(`decision ${decisions}: the score of the ${seat === 'p1' ? 'player' : 'computer'} is not in view`);
          }
        }
        if (decisions === 1 || decisions % 5 === 0) faults.push(...await pageFaults(page, `decision ${decisions}`));
        if (!axed) {
          faults.push(...(await axe(page)).map((v) => `axe at the first decision: ${v}`));
          axed = true;
        }
        const steps = await page.evaluate(() => document.body.dataset.steps);
        await move(page, c.id, token);
        await page.waitForFunction((st) => document.body.dataset.steps !== st || document.body.dataset.canAct !== 'true'
          || document.body.dataset.status === 'finished', steps, { timeout: 30000 });
      }
      assert.ok(decisions > 0, 'the player had decisions to make');
      // The end: the result is visible where the player is.
      const head = page.locator('[data-testid=result-head]');
      await head.waitFor({ state: 'visible' });
      await page.waitForTimeout(300);
      if (!(await inView(head.first()))) faults.push('the end: the result is not in the viewport');
      faults.push(...await pageFaults(page, 'the end'));
      faults.push(...(await axe(page)).map((v) => `axe at the end: ${v}`));
      // The replay with its analysis.
      await page.goto(`${BASE}/replay/${c.id}`);
      await page.waitForLoadState('networkidle');
      faults.push(...await pageFaults(page, 'the replay'));
      faults.push(...(await axe(page)).map((v) => `axe on the replay: ${v}`));
      faults.push(...page.problems);
      assert.deepEqual(faults, [], `${game} at ${size}, ${decisions} decisions`);
      await page.context().close();
    });
  }
}

test('a newcomer\u2019s walk: the other pages at both sizes scroll only down, say no seat or game id, no console error, axe', async () => {
  const faults = [];
  const paths = ['/', '/t', '/s', ...GAMES.map((g) => `/rules/${g}`)];
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const path of paths) {
      const page = await newPage(viewport);
      const res = await page.goto(`${BASE}${path}`);
      if (res.status() !== 200) { faults.push(`${size} ${path}: HTTP ${res.status()}`); await page.context().close(); continue; }
      await page.waitForLoadState('networkidle');
      faults.push(...await pageFaults(page, `${size} ${path}`));
      faults.push(...(await axe(page)).map((v) => `${size} ${path}: axe ${v}`));
      faults.push(...page.problems.map((p) => `${size} ${path}: ${p}`));
      await page.context().close();
    }
  }
  assert.deepEqual(faults, []);
});
