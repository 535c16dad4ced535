// End-to-end tests of the Colosseum pages in headless Chromium (Debian's), driven by
// playwright-core. run.sh starts `colosseum serve` and sets COLOSSEUM_URL.
//
//   COLOSSEUM_URL      the server, e.g. http://127.0.0.1:40123 (required)
//   CHROMIUM           the browser (default /usr/bin/chromium)
//   SCREENSHOTS_DIR    where each game's mid-match and final screenshots go (default: none)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { chromium } from 'playwright-core';
import { namesOf, seatsToNames, singular } from '../../crates/server/assets/present.js';

const BASE = process.env.COLOSSEUM_URL;
const SHOTS = process.env.SCREENSHOTS_DIR || '';
const GAMES = ['goofspiel', 'square-goofspiel', 'all-in-goofspiel', 'thwart-omega', 'galespiel', 'witchs-brew'];
// Small options keep the runs short where a game has them.
const OPTIONS = { goofspiel: { cards: '8' } };
// After how many clicked moves the mid-match screenshot is taken.
const MID = { goofspiel: 4, 'square-goofspiel': 20, 'all-in-goofspiel': 3, 'thwart-omega': 7, galespiel: 18, 'witchs-brew': 33 };

let browser;

// The sample trivia bank's accepted answers by question text, read without a TOML parser: every
// question in crates/trivia/data/rules.toml is a `question = "..."` line followed by a one-line
// `answers = [...]` (both JSON-compatible).
const BANK = (() => {
  const text = readFileSync(new URL('../../crates/trivia/data/rules.toml', import.meta.url), 'utf8');
  const map = new Map();
  let q = null;
  for (const line of text.split('\n')) {
    let m = /^question = (".*")\s*$/.exec(line);
    if (m) { q = JSON.parse(m[1]); continue; }
    m = /^answers = (\[.*\])\s*$/.exec(line);
    if (m && q !== null) { map.set(q, JSON.parse(m[1])); q = null; }
  }
  return map;
})();
function answerOf(question) {
  const a = BANK.get(question);
  assert.ok(a, `not in the sample bank: ${question}`);
  return a[0];
}
const finished = {}; // game -> match id, for the replay tests

before(async () => {
  assert.ok(BASE, 'COLOSSEUM_URL is set (run tests/browser/run.sh)');
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
});

after(async () => {
  await browser?.close();
});

async function apiCreate(body) {
  const res = await fetch(`${BASE}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json();
  assert.equal(res.status, 201, JSON.stringify(data));
  return data;
}

async function newPage(viewport = { width: 1200, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  return page;
}

async function join(page, name) {
  await page.locator('#join-name').fill(name);
  await page.locator('#join button[type=submit]').click();
  await page.waitForFunction(() => document.querySelector('#join')?.hidden === true);
}

const statusOf = (page, seat) => page.locator(`[data-testid=status-${seat}]`).innerText();

/** Waits until `seat` is to move (returns true) or the match is over (returns false). */
async function myTurn(page, seat) {
  await page.waitForFunction((s) => document.body.dataset.status === 'finished'
    || document.querySelector(`[data-testid=status-${s}]`)?.textContent === 'to move', seat, { timeout: 30000 });
  return (await page.evaluate(() => document.body.dataset.status)) !== 'finished';
}

function pickRandom(n) {
  return Math.floor(Math.random() * n);
}

/** Presses Submit after a move was built, checking the preview first (nothing is sent by a click). */
async function submitBuilt(page, what) {
  const steps = await page.evaluate(() => document.body.dataset.steps);
  const draft = await page.locator('[data-testid=draft]').innerText();
  assert.ok(draft.length > 0, `${what}: the move is previewed before Submit`);
  assert.equal(await page.evaluate(() => document.body.dataset.steps), steps, `${what}: a click sent nothing`);
  await page.locator('#submit-move').click();
  return draft;
}

const pickFrom = async (loc) => loc.nth(pickRandom(await loc.count()));
let galespielSpotsBuilt = 0; // spots chosen on the board and built, over the run

/** Makes one move by clicking, the way each game builds it (hand, board, the list, the form), then
 *  Submit. */
async function clickAMove(page) {
  const game = await page.evaluate(() => document.body.dataset.game);
  if (await page.locator('#tools select').count()) {
    await page.locator('#tools select').first().selectOption({ index: 0 });
    return submitBuilt(page, 'the assignment form');
  }
  if (game === 'all-in-goofspiel') {
    // Cards in the order clicked; the number they make is shown as the play grows.
    const cards = page.locator('#hand button[data-card]:not([disabled])');
    const n = Math.min(await cards.count(), pickRandom(3));
    for (let i = 0; i < n; i++) {
      const free = page.locator('#hand button[data-card][aria-pressed=false]:not([disabled])');
      await (await pickFrom(free)).click();
    }
    if (n === 0) await page.locator('#hand button[data-move=pass]').click();
    assert.match(await page.locator('[data-testid=allin-number]').innerText(), n ? /^Your cards make -?\d/ : /number 0/);
    return submitBuilt(page, 'All-In hand');
  }
  if (game === 'thwart-omega') {
    const cells = page.locator('#board .cell.clickable');
    const c = await cells.count();
    const a = pickRandom(c);
    let b = pickRandom(c - 1);
    if (b >= a) b += 1;
    await cells.nth(a).click();
    await cells.nth(b).click();
    return submitBuilt(page, 'Thwart Omega cells');
  }
  if (game === 'witchs-brew') {
    const cells = page.locator('#board .cell.clickable');
    const legal = await page.evaluate(() => [...document.querySelectorAll('#legal button[data-move]')].map((b) => b.dataset.move));
    if (legal.length && legal.every((m) => /^[a-g]\d$/.test(m)) && await cells.count()) {
      await (await pickFrom(cells)).click();
      return submitBuilt(page, 'a stone on the grid');
    }
    // Playing a card: chosen in the hand (sometimes with the Duplicard), then its choice.
    const cards = page.locator('#hand button.wb-card:not([disabled])');
    if (await cards.count()) {
      if (pickRandom(4) === 0 && await page.locator('[data-testid=duplicard]').count()) await page.locator('[data-testid=duplicard]').click();
      await (await pickFrom(page.locator('#hand button.wb-card:not([disabled])'))).click();
      const choices = page.locator('[data-testid=wb-choice] button[data-choice]');
      if (await choices.count()) await (await pickFrom(choices)).click();
      else if (await page.locator('[data-testid=wb-choice]').count() && pickRandom(2) && await cells.count()) await (await pickFrom(cells)).click();
      return submitBuilt(page, 'a card from the hand');
    }
  }
  if (game === 'galespiel' && await page.locator('#board .spot.clickable').count()) {
    // The build step: choose a spot on the board (a legal one when the list is there), then Submit.
    const legal = await page.evaluate(() => [...document.querySelectorAll('#legal button[data-move]')].map((b) => b.dataset.move));
    const singles = legal.filter((m) => /^[a-m]\d+$/.test(m));
    if (singles.length) {
      const spot = singles[pickRandom(singles.length)];
      await page.locator(`#board .spot.clickable[data-cell="${spot}"]`).click();
      assert.match(await page.locator('[data-testid=build-hint]').innerText(), new RegExp(`Chosen: ${spot}\\b`));
      galespielSpotsBuilt += 1;
      return submitBuilt(page, 'a Galespiel spot');
    }
  }
  const hand = page.locator('#hand button[data-move]:not([disabled])');
  if (game !== 'witchs-brew' && await hand.count()) {
    await (await pickFrom(hand)).click();
    return submitBuilt(page, 'a card from the hand');
  }
  await page.evaluate(() => document.querySelectorAll('#legal details').forEach((d) => { d.open = true; }));
  const legal = page.locator('#legal button[data-move]');
  if (await legal.count()) {
    await (await pickFrom(legal)).click();
    return submitBuilt(page, 'the list of moves');
  }
  throw new Error(`no way to move on the page: ${await page.locator('#status').innerText()}`);
}

/** Chooses `move` from the hand (or the list), then Submit. */
async function play(page, move) {
  const inHand = page.locator(`#hand button[data-move="${move}"]`);
  if (await inHand.count()) await inHand.click();
  else {
    await page.evaluate(() => document.querySelectorAll('#legal details').forEach((d) => { d.open = true; }));
    await page.locator(`#legal button[data-move="${move}"]`).click();
  }
  return submitBuilt(page, `the move ${move}`);
}

/** The shown result against the server's record: the winner's words and the reason. */
async function checkResult(page, seat) {
  const id = page.url().split('/m/')[1].split('#')[0];
  const replay = await (await fetch(`${BASE}/api/matches/${id}/replay`)).json();
  const r = replay.result;
  assert.ok(r && r.reason, `the record has a result: ${JSON.stringify(replay.result)}`);
  const head = await page.locator('[data-testid=result-head]').innerText();
  const body = await page.locator('[data-testid=result-reason]').innerText();
  const want = r.winner ? (seat ? (r.winner === seat ? 'You win' : 'You lose') : new RegExp(' wins$')) : 'A draw';
  if (typeof want === 'string') assert.equal(head, want, `${body} vs ${JSON.stringify(r)}`);
  else assert.match(head, want);
  // The reason with the players' names for the seat ids (never p1/p2), singular right.
  const reason = singular(seatsToNames(r.reason.replace(/`/g, ''), namesOf(replay.names))).replace(/\.$/, '');
  assert.ok(body.toLowerCase().includes(reason.toLowerCase()), `the record's reason is shown with names: ${body} / ${r.reason}`);
  assert.doesNotMatch(body, /\bp[12]\b/, `no seat id in the result: ${body}`);
  const by = { resignation: 'by resignation', time: 'on time', second_draw: 'after a second draw' }[r.by];
  if (by) assert.ok(body.includes(by), `how it ended: ${body}`);
  // The last reveal on the result screen is the record's last round as the replay's final frame shows it.
  return { result: r, head, body };
}

/** The first viewport at laptop size (as the page is) and at phone size, top of the page. */
async function shots(page, name) {
  const size = page.viewportSize();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: joinPath(SHOTS, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: joinPath(SHOTS, `${name}-phone.png`) });
  await page.setViewportSize(size);
}

/** Plays `seat` by clicking until the match ends; a screenshot after `midAt` moves. */
async function playToEnd(page, seat, { game, midAt = 6, maxMoves = 800 } = {}) {
  let moves = 0;
  while (await myTurn(page, seat)) {
    const before = await page.evaluate(() => document.body.dataset.steps);
    const mv = await clickAMove(page);
    // Wait for the answer: a new status, a new step, or a refusal.
    // A race that opens as the move is sent holds the move back: the loop answers it first.
    await page.waitForFunction(([s, st]) => document.body.dataset.steps !== st
      || document.querySelector(`[data-testid=status-${s}]`)?.textContent !== 'to move'
      || document.body.dataset.race === 'open'
      || document.querySelector('#message.error:not([hidden])'), [seat, before], { timeout: 30000 });
    const err = await page.locator('#message.error:not([hidden])').count();
    if (err) {
      const text = await page.locator('#message').innerText();
      if (!/rate|too many/i.test(text)) throw new Error(`${game}: the move ${mv} was refused: ${text}`);
      await page.waitForTimeout(1000);
    }
    moves += 1;
    if (moves === midAt && SHOTS && game) await shots(page, `${game}-mid`);
    assert.ok(moves < maxMoves, `${game}: more than ${maxMoves} moves`);
  }
  return moves;
}

for (const game of GAMES) {
  test(`${game}: a full match against the random bot, played by clicking`, async () => {
    const t0 = Date.now();
    const page = await newPage({ width: 1366, height: 768 });
    let link;
    if (game === 'goofspiel') {
      // Through the lobby's form, as a person would: choosing a level chooses the computer,
      // and Create ends at the seat, joined under the typed name.
      await page.goto(`${BASE}/`);
      await page.locator('#game').selectOption(game);
      await page.locator('input[name=opponent][value=friend]').check();
      await page.locator('#level').selectOption('random');
      assert.equal(await page.locator('input[name=opponent][value=bot]').isChecked(), true, 'a level picks the computer');
      assert.match(await page.locator('#level option[value="mcts:easy"]').innerText(), /^Computer: easy$/);
      await page.locator('#advanced summary').click();
      await page.locator('input[data-option=cards]').fill('8');
      await page.locator('#time').selectOption('untimed');
      await page.locator('#name').fill('Ada');
      await page.locator('#create button[type=submit]').click();
      await page.waitForURL(/\/m\/[0-9a-f]+#seat=[0-9a-f]+$/);
      await page.waitForFunction(() => document.body.dataset.status === 'live');
      assert.equal(await page.locator('#join').isHidden(), true, 'no second Join');
      assert.match(await page.locator('[data-seat=p1] .seat-name').innerText(), /^Ada/);
      assert.match(await page.locator('[data-testid=spectator-link]').inputValue(), /\/m\/[0-9a-f]+$/);
    } else {
      const c = await apiCreate({ game, options: OPTIONS[game] || {}, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
      link = `${BASE}${c.links.p1}`;
      await page.goto(link);
      await join(page, 'Ada');
    }
    await page.waitForFunction(() => document.body.dataset.status === 'live' || document.body.dataset.status === 'finished');
    const moves = await playToEnd(page, 'p1', { game, midAt: MID[game] });
    await page.locator('[data-testid=result-reason]').waitFor();
    const { body: reason } = await checkResult(page, 'p1');
    if (game === 'square-goofspiel') {
      // On the finished board no phase letter covers an owned cell: owned cells show their owner.
      const cells = await page.locator('#board [data-cell]').evaluateAll((xs) => xs.map((g) => [g.querySelector('rect').getAttribute('fill'), g.querySelector('text')?.textContent ?? '']));
      const owned = cells.filter(([fill]) => /--p[12]\)/.test(fill));
      assert.ok(owned.length > 0, 'owned cells');
      for (const [fill, label] of owned) assert.equal(label, fill.includes('p1') ? '1' : '2', `an owned cell shows ${label}`);
    }
    if (SHOTS) await shots(page, `${game}-end`);
    assert.deepEqual(page.errors, [], 'no script errors');
    finished[game] = page.url().split('/m/')[1].split('#')[0];
    if (game === 'galespiel') {
      console.log(`# galespiel: ${galespielSpotsBuilt} spots chosen on the board and submitted`);
      assert.ok(galespielSpotsBuilt > 0, 'bridges were built by choosing spots on the board');
    }
    console.log(`# ${game}: ${moves} moves clicked in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${reason}`);
    await page.context().close();
  });
}

test('two players in two browsers: a submission stays hidden, then both see the reveal; a spectator watches', async () => {
  const a = await newPage();
  await a.goto(`${BASE}/`);
  await a.locator('#game').selectOption('goofspiel');
  await a.locator('input[name=opponent][value=friend]').check();
  await a.locator('#name').fill('Ann');
  await a.locator('#advanced summary').click();
  await a.locator('input[data-option=cards]').fill('4');
  await a.locator('#time').selectOption('untimed');
  await a.locator('#create button[type=submit]').click();
  // Create ends at the seat, joined as Ann, with the invite and spectator links to copy.
  await a.waitForURL(/#seat=/);
  await a.waitForFunction(() => /Waiting for .* to join/.test(document.querySelector('#status')?.textContent || ''));
  assert.equal(await a.locator('#join').isHidden(), true, 'joined under the typed name');
  const invite = await a.locator('[data-testid=invite-link]').inputValue();
  const spectate = await a.locator('[data-testid=spectator-link]').inputValue();
  assert.notEqual(a.url(), invite);
  assert.match(invite, /#seat=/);
  const box = await a.locator('[data-testid=invite-link]').boundingBox();
  const panel = await a.locator('#share').boundingBox();
  assert.ok(box.x + box.width <= panel.x + panel.width + 0.5, 'the invite link stays inside its panel');
  await a.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await a.locator('button[data-copy=invite-link]').click();
  assert.equal(await a.evaluate(() => navigator.clipboard.readText()), invite, 'Copy copies the invite');
  const b = await newPage({ width: 390, height: 844 }); // a phone
  const frames = []; // everything Bob's page is sent
  b.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  await b.goto(invite);
  await join(b, 'Bob');
  const watcher = await newPage();
  await watcher.goto(spectate);
  await watcher.waitForFunction(() => document.body.dataset.status === 'live');
  assert.equal(await watcher.locator('#actions').isHidden(), true, 'a spectator has no move box');

  assert.ok(await myTurn(a, 'p1'));
  assert.match(await a.title(), /Your move/, 'the tab title says it is your move');
  await play(a, '3');
  await a.waitForFunction(() => document.querySelector('#status')?.textContent.includes('You played 3'));
  assert.doesNotMatch(await a.title(), /Your move/);
  // Bob and the spectator see that Ann has submitted, not what.
  await b.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted');
  await watcher.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted');
  for (const p of [b, watcher]) {
    const text = await p.locator('main').innerText();
    assert.ok(!/played 3/.test(text), 'the hidden move is not on the other pages');
  }
  // Nothing Bob's page was sent holds Ann's pending move (only "submitted": true).
  assert.ok(frames.some((f) => f.includes('"submitted":true')), 'Bob was told that Ann submitted');
  assert.ok(!frames.some((f) => /"submission":"3"/.test(f)), 'Ann\u2019s move never reached Bob\u2019s page');
  assert.equal(await statusOf(b, 'p2'), 'to move');
  // Ann changes her mind and locks; still hidden.
  await play(a, '4');
  await a.waitForFunction(() => document.querySelector('#status')?.textContent.includes('You played 4'));
  await a.locator('#lock').click();
  await b.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted (locked)');
  await play(b, '2');
  // Both see the reveal: both moves side by side, one sentence, in the first viewport.
  for (const p of [a, b, watcher]) {
    await p.waitForFunction(() => /played 4.*played 2/.test(document.querySelector('#reveal')?.textContent || ''));
    await assertInFirstViewport(p, '[data-testid=reveal-sentence]');
    await assertInFirstViewport(p, '#reveal .reveal-move[data-seat=p1]');
  }
  assert.match(await a.locator('#reveal').innerText(), /You\s+4[\s\S]*Bob\s+2/);
  assert.match(await b.locator('#reveal').innerText(), /You\s+2[\s\S]*Ann\s+4/);
  assert.doesNotMatch(await a.locator('main').innerText(), /Move accepted/, 'no stale "Move accepted" after the reveal');
  if (SHOTS) await b.screenshot({ path: joinPath(SHOTS, 'phone-goofspiel.png') });
  // Play the rest from both sides.
  await Promise.all([playToEnd(a, 'p1', { midAt: -1 }), playToEnd(b, 'p2', { midAt: -1 })]);
  await watcher.waitForFunction(() => document.body.dataset.status === 'finished');
  await checkResult(a, 'p1');
  await checkResult(b, 'p2');
  await checkResult(watcher, null);
  // A rematch: seats swapped, same options; Ann lands on her new seat, joined.
  const oldId = a.url().split('/m/')[1].split('#')[0];
  await a.locator('#rematch').click();
  await a.waitForURL((u) => u.pathname.startsWith('/m/') && !u.pathname.includes(oldId) && u.hash.startsWith('#seat='), { timeout: 10000 });
  await a.waitForFunction(() => document.body.dataset.status === 'waiting');
  assert.match(await a.locator('[data-testid=invite-link]').inputValue(), /#seat=/, 'the rematch\u2019s invite link to send');
  const again = await (await fetch(`${BASE}/api/matches/${a.url().split('/m/')[1].split('#')[0]}`)).json();
  assert.equal(again.match.options.cards, '4');
  assert.equal(again.names.p2, 'Ann', 'Ann plays p2 in the rematch');
  for (const p of [a, b, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, watcher]) await p.context().close();
});

/** Asserts that an element is on screen without scrolling (the first viewport). */
async function assertInFirstViewport(page, selector) {
  const box = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, h: window.innerHeight };
  }, selector);
  assert.ok(box, `${selector} is on the page`);
  assert.ok(box.bottom <= box.h, `${selector} ends at ${Math.round(box.bottom)} px, within the first ${box.h} px`);
}

test('a refused move shows the reason; a reload mid-match resumes the seat', async () => {
  const c = await apiCreate({ game: 'square-goofspiel', time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage();
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Cy');
  assert.ok(await myTurn(page, 'p1'));
  await page.locator('#notation').fill('9');
  await page.locator('#notation').press('Enter');
  await page.locator('#message.error').waitFor();
  const refusal = await page.locator('#message').innerText();
  assert.match(refusal, /^Move refused\. .+/);
  assert.doesNotMatch(refusal, /p1:|not legal here:|`/, 'addressed to the player, without codes');
  // Two moves, then a reload.
  for (let i = 0; i < 2; i++) {
    assert.ok(await myTurn(page, 'p1'));
    const st = await page.evaluate(() => document.body.dataset.steps);
    await play(page, '1');
    await page.waitForFunction((x) => document.body.dataset.steps !== x
      || document.querySelector('[data-testid=status-p1]')?.textContent !== 'to move', st);
  }
  assert.ok(await myTurn(page, 'p1'));
  const steps = await page.evaluate(() => document.body.dataset.steps);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.connected === 'true');
  assert.equal(await page.evaluate(() => document.body.dataset.steps), steps, 'the same state after the reload');
  assert.equal(await page.locator('#join').isHidden(), true, 'no second join');
  assert.equal(await page.locator('#reveal').innerText().then((t) => /bid/.test(t)), true, 'the last reveal is back');
  assert.ok(await myTurn(page, 'p1'));
  await play(page, 'pass');
  await page.waitForFunction((st) => document.body.dataset.steps !== st, steps);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a lost connection is shown on screen and comes back by itself', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '5' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage();
  const sockets = [];
  await page.routeWebSocket(/\/ws/, (ws) => { ws.connectToServer(); sockets.push(ws); });
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Dee');
  await page.waitForFunction(() => document.body.dataset.connected === 'true');
  await sockets[sockets.length - 1].close({ code: 1012, reason: 'test' });
  await page.locator('#connection.error').waitFor();
  assert.match(await page.locator('#connection').innerText(), /Connection lost\. Reconnecting in .* \(attempt 1\)/);
  await page.waitForFunction(() => document.body.dataset.connected === 'true');
  assert.ok(sockets.length >= 2, 'a new connection');
  // The seat's token rides in a subprotocol, never in the socket's URL (proxies log URLs).
  for (const ws of sockets) assert.ok(!/token/.test(ws.url()), ws.url());
  assert.ok(await myTurn(page, 'p1'));
  const st = await page.evaluate(() => document.body.dataset.steps);
  await page.locator('#hand button[data-move]:not([disabled])').first().click();
  await page.locator('#submit-move').click();
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a join clicked before the socket is open is sent when it opens (the form comes from the HTTP state first)', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '5' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage();
  // The page's first four sockets go to a path that refuses them: the table is on screen from
  // its HTTP state while the socket is down (reconnections after 0.5, 1, 2 and 4 s).
  await page.addInitScript(() => {
    const Real = window.WebSocket;
    let refused = 0;
    window.WebSocket = class extends Real {
      constructor(url, protocols) {
        super(refused < 4 ? String(url).replace(/\/ws$/, '/no-such-socket') : url, protocols);
        refused += 1;
      }
    };
  });
  await page.goto(`${BASE}${c.links.p1}`);
  await page.locator('#join-name').fill('Lea');
  await page.locator('#join button[type=submit]').click();
  assert.match(await page.locator('#message').innerText(), /you take your seat as soon as the connection is open/);
  await page.waitForFunction(() => document.querySelector('#join')?.hidden === true);
  await page.waitForFunction(() => document.body.dataset.connected === 'true');
  const res = await fetch(`${BASE}/api/matches/${c.id}`);
  const st = await res.json();
  assert.equal(st.names?.p1, 'Lea', JSON.stringify(st.names));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('keyboard only: board cells take Enter, "/" focuses the notation box', async () => {
  const c = await apiCreate({ game: 'thwart-omega', options: { size: '5' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage({ width: 390, height: 844 });
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Kim');
  assert.ok(await myTurn(page, 'p1'));
  let st = await page.evaluate(() => document.body.dataset.steps);
  // One Tab stop for the whole board: the roving cell.
  assert.equal(await page.locator('#board [data-cell][tabindex="0"]').count(), 1, 'one Tab stop per board');
  await page.locator('#board [data-cell][tabindex="0"]').focus();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'a1');
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#notation').inputValue(), /^B a1 W \s*$/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'a1', 'Enter keeps the focus on the cell');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'b2', 'arrows move on the board');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'b2');
  assert.equal(await page.evaluate(() => document.body.dataset.steps), st, 'nothing sent before Submit');
  assert.match(await page.locator('[data-testid=draft]').innerText(), /B a1 W b2/);
  // Tab leaves the board (no stone placed by it), and reaches Submit.
  for (let i = 0; i < 6 && !(await page.evaluate(() => document.activeElement?.id === 'submit-move')); i++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'submit-move');
  await page.keyboard.press('Enter');
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.match(await page.locator('#reveal').innerText(), /you played B a1 W b2/);
  assert.ok(await myTurn(page, 'p1'));
  st = await page.evaluate(() => document.body.dataset.steps);
  const empty = await page.locator('#board .cell.clickable').evaluateAll((cells) => cells.map((x) => x.dataset.cell));
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('/');
  await page.keyboard.type(`B ${empty[0]} W ${empty[1]}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('both clocks count down in a timed match', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '5' }, time: { kind: 'timed', per_decision_ms: 60000, bank_ms: 120000, bank_step_ms: 5000 }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  const page = await newPage();
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Eve');
  const other = await newPage();
  await other.goto(`${BASE}${c.links.p2}`);
  await join(other, 'Fay');
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  const read = async () => Promise.all(['p1', 'p2'].map((seat) => page.locator(`[data-clock=${seat}]`).innerText()));
  const [a1, a2] = await read();
  assert.match(a1, /^[01]:\d\d · bank 2:00$/);
  assert.match(a2, /^[01]:\d\d · bank 2:00$/);
  await page.waitForTimeout(2200);
  const [b1, b2] = await read();
  const secs = (t) => { const [m, s] = t.split(' ')[0].split(':').map(Number); return m * 60 + s; };
  assert.ok(secs(b1) < secs(a1) && secs(b2) < secs(a2), `counting down: ${a1} -> ${b1}, ${a2} -> ${b2}`);
  // Once Eve has moved, her clock stops and Fay's runs on.
  await page.locator('#hand button[data-move]:not([disabled])').first().click();
  await page.locator('#submit-move').click();
  await page.waitForFunction(() => document.querySelector('[data-clock=p1]')?.textContent.startsWith('\u2014'));
  assert.match(await page.locator('[data-clock=p2]').innerText(), /^[01]:\d\d/);
  for (const p of [page, other]) await p.context().close();
});

test('bad and unknown links are shown plainly', async () => {
  const c = await apiCreate({ game: 'goofspiel', time: { kind: 'untimed' } });
  const page = await newPage();
  await page.goto(`${BASE}/m/${c.id}#seat=0000aaaa`);
  await page.locator('.notice.error').waitFor();
  assert.match(await page.locator('main').innerText(), /not valid for match/);
  await page.goto(`${BASE}/m/doesnotexist`);
  await page.waitForFunction(() => /No such match/.test(document.querySelector('main')?.textContent || ''));
  await page.goto(`${BASE}/replay/${c.id}`);
  await page.waitForFunction(() => /Not yet/.test(document.querySelector('main')?.textContent || ''));
  const res = await page.goto(`${BASE}/no/such/page`);
  assert.equal(res.status(), 404);
  await page.context().close();
});

test('replays step through every game: the slider, arrow keys anywhere, the move list; the board changes between frames; rules pages have real content', async () => {
  const page = await newPage();
  const board = () => page.locator('.board-box').innerHTML();
  for (const game of GAMES) {
    const id = finished[game];
    assert.ok(id, `${game}: its full match finished earlier in this run, so its replay is checked`);
    await page.goto(`${BASE}/replay/${id}`);
    await page.locator('#slider').waitFor();
    const max = Number(await page.locator('#slider').getAttribute('max'));
    assert.ok(max >= 2, `${game}: frames`);
    assert.match(await page.locator('#frame-label').innerText(), new RegExp(`Step ${max} of ${max}`));
    const atEnd = await board();
    await page.locator('#slider').fill('0');
    assert.match(await page.locator('#frame-label').innerText(), /Step 0 of/);
    const atStart = await board();
    assert.notEqual(atStart, atEnd, `${game}: the board at the start differs from the end`);
    await page.locator('#slider').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await page.locator('#frame-label').innerText(), /Step 1 of/);
    await page.locator('#next').click();
    assert.match(await page.locator('#frame-label').innerText(), /Step 2 of/);
    // Arrow keys work with the focus anywhere on the page, not only on the slider.
    await page.locator('h1').click();
    await page.keyboard.press('ArrowRight');
    assert.match(await page.locator('#frame-label').innerText(), /Step 3 of|Step 2 of 2/);
    await page.keyboard.press('ArrowLeft');
    assert.match(await page.locator('#frame-label').innerText(), /Step 2 of/);
    // The move list: every step, clickable.
    assert.equal(await page.locator('#move-list button').count(), max + 1);
    await page.locator(`#move-list button[data-frame="${max}"]`).click();
    assert.match(await page.locator('#frame-label').innerText(), new RegExp(`Step ${max} of ${max}`));
    assert.equal(await board(), atEnd, `${game}: the last step shows the final board again`);
    // The list and the label are worded from the server's move log: names, both moves of a
    // simultaneous round on one line (All-In Goofspiel's seats play in turn), the same words for
    // the same step.
    const listText = await page.locator('#move-list').innerText();
    assert.match(listText, /\bAda: /, `${game}: the move list names the player`);
    if (game !== 'all-in-goofspiel') assert.match(listText, /Ada: [^\n]+ \u00b7 /, `${game}: a round's two moves on one line`);
    assert.ok(!/\bp1: /.test(listText), `${game}: no seat id where the name is known`);
    const lastLine = await page.locator(`#move-list button[data-frame="${max}"]`).innerText();
    assert.ok((await page.locator('#frame-label').innerText()).endsWith(`: ${lastLine}`), `${game}: the label words the step as the list does`);
    if (game === 'thwart-omega' && SHOTS) {
      await page.locator('#slider').fill(String(Math.floor(max / 2)));
      await page.screenshot({ path: joinPath(SHOTS, 'replay-thwart-omega.png') });
    }
  }
  for (const game of GAMES) {
    await page.goto(`${BASE}/rules/${game}`);
    await page.locator('article.rules h2').first().waitFor();
    const text = await page.locator('article.rules').innerText();
    const api = await (await fetch(`${BASE}/api/games/${game}`)).json();
    assert.ok(text.length > 1500, `${game}: the rules page has its text (${text.length} characters)`);
    assert.ok(text.includes(api.name), `${game}: the page names the game`);
    assert.ok((await page.locator('article.rules h2, article.rules h3').count()) >= 3, `${game}: sections`);
    const prose = await page.evaluate(() => {
      const a = document.querySelector('article.rules').cloneNode(true);
      a.querySelectorAll('pre, details.technical').forEach((x) => x.remove());
      return a.textContent;
    });
    assert.ok(!prose.includes('`'), `${game}: no literal backticks outside examples`);
    assert.doesNotMatch(prose, /colosseum (play|replay)|crates\//, `${game}: terminal commands and the project's files are folded away`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Plays `seat` of a live-Cauldron Witch's Brew to the end: placement moves by clicking, and each
 *  race answered (right, from the sample bank) when `answers(question)` says so. */
async function playLive(page, seat, { answers = () => false, maxMoves = 800 } = {}) {
  const seen = [];
  let moves = 0;
  let answered = 0;
  for (;;) {
    const handle = await page.waitForFunction(([s, seenRaces]) => {
      const b = document.body.dataset;
      if (b.status === 'finished') return 'finished';
      if (b.race === 'open' && !seenRaces.includes(b.raceOpened)) return `race ${b.raceOpened}`;
      if (b.race !== 'open' && document.querySelector(`[data-testid=status-${s}]`)?.textContent === 'to move') return 'move';
      return false;
    }, [seat, seen], { timeout: 60000 });
    const what = await handle.jsonValue();
    if (what === 'finished') break;
    if (what.startsWith('race ')) {
      const opened = what.slice(5);
      seen.push(opened);
      const question = await page.locator('#race-question').innerText();
      if (!answers(question)) continue;
      await page.locator('#race-answer').fill(answerOf(question));
      await page.locator('#race-answer').press('Enter');
      await page.waitForFunction((o) => document.body.dataset.race !== 'open' || document.body.dataset.raceOpened !== o, opened, { timeout: 30000 });
      answered += 1;
      continue;
    }
    const before = await page.evaluate(() => document.body.dataset.steps);
    const mv = await clickAMove(page);
    // A race that opens as the move is sent holds the move back: the loop answers it first.
    await page.waitForFunction(([s, st]) => document.body.dataset.steps !== st
      || document.querySelector(`[data-testid=status-${s}]`)?.textContent !== 'to move'
      || document.body.dataset.race === 'open'
      || document.querySelector('#message.error:not([hidden])'), [seat, before], { timeout: 30000 });
    if (await page.locator('#message.error:not([hidden])').count()) {
      const text = await page.locator('#message').innerText();
      if (!/rate|too many/i.test(text)) throw new Error(`the move ${mv} was refused: ${text}`);
      await page.waitForTimeout(1000);
    }
    moves += 1;
    assert.ok(moves < maxMoves, `more than ${maxMoves} moves`);
  }
  return { moves, races: seen.length, answered };
}

test('the live Cauldron between two browsers: a wrong answer locks out, a right one wins the round; then the whole game', async () => {
  const t0 = Date.now();
  const c = await apiCreate({ game: 'witchs-brew', options: { cauldron: 'live' }, time: { kind: 'untimed' }, trivia: { bank: 'sample' }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  const a = await newPage();
  await a.goto(`${BASE}${c.links.p1}`);
  await join(a, 'Ann');
  const b = await newPage({ width: 390, height: 844 }); // a phone
  await b.goto(`${BASE}${c.links.p2}`);
  await join(b, 'Bob');
  const watcher = await newPage();
  await watcher.goto(`${BASE}${c.links.spectator}`);
  for (const p of [a, b, watcher]) await p.waitForFunction(() => document.body.dataset.race === 'open');
  const question = await a.locator('#race-question').innerText();
  assert.equal(await b.locator('#race-question').innerText(), question);
  assert.equal(await watcher.locator('#race-question').innerText(), question, 'a spectator sees the question');
  assert.equal(await watcher.locator('#race-form').isHidden(), true, 'a spectator has no answer box');
  assert.match(await a.locator('#race-category').innerText(), /Category: (MM|DM|FM|free)/);
  assert.match(await a.locator('#race-clock').innerText(), /^[23]:\d\d left to answer$/);
  // Nobody's page holds the accepted answers while the race runs.
  for (const p of [a, b, watcher]) assert.equal(await p.locator('[data-testid=race-answers]').count(), 0);

  // Ann answers wrong (Enter submits): locked out, with a countdown; Bob sees it.
  await a.locator('#race-answer').fill('certainly not this');
  await a.locator('#race-answer').press('Enter');
  await a.waitForFunction(() => document.querySelector('#race-lockout')?.dataset.locked === 'true');
  assert.match(await a.locator('#race-lockout').innerText(), /locked out for 0:(30|2\d)/);
  assert.equal(await a.locator('#race-answer').isDisabled(), true, 'the box is disabled while locked out');
  // The lockout's length is the state's (race.lockout_ms, the trivia crate's LOCKOUT_MS).
  assert.match(await a.locator('#race-feedback').innerText(), /is wrong: you are locked out for 30 s\./);
  await b.waitForFunction(() => /Ann is locked out for 0:\d\d/.test(document.querySelector('[data-race-seat=p1]')?.textContent || ''));
  await watcher.waitForFunction(() => /locked out/.test(document.querySelector('[data-race-seat=p1]')?.textContent || ''));
  const l1 = await a.locator('#race-lockout').innerText();
  await a.waitForTimeout(1200);
  assert.notEqual(await a.locator('#race-lockout').innerText(), l1, 'the lockout counts down');
  if (SHOTS) await a.screenshot({ path: joinPath(SHOTS, 'cauldron-race.png') });

  // Bob answers right (the button): both see who won, and the accepted answers.
  const right = answerOf(question);
  await b.locator('#race-answer').fill(right);
  await b.locator('#race-submit').click();
  for (const p of [a, b, watcher]) await p.waitForFunction(() => document.body.dataset.race === 'over');
  assert.match(await a.locator('[data-testid=race-winner]').first().innerText(), /Bob won the round/);
  assert.match(await b.locator('[data-testid=race-winner]').first().innerText(), /You won the round/);
  assert.match(await watcher.locator('[data-testid=race-winner]').first().innerText(), /Bob won the round/);
  assert.ok((await a.locator('[data-testid=race-answers]').innerText()).includes(right));
  if (SHOTS) await b.screenshot({ path: joinPath(SHOTS, 'cauldron-race-over-phone.png') });

  // The rest of the game, from both sides: each race answered right by one of them.
  const pick = (seat) => (q) => (q.length % 2 === 0) === (seat === 'p1');
  const [ra, rb] = await Promise.all([playLive(a, 'p1', { answers: pick('p1') }), playLive(b, 'p2', { answers: pick('p2') })]);
  await watcher.waitForFunction(() => document.body.dataset.status === 'finished');
  assert.ok((await a.locator('[data-testid=result-reason]').innerText()).length > 10);
  for (const p of [a, b, watcher]) assert.deepEqual(p.errors, []);
  console.log(`# live Cauldron, two browsers: ${ra.races} more races (${ra.answered} + ${rb.answered} answered), ${ra.moves} + ${rb.moves} moves in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const p of [a, b, watcher]) await p.context().close();
});

test('the live Cauldron against a bot, set up in the lobby: a full game of The Witch\u2019s Brew', async () => {
  const t0 = Date.now();
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('witchs-brew');
  await page.locator('#advanced summary').click();
  assert.equal(await page.locator('#trivia').isHidden(), true, 'no trivia settings for a simulated Cauldron');
  await page.locator('select[data-option=cauldron]').selectOption('live');
  await page.locator('input[name=opponent][value=bot]').check();
  await page.locator('#level').selectOption('random');
  assert.equal(await page.locator('#trivia').isVisible(), true);
  assert.equal(await page.locator('#race-bot').isVisible(), true);
  await page.locator('#race-accuracy').fill('100');
  await page.locator('#race-mean').fill('0.05');
  await page.locator('#race-min').fill('0.02');
  await page.locator('#race-max').fill('0.2');
  await page.locator('#time').selectOption('untimed');
  await page.locator('#name').fill('Ada');
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/\/m\/.*#seat=/);
  const r = await playLive(page, 'p1');
  await page.locator('[data-testid=result-reason]').waitFor();
  // Every race went to the bot (accuracy 1, answers in 20 to 200 ms).
  const log = await page.locator('#log').innerText();
  const raceWinners = [...log.matchAll(/Cauldron race: (.+?) won/g)].map((x) => x[1]);
  assert.ok(raceWinners.length > 0 && raceWinners.every((w) => w !== 'Ada'), `the bot won every race: ${log}`);
  assert.deepEqual(page.errors, []);
  console.log(`# live Cauldron against a bot: ${r.moves} moves clicked, ${r.races} open races seen in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await page.context().close();
});

test('a sealed match against the bot, set up in the lobby: commitments, automatic openings, a result', async () => {
  const t0 = Date.now();
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('goofspiel');
  await page.locator('#advanced summary').click();
  await page.locator('input[data-option=cards]').fill('4');
  await page.locator('#level').selectOption('random');
  await page.locator('#time').selectOption('untimed');
  await page.locator('#sealed').check();
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/\/m\/.*#seat=/);
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  assert.equal(await page.locator('[data-testid=sealed]').count(), 1, 'the table says the match is sealed');
  let words = 0;
  let rounds = 0;
  while (await myTurn(page, 'p1')) {
    const before = await page.evaluate(() => document.body.dataset.steps);
    const mv = await clickAMove(page);
    // The commitment goes out; the page opens by itself once the bot has committed too, and the
    // reveal follows.
    await page.waitForFunction(([st]) => document.body.dataset.steps !== st
      || document.querySelector('#message.error:not([hidden])'), [before], { timeout: 30000 });
    const err = await page.locator('#message.error:not([hidden])').count();
    if (err) throw new Error(`sealed goofspiel: ${mv}: ${await page.locator('#message').innerText()}`);
    const text = await page.locator('#message').innerText();
    if (/Sealed: your move is locked in as a commitment; the server learns it only when both have committed/.test(text)
      || /Opened/.test(text)) words += 1;
    rounds += 1;
    assert.ok(rounds < 10, 'at most 4 rounds');
  }
  await page.locator('[data-testid=result-reason]').waitFor();
  const reason = await page.locator('[data-testid=result-reason]').innerText();
  assert.ok(reason.length > 10, `a result with a reason: ${reason}`);
  assert.equal(rounds, 4, 'four cards, four sealed rounds');
  const id = page.url().split('/m/')[1].split('#')[0];
  const state = await (await fetch(`${BASE}/api/matches/${id}`)).json();
  assert.equal(state.match.sealed.last.p1.move.length > 0, true, JSON.stringify(state.match.sealed));
  assert.ok(state.match.result, 'the match has a result');
  assert.deepEqual(page.errors, [], 'no script errors');
  console.log(`# sealed goofspiel against a bot: ${rounds} rounds in ${((Date.now() - t0) / 1000).toFixed(1)} s (${words} sealed messages seen); ${reason}`);
  await page.context().close();
});

test('sealed: the server holds only the commitment, and a reload can still open', async () => {
  const { createHash, randomBytes } = await import('node:crypto');
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '3' }, time: { kind: 'untimed' }, sealed: true });
  const [, t2] = c.tokens;
  const call = async (what, body) => {
    const res = await fetch(`${BASE}/api/matches/${c.id}/${what}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t2}` }, body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, data: await res.json() };
  };
  // p2 joins as a plain HTTP client does: with the hash of its client seed, revealed once both
  // seats have committed (the page reveals p1's by itself).
  const p2Seed = randomBytes(16).toString('hex');
  assert.equal((await call('join', { client_seed_hash: createHash('sha256').update(p2Seed).digest('hex') })).status, 200);
  const page = await newPage();
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Ada');
  assert.equal((await call('reveal', { client_seed: p2Seed })).status, 200);
  await myTurn(page, 'p1');
  await play(page, '3');
  await page.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has committed (sealed)');
  assert.match(await page.locator('#status').innerText(), /Sealed: your move is locked in as a commitment; the server learns it only when both have committed/);
  // p2 sees a commitment, never a move.
  const seen = await (await fetch(`${BASE}/api/matches/${c.id}`, { headers: { authorization: `Bearer ${t2}` } })).json();
  assert.equal(seen.match.seats.p1.committed, true);
  assert.equal(seen.match.seats.p1.submission, undefined);
  assert.match(seen.match.seats.p1.commitment, /^[0-9a-f]{64}$/);
  // A reload: the move and nonce are in sessionStorage.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.connected === 'true');
  // p2 commits and opens with a plain HTTP client, as a bot author would: the hash binds the
  // match, the decision and the seat; every action names its decision.
  const { decision } = seen;
  const nonce = randomBytes(16).toString('hex');
  const hash = createHash('sha256').update(['colosseum-seal-v1', c.id, decision, 'p2', '1', nonce].join('\n')).digest('hex');
  // The page's commitment is public, but copying it is refused.
  assert.equal((await call('commit', { hash: seen.match.seats.p1.commitment, decision })).data.error.code, 'commitment_reused');
  assert.equal((await call('commit', { hash })).data.error.code, 'decision_required');
  assert.equal((await call('commit', { hash, decision })).status, 200);
  // The reloaded page opens by itself.
  await page.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has opened (sealed)', null, { timeout: 10000 });
  const wrong = await call('open', { move: '2', nonce, decision });
  assert.equal(wrong.status, 422);
  assert.equal(wrong.data.error.code, 'commitment_mismatch');
  assert.equal((await call('open', { move: '1', nonce, decision })).status, 200);
  await page.waitForFunction(() => document.body.dataset.steps !== undefined && document.querySelector('[data-testid=status-p1]')?.textContent === 'to move');
  const after = await (await fetch(`${BASE}/api/matches/${c.id}`)).json();
  assert.equal(after.match.sealed.last.p1.move, '3');
  assert.equal(after.match.sealed.last.p2.nonce, nonce);
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});

test('fair chance: a typed client seed, the commitment on screen, and the check on a finished match', async () => {
  const { createHash } = await import('node:crypto');
  const created = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }], time: { kind: 'untimed' } });
  const page = await newPage({ width: 390, height: 844 });
  await page.goto(`${BASE}${created.links.p1}`);
  // The commitment is on the page before anyone has joined.
  const commitment = await page.locator('[data-testid=commitment]').getAttribute('title');
  assert.match(commitment, /^[0-9a-f]{64}$/);
  // So is the setup it binds: who plays, the bot, the clocks.
  const setupText = await page.locator('[data-testid=setup]').innerText();
  assert.match(setupText, /the bot random/);
  assert.doesNotMatch(setupText, /\bp[12]\b/, `the setup names people, not seats: ${setupText}`);
  await page.locator('details.client-seed summary').click();
  await page.locator('#client-seed').fill('my-own-client-seed-1');
  await join(page, 'Fay');
  // The page sent only the seed's hash, then revealed the seed by itself: the match starts.
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  assert.match(await page.locator('#fairness').innerText(), /my-own-client-seed-1/);
  await playToEnd(page, 'p1', { game: 'goofspiel' });
  await page.locator('[data-testid=result-reason]').waitFor();
  // At the end: the server seed, and the check, which passes.
  await page.locator('#fair-link').click();
  await page.locator('[data-testid=server-seed]').waitFor();
  await page.locator('[data-testid=verified]').waitFor({ timeout: 30000 });
  assert.match(await page.locator('[data-testid=verified]').innerText(), /verified: every chance step/);
  const href = await page.locator('#verify-link').getAttribute('href');
  const report = await (await fetch(`${BASE}${href}`)).json();
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.equal(report.games[0].chance_checked, 4);
  assert.equal(report.games[0].bot_moves_checked, 4);
  const state = await (await fetch(`${BASE}/api/matches/${created.id}`)).json();
  assert.equal(state.fairness.client_seeds.p1, 'my-own-client-seed-1');
  assert.equal(state.fairness.client_seed_hashes.p1, createHash('sha256').update('my-own-client-seed-1').digest('hex'));
  assert.equal(state.fairness.commitment, commitment);
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'fair-chance-phone.png') });
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});

test('a practice match is marked as such at the table and in the lobby', async () => {
  const created = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, seed: 4242 });
  const page = await newPage();
  await page.goto(`${BASE}${created.links.spectator}`);
  await page.locator('[data-testid=practice]').waitFor();
  await page.goto(`${BASE}/`);
  await page.locator(`a[href="/m/${created.id}"]`).first().waitFor();
  assert.ok(await page.locator('.badge.practice').count() >= 1, 'the lobby marks practice matches');
  await page.context().close();
});

// ----- issue 18: the reveal as an event, clocks, one way to move, accessibility -----

const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

/** A match against the random bot, joined as p1 at `size`. */
async function seatAt(game, size, extra = {}) {
  const c = await apiCreate({ game, options: OPTIONS[game] || {}, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }], ...extra });
  const page = await newPage(SIZES[size]);
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Ada');
  return { page, c };
}

for (const size of Object.keys(SIZES)) {
  for (const game of ['goofspiel', 'square-goofspiel', 'thwart-omega', 'all-in-goofspiel']) {
    test(`${game} at ${size} size: after a reveal, the result sentence and the marked move are in the first viewport`, async () => {
      const { page } = await seatAt(game, size);
      assert.ok(await myTurn(page, 'p1'));
      let revealed = false;
      for (let i = 0; i < 6 && !revealed; i++) {
        const before = await page.evaluate(() => document.body.dataset.steps);
        await clickAMove(page);
        await page.waitForFunction((st) => document.body.dataset.steps !== st || document.querySelector('#message.error:not([hidden])'), before);
        assert.equal(await page.locator('#message.error:not([hidden])').count(), 0, await page.locator('#message').innerText());
        revealed = await page.locator('#reveal:not([hidden])').count() > 0;
        if (!revealed) assert.ok(await myTurn(page, 'p1'));
      }
      assert.ok(revealed, 'a reveal within six moves');
      await page.evaluate(() => window.scrollTo(0, 0));
      await assertInFirstViewport(page, '[data-testid=reveal-sentence]');
      await assertInFirstViewport(page, '#reveal .reveal-move[data-seat=p2]');
      const sentence = await page.locator('[data-testid=reveal-sentence]').innerText();
      assert.match(sentence, /you (played|bid)/i);
      const cells = await page.locator('#board .last-move').count();
      if (game === 'square-goofspiel' || game === 'thwart-omega') {
        assert.ok(cells >= 1, 'the board marks the last move');
        await assertInFirstViewport(page, '#board .last-move');
      }
      assert.doesNotMatch(await page.locator('main').innerText(), /Move accepted/);
      if (SHOTS && size === 'phone') await page.screenshot({ path: joinPath(SHOTS, `${game}-reveal-phone.png`) });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('a click never submits: cards and cells are chosen, previewed, changed and cleared, then Submit', async () => {
  const { page } = await seatAt('all-in-goofspiel', 'phone');
  assert.ok(await myTurn(page, 'p1'));
  const st = await page.evaluate(() => document.body.dataset.steps);
  assert.equal(await page.locator('#legal button').count(), 0, 'no list of unreadable All-In moves');
  await page.locator('#hand button[data-card="10"]').click();
  await page.locator('#hand button[data-card="9"]').click();
  assert.match(await page.locator('[data-testid=allin-number]').innerText(), /make 109/);
  assert.match(await page.locator('[data-testid=draft]').innerText(), /^10 9$/);
  // A second click takes the card back; nothing was refused or sent.
  await page.locator('#hand button[data-card="10"]').click();
  assert.match(await page.locator('[data-testid=draft]').innerText(), /^9$/);
  await page.locator('#hand button[data-card="-1"]').click();
  assert.match(await page.locator('[data-testid=allin-number]').innerText(), /9-1 = 8/);
  await page.locator('#clear-move').click();
  assert.equal(await page.locator('[data-testid=draft]').count(), 0, 'Clear empties the move');
  assert.equal(await page.evaluate(() => document.body.dataset.steps), st, 'nothing sent by clicks');
  await page.locator('#hand button[data-card="3"]').click();
  await page.locator('#submit-move').click();
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.match(await page.locator('[data-testid=reveal-sentence]').innerText(), /you played 3 = 3/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Galespiel on a phone: the lattice fits the screen while bidding (its spots are targets only while building: see the building test), card effects are on screen', async () => {
  const { page } = await seatAt('galespiel', 'phone');
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  assert.equal(await page.locator('#board .spot.clickable').count(), 0, 'no spot is a target while bidding');
  const fit = await page.evaluate(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return [r.left, r.right, innerWidth, document.documentElement.scrollWidth]; });
  assert.ok(fit[0] >= 0 && fit[1] <= fit[2] && fit[3] <= fit[2], `the lattice is inside the screen: ${fit}`);
  const detail = page.locator('#hand .card-detail').first();
  assert.ok(await detail.isVisible(), 'a card\u2019s effects are visible without hovering');
  assert.ok((await detail.innerText()).length > 3);
  await page.context().close();
});

test('The Witch\u2019s Brew shows cards and conditions in words, on a phone', async () => {
  const { page } = await seatAt('witchs-brew', 'phone');
  // Play by clicking until some cards are in a hand.
  for (let i = 0; i < 40; i++) {
    if (await page.locator('#hand .wb-card').count()) break;
    if (!(await myTurn(page, 'p1'))) break;
    const before = await page.evaluate(() => document.body.dataset.steps);
    await clickAMove(page);
    await page.waitForFunction((st) => document.body.dataset.steps !== st || document.querySelector('#message.error:not([hidden])'), before);
  }
  const card = page.locator('#hand .wb-card').first();
  assert.ok(await card.count(), 'a card in a hand');
  assert.match(await card.innerText(), /^[1-8] (Snipe|Lock|Guess|Copy|Leap|Freeze|Shift|Diminish)\s+\S+/);
  assert.ok(await card.locator('.card-detail').isVisible(), 'the card\u2019s effect is visible, not hover-only');
  const list = await page.locator('#legal button[data-move]').allInnerTexts();
  for (const t of list) assert.doesNotMatch(t, /^\d [a-g]$|^dup \d/, `a move shown as a code: ${t}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a timeout: the table says what was played for you and why', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, time: { kind: 'timed', per_decision_ms: 2000 }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Tim');
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  // The warning near the end, then the notice.
  await page.waitForFunction(() => /Hurry: 0:0\d left/.test(document.querySelector('[data-clock-warning=p1]')?.textContent || ''), null, { timeout: 5000 });
  await page.locator('#message.warn').waitFor({ timeout: 10000 });
  const text = await page.locator('#message').innerText();
  assert.match(text, /^Your time ran out: \d+ was played for you \(what the rules play when a clock runs out\)\.$/);
  const played = /: (\d+) was played/.exec(text)[1];
  assert.match(await page.locator('[data-testid=reveal-sentence]').innerText(), new RegExp(`you played ${played},`));
  await assertInFirstViewport(page, '#message');
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'timeout-notice.png') });
  await page.context().close();
});

test('the lobby on a phone: a level picks the computer, Create ends at the seat, joined', async () => {
  const page = await newPage(SIZES.phone);
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('square-goofspiel');
  await page.locator('input[name=opponent][value=friend]').check();
  await page.locator('#level').selectOption('mcts:easy');
  assert.equal(await page.locator('input[name=opponent][value=bot]').isChecked(), true);
  assert.equal(await page.locator('#advanced').getAttribute('open'), null, 'advanced options are folded away');
  const levels = await page.locator('#level option').allInnerTexts();
  for (const l of levels) assert.match(l, /^Computer: /);
  assert.ok(!levels.some((l) => /mcts|heuristic/.test(l)));
  await page.locator('#name').fill('Pia');
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/#seat=/);
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  assert.match(await page.locator('[data-seat=p1] .seat-name').innerText(), /^Pia/);
  assert.match(await page.locator('[data-seat=p2] .seat-name').innerText(), /^Computer: easy/);
  assert.equal(await page.locator('#join').isHidden(), true);
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'lobby-to-seat-phone.png') });
  // Back in the lobby, the seat says it is your move.
  await myTurn(page, 'p1');
  await page.goto(`${BASE}/`);
  await page.locator('#mine [data-testid=your-move]').first().waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The lobby's visible targets smaller than `min` px either way (a radio button or checkbox is
 *  measured with its label, which takes the click too). */
async function smallTargets(page, min) {
  return page.evaluate((m) => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
    .filter((e) => e.checkVisibility())
    .map((e) => {
      const r = (/^(radio|checkbox)$/.test(e.type) && e.closest('label') ? e.closest('label') : e).getBoundingClientRect();
      return { what: `${e.tagName.toLowerCase()} ${e.id || e.name || e.textContent.trim().slice(0, 30)}`, w: Math.round(r.width), h: Math.round(r.height) };
    })
    .filter((t) => t.w < m || t.h < m)
    .map((t) => `${t.what}: ${t.w}x${t.h}`), min);
}

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);

for (const size of Object.keys(SIZES)) {
  test(`the lobby at ${size} size: no sideways scroll for any game, targets at least ${size === 'phone' ? 44 : 24} px, the clock on the form, axe`, async () => {
    // A waiting match, so that the lists have links to measure.
    await apiCreate({ game: 'goofspiel', seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
    const page = await newPage(SIZES[size]);
    await page.goto(`${BASE}/`);
    await page.locator('#create').waitFor();
    await page.locator('#matches li a').first().waitFor();
    assert.equal(await page.locator('#time').isVisible(), true, 'the clock is on the form, not folded away');
    const games = await page.locator('#game option').evaluateAll((os) => os.map((o) => o.value));
    for (const advanced of [false, true]) {
      if (advanced) await page.locator('#advanced summary').click();
      for (const game of games) {
        await page.locator('#game').selectOption(game);
        for (const opponent of ['friend', 'bot']) {
          await page.locator(`input[name=opponent][value=${opponent}]`).check();
          assert.ok(await noSideways(page), `${game}, ${opponent}, advanced ${advanced}: ${await page.evaluate(() => document.documentElement.scrollWidth)} px wide in ${SIZES[size].width}`);
        }
      }
      assert.deepEqual(await smallTargets(page, size === 'phone' ? 44 : 24), [], `advanced ${advanced}`);
    }
    if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, `lobby-${size}.png`), fullPage: true });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a first game against the computer from the lobby has no clock unless one is chosen; the form names the clock in force', async () => {
  const page = await newPage(SIZES.phone);
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('goofspiel');
  const clock = () => page.locator('#time option:checked').innerText();
  assert.equal(await page.locator('#advanced').getAttribute('open'), null, 'advanced options are folded away');
  assert.equal(await page.locator('#time').isVisible(), true, 'the clock is on the form itself');
  assert.equal(await clock(), 'No clock', 'against the computer: no clock');
  assert.match(await page.locator('#time-info').innerText(), /no clock unless you choose one/);
  // A friend: the game's default, in seconds; back to the computer: no clock again.
  await page.locator('input[name=opponent][value=friend]').check();
  assert.equal(await clock(), '30 s a decision (the game\u2019s default)');
  await page.locator('#level').selectOption('random');
  assert.equal(await clock(), 'No clock');
  await page.locator('#name').fill('Noa');
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/#seat=/);
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  const id = page.url().split('/m/')[1].split('#')[0];
  const state = await (await fetch(`${BASE}/api/matches/${id}`)).json();
  assert.deepEqual(state.match.time_control, { kind: 'untimed' }, JSON.stringify(state.match.time_control));
  assert.equal(state.match.seats.p2.player.kind, 'bot');

  // A clock the player chooses stays chosen, whatever the opponent.
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('goofspiel');
  await page.locator('#time').selectOption('custom');
  await page.locator('#seconds').fill('45');
  await page.locator('input[name=opponent][value=friend]').check();
  await page.locator('#level').selectOption('random');
  assert.equal(await clock(), 'my own: seconds a decision');
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/#seat=/);
  const id2 = page.url().split('/m/')[1].split('#')[0];
  const timed = await (await fetch(`${BASE}/api/matches/${id2}`)).json();
  assert.equal(timed.match.time_control.kind, 'timed');
  assert.equal(timed.match.time_control.per_decision_ms, 45000);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** axe-core's serious and critical violations on the page now. */
async function axe(page) {
  const source = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  await page.evaluate(source); // through DevTools: the pages' CSP allows no inline script
  const res = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} \u2014 ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('accessibility: no serious or critical axe-core violation on the lobby, every table, a replay, a rules page', async () => {
  const found = {};
  for (const size of ['laptop', 'phone']) {
    const page = await newPage(SIZES[size]);
    await page.goto(`${BASE}/`);
    await page.locator('#create').waitFor();
    found[`lobby ${size}`] = await axe(page);
    await page.context().close();
  }
  for (const game of GAMES) {
    const { page } = await seatAt(game, 'laptop');
    await page.waitForFunction(() => document.body.dataset.status === 'live');
    if (await myTurn(page, 'p1')) {
      const before = await page.evaluate(() => document.body.dataset.steps);
      await clickAMove(page);
      await page.waitForFunction((st) => document.body.dataset.steps !== st || document.querySelector('#message.error:not([hidden])'), before);
      await myTurn(page, 'p1');
    }
    found[`table ${game}`] = await axe(page);
    await page.context().close();
  }
  const page = await newPage(SIZES.laptop);
  const done = Object.values(finished)[0];
  if (done) {
    await page.goto(`${BASE}/replay/${done}`);
    await page.locator('#slider').waitFor();
    found.replay = await axe(page);
  }
  await page.goto(`${BASE}/rules/witchs-brew`);
  await page.locator('article.rules h2').first().waitFor();
  found.rules = await axe(page);
  await page.context().close();
  const bad = Object.entries(found).filter(([, v]) => v.length);
  assert.deepEqual(bad, [], bad.map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`).join('\n'));
  assert.ok(done, 'a finished match was there to audit its replay');
});

test('the reveal flashes once, and not under prefers-reduced-motion', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const c = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
    const context = await browser.newContext({ viewport: SIZES.laptop, reducedMotion });
    const page = await context.newPage();
    await page.goto(`${BASE}${c.links.p1}`);
    await join(page, 'Rae');
    assert.ok(await myTurn(page, 'p1'));
    const st = await page.evaluate(() => document.body.dataset.steps);
    await play(page, '1');
    await page.waitForFunction((x) => document.body.dataset.steps !== x && !document.querySelector('#reveal').hidden, st);
    const anim = await page.evaluate(() => {
      const r = document.querySelector('#reveal');
      return { fresh: r.classList.contains('fresh'), name: getComputedStyle(r).animationName };
    });
    assert.equal(anim.fresh, true, 'a reveal seen live is marked fresh');
    assert.equal(anim.name, reducedMotion === 'reduce' ? 'none' : 'reveal-in');
    await context.close();
  }
});

// ---------------------------------------------------------------- social (issue 18): chat, move log, Cauldron

test('chat: a spectator\u2019s message never reaches the players\u2019 chat, and the reverse; shown as text', async () => {
  const c = await apiCreate({ game: 'thwart-omega', time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  const a = await newPage();
  await a.goto(`${BASE}${c.links.p1}`);
  await join(a, 'Ann');
  const b = await newPage({ width: 390, height: 844 }); // a phone
  await b.goto(`${BASE}${c.links.p2}`);
  await join(b, 'Bob');
  const watcher = await newPage();
  await watcher.goto(`${BASE}${c.links.spectator}`);
  for (const p of [a, b, watcher]) await p.locator('#chat-form').waitFor();
  assert.match(await a.locator('#chat-title').innerText(), /Players/);
  assert.match(await watcher.locator('#chat-title').innerText(), /Spectators/);
  // A seat writes: the other seat reads it, the spectator does not.
  await a.locator('#chat-text').fill('good luck <b>Bob</b>');
  await a.locator('#chat-text').press('Enter');
  await b.waitForFunction(() => /good luck <b>Bob<\/b>/.test(document.querySelector('[data-testid=chat-lines]')?.textContent || ''));
  assert.equal(await b.locator('[data-testid=chat-lines] b').count(), 0, 'a message is text, never HTML');
  // A spectator writes under a name: spectators read it, the players do not.
  await watcher.locator('#chat-name').fill('Zed');
  await watcher.locator('#chat-text').fill('Ann, play the centre');
  await watcher.locator('#chat-send').click();
  await watcher.waitForFunction(() => /Ann, play the centre/.test(document.querySelector('[data-testid=chat-lines]')?.textContent || ''));
  assert.equal(await watcher.locator('#chat-text').inputValue(), '', 'the box is cleared once sent');
  // Both sides move on (a round is played) so that any push would have arrived.
  for (const p of [a, b]) {
    await myTurn(p, p === a ? 'p1' : 'p2');
    await clickAMove(p);
  }
  await a.waitForFunction(() => Number(document.body.dataset.steps) >= 1);
  for (const p of [a, b]) {
    const html = await p.content();
    assert.ok(!html.includes('play the centre'), 'a spectator\u2019s message reached a player');
  }
  assert.ok(!(await watcher.content()).includes('good luck'), 'the players\u2019 chat reached a spectator');
  // The move log names the players and keeps every round after a reload.
  await a.reload();
  await a.locator('[data-testid=movelog]').waitFor();
  const log = await a.locator('[data-testid=movelog]').innerText();
  assert.match(log, /Ann: .* \u00b7 Bob: /, log);
  assert.match(await a.locator('[data-testid=chat-lines]').innerText(), /good luck/);
  assert.deepEqual([...a.errors, ...b.errors, ...watcher.errors], []);
  for (const p of [a, b, watcher]) await p.context().close();
});

test('the Cauldron: the prize pair with the question, no lockout message under the result, names instead of seat ids', async () => {
  const c = await apiCreate({ game: 'witchs-brew', options: { cauldron: 'live' }, time: { kind: 'untimed' }, trivia: { bank: 'sample' }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  const a = await newPage();
  await a.goto(`${BASE}${c.links.p1}`);
  await join(a, 'Ann');
  const b = await newPage();
  await b.goto(`${BASE}${c.links.p2}`);
  await join(b, 'Bob');
  await a.waitForFunction(() => document.body.dataset.race === 'open');
  assert.match(await a.locator('[data-testid=race-prize]').innerText(), /On offer: \S+ or \S+/);
  // Ann answers wrong: the lockout message goes once the lockout ends or the race is over.
  await a.locator('#race-answer').fill('certainly not this');
  await a.locator('#race-answer').press('Enter');
  await a.waitForFunction(() => /is wrong/.test(document.querySelector('#race-feedback')?.textContent || ''));
  const question = await b.locator('#race-question').innerText();
  await b.locator('#race-answer').fill(answerOf(question));
  await b.locator('#race-answer').press('Enter');
  await a.waitForFunction(() => /Bob won the round/.test(document.querySelector('[data-testid=race-winner]')?.textContent || ''));
  assert.equal(await a.locator('#race-feedback').isHidden(), true, 'no lockout message under the result');
  // Bob picks: the page says so with names, not seat ids.
  const waiting = await a.locator('[data-testid=waiting-for]').innerText();
  assert.match(waiting, /Waiting for Bob to pick/, waiting);
  assert.ok(!/\bp2\b/.test(waiting), waiting);
  for (const p of [a, b]) await p.context().close();
});

test('the lobby shows p1_chance and none_chance only for a simulated Cauldron', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('witchs-brew');
  await page.locator('#advanced summary').click(); // the game's options are folded away
  const chance = page.locator('[data-option=p1_chance]');
  assert.equal(await chance.isVisible(), true, 'simulated (the default): shown');
  await page.locator('[data-option=cauldron]').selectOption('live');
  assert.equal(await chance.isVisible(), false, 'live: hidden');
  assert.equal(await page.locator('[data-option=none_chance]').isVisible(), false);
  await page.context().close();
});

// ---------------------------------------------------------------- tournaments (issue 20)

async function apiTournament(body) {
  const res = await fetch(`${BASE}/api/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json();
  assert.equal(res.status, 201, JSON.stringify(data));
  return data;
}

async function tournamentView(id, token) {
  const res = await fetch(`${BASE}/api/tournaments/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return res.json();
}

async function waitView(id, token, done, what) {
  for (let i = 0; i < 300; i++) {
    const v = await tournamentView(id, token);
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the tournament did not reach: ${what}`);
}

test('tournaments: the lobby links to them; the form creates one, shows the host its links, and the pages pass axe', async () => {
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}/`);
  await page.locator('header nav a', { hasText: 'Tournaments' }).click();
  await page.locator('#t-name').waitFor();
  const found = { list: await axe(page) };
  await page.locator('#t-name').fill('Browser Cup');
  await page.locator('#t-format').selectOption('single_elimination');
  await page.locator('#t-time').selectOption('untimed');
  await page.locator('#t-players').fill('Ann\nBo, 2 garnets\nCy, bot random');
  await page.getByRole('button', { name: 'Create the tournament' }).click();
  const adminLink = page.locator('ul.links a[href*="#admin="]');
  await adminLink.waitFor();
  assert.equal(await page.locator('ul.links a[href*="#player="]').count(), 2, 'one link per human player');
  await page.goto(`${BASE}${await adminLink.getAttribute('href')}`);
  await page.locator('#standings tbody tr').first().waitFor();
  assert.equal(await page.locator('#standings tbody tr').count(), 3);
  await page.locator('#host').waitFor();
  await page.locator('#bracket h4').first().waitFor();
  found.admin = await axe(page);
  await page.context().close();
  const bad = Object.entries(found).filter(([, v]) => v.length);
  assert.deepEqual(bad, [], bad.map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`).join('\n'));
});

test('tournaments: a round robin shows only its own tie-breaks and a tie that only the seed breaks as =1', async () => {
  // Three players who never come: every game a no-show draw, so all three end on 2 points, equal
  // on head to head and Sonneborn-Berger.
  const made = await apiTournament({ name: 'Three-way tie', game: 'goofspiel', format: { kind: 'round_robin' },
    players: [{ name: 'Ann' }, { name: 'Bo' }, { name: 'Cy' }], no_show_s: 1 });
  const done = await waitView(made.id, null, (v) => v.status === 'finished', 'finished');
  assert.deepEqual(done.standings.map((s) => s.rank_label), ['=1', '=1', '=1']);
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}/t/${made.id}`);
  await page.locator('#standings tbody tr').first().waitFor();
  const heads = await page.locator('#standings thead th').allInnerTexts();
  assert.ok(heads.includes('Sonneborn-Berger'), heads.join(', '));
  assert.ok(!heads.includes('Buchholz'), `a round robin has no Buchholz column: ${heads.join(', ')}`);
  const ranks = await page.locator('#standings tbody td[data-label="Rank"]').allInnerTexts();
  assert.deepEqual(ranks, ['=1', '=1', '=1']);
  assert.match(await page.locator('#winner').innerText(), /Winners: Ann and Bo and Cy|Ann, Bo and Cy|Ann and Bo and Cy/);
  assert.deepEqual(await axe(page), []);
  await page.context().close();
});

/** Waits for the host's action to be answered and fails with the page's words if it was refused. */
async function hostSaid(page, what) {
  const said = page.locator('.notice.ok, .notice.error').first();
  await said.waitFor({ timeout: 30000 });
  const cls = await said.getAttribute('class');
  assert.ok(cls.includes('ok'), `${what}: the page said "${await said.innerText()}"`);
}

test('tournaments: two players play a round from their links, the standings and bracket update, the host pauses and adjudicates', async () => {
  // Seeds 1 and 4 (Ann and Bo, people) meet in round one; 2 and 3 are bots.
  const c = await apiTournament({
    name: 'Four', game: 'goofspiel', options: { cards: '4' }, time: { kind: 'untimed' },
    format: { kind: 'single_elimination' },
    players: [{ name: 'Ann' }, { name: 'Cy', bot: 'random' }, { name: 'Dee', bot: 'random' }, { name: 'Bo' }],
  });
  const id = c.id;
  const tokenOf = (name) => c.links.players.find((p) => p.name === name).link.split('#player=')[1];
  const people = [];
  for (const name of ['Ann', 'Bo']) {
    const page = await newPage(SIZES.laptop);
    await page.goto(`${BASE}/t/${id}#player=${tokenOf(name)}`);
    const go = page.locator('#you a', { hasText: 'Go to your table' });
    await go.waitFor({ timeout: 20000 });
    const seat = (await waitView(id, tokenOf(name), (v) => v.you?.current?.seat, 'a seat')).you.current.seat;
    await go.click();
    await join(page, name);
    people.push({ page, seat, name });
  }
  for (let i = 0; i < 100; i++) {
    let over = 0;
    for (const { page, seat } of people) {
      if ((await page.evaluate(() => document.body.dataset.status)) === 'finished') { over += 1; continue; }
      if ((await page.locator(`[data-testid=status-${seat}]`).textContent()) === 'to move') await clickAMove(page);
    }
    if (over === people.length) break;
    await people[0].page.waitForTimeout(100);
  }
  assert.equal(await people[0].page.evaluate(() => document.body.dataset.status), 'finished');
  // Back at Ann's page: the result, the standings, the bracket's first round.
  const ann = people[0].page;
  await ann.goto(`${BASE}/t/${id}#player=${tokenOf('Ann')}`);
  await ann.locator('#you').waitFor();
  const round1 = await waitView(id, null, (v) => v.rounds[0]?.complete, 'round one complete');
  const winner = round1.rounds[0].boards.find((b) => [b.p1.name, b.p2.name].includes('Ann'));
  const annWon = winner[winner.result].name === 'Ann';
  await ann.waitForFunction((w) => document.querySelector('#you')?.textContent.includes(w ? 'you won' : 'you lost'), annWon, { timeout: 10000 });
  const row = ann.locator('#standings tbody tr', { hasText: annWon ? 'Ann' : 'Bo' });
  assert.match(await row.innerText(), /\b1\/0\/0\b/);
  assert.ok(await ann.locator('#bracket .bracket-game').count() >= 2);
  // The host adjudicates the final with a reason; it is logged and shown.
  const final = await waitView(id, c.admin_token, (v) => v.rounds.length === 2 && v.rounds[1].boards[0].match, 'the final');
  // The round's winner joins the final; the host pauses it from the Host panel.
  const finalist = annWon ? 'Ann' : 'Bo';
  const fp = people[annWon ? 0 : 1].page;
  await fp.goto(`${BASE}/t/${id}#player=${tokenOf(finalist)}`);
  const go = fp.locator('#you a', { hasText: 'Go to your table' });
  await go.waitFor({ timeout: 20000 });
  await go.click();
  await join(fp, finalist);
  const host = await newPage(SIZES.laptop);
  await host.goto(`${BASE}/t/${id}#admin=${c.admin_token}`);
  await host.locator('#h-p-action').waitFor();
  await host.locator('#h-p-action').selectOption('pause');
  await host.getByRole('button', { name: 'Apply' }).click();
  await hostSaid(host, 'pausing the final');
  const paused = await (await fetch(`${BASE}/api/matches/${final.rounds[1].boards[0].match}`)).json();
  assert.equal(paused.paused, true, 'the final is paused');
  await host.goto(`${BASE}/t/${id}#admin=${c.admin_token}`);
  await host.locator('#h-a-reason').waitFor();
  await host.locator('#h-a-result').selectOption('p2');
  await host.locator('#h-a-reason').fill('decided by the host');
  await host.getByRole('button', { name: 'Adjudicate' }).click();
  await hostSaid(host, 'adjudicating the final');
  const done = await waitView(id, c.admin_token, (v) => v.status === 'finished', 'the end');
  assert.equal(done.standings[0].name, final.rounds[1].boards[0].p2.name);
  assert.ok(done.log.some((e) => e.how?.reason === 'decided by the host'));
  await host.goto(`${BASE}/t/${id}#admin=${c.admin_token}`);
  await host.waitForFunction(() => document.querySelector('#rounds')?.textContent.includes('adjudicated: decided by the host'));
  assert.equal((await host.locator('#standings tbody tr').first().innerText()).includes(done.standings[0].name), true);
  for (const { page } of people) assert.deepEqual(page.errors, []);
  assert.deepEqual(host.errors, []);
  for (const p of [...people.map((x) => x.page), host]) await p.context().close();
});

test('the analysis after the game: Analyse on a replay, the evaluation graph, a point (click or keyboard) to its position with the move played beside the engine\'s choice, the shareable link, axe', async () => {
  const id = finished.goofspiel;
  assert.ok(id, 'a Goofspiel match finished earlier in this run');
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}/replay/${id}`);
  await page.locator('#analyse').click();
  await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 180000 });
  const result = await (await fetch(`${BASE}/api/matches/${id}/analysis`)).json();
  assert.equal(result.status, 'done');
  const last = result.games[result.games.length - 1];
  const points = page.locator('#analysis-graph .eval-point');
  assert.equal(await points.count(), last.decisions.length, 'one point per decision');
  // The keyboard: the third point, Enter.
  await points.nth(2).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (document.querySelector('#analysis-detail h3')?.textContent || '').startsWith('Decision 3:'));
  assert.equal(await page.evaluate(() => document.body.dataset.frame), String(last.decisions[2].step), 'the replay shows the position of decision 3');
  const rows = await page.locator('#analysis-detail tbody tr').allInnerTexts();
  assert.equal(rows.length, last.decisions[2].seats.length);
  for (const [i, seat] of last.decisions[2].seats.entries()) {
    assert.ok(rows[i].includes(seat.played) && rows[i].includes(seat.recommended[0].move), `${rows[i]} shows ${seat.played} beside ${seat.recommended[0].move}`);
  }
  // A click on the first point.
  await points.nth(0).click();
  await page.waitForFunction(() => (document.querySelector('#analysis-detail h3')?.textContent || '').startsWith('Decision 1:'));
  assert.equal(await page.evaluate(() => document.body.dataset.frame), String(last.decisions[0].step));
  assert.equal(await page.locator('#analysis-share a').getAttribute('href'), `/replay/${id}?analysis`);
  assert.deepEqual(await axe(page), []);
  // The shared link opens with the analysis (cached by the server) on a phone.
  const shared = await newPage(SIZES.phone);
  await shared.goto(`${BASE}/replay/${id}?analysis`);
  await shared.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 30000 });
  assert.equal(await shared.locator('#analysis-graph .eval-point').count(), last.decisions.length);
  assert.deepEqual(await axe(shared), []);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(shared.errors, []);
  for (const p of [page, shared]) await p.context().close();
});

// ---------------------------------------------------------------- seasons and ratings (issue 20)

async function postJson(path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, data: await res.json() };
}

/** Screenshots of one part of a page (an element), at laptop and at phone size. */
async function partShots(page, selector, name) {
  const size = page.viewportSize();
  await page.locator(selector).screenshot({ path: joinPath(SHOTS, `${name}.png`) });
  await page.setViewportSize(SIZES.phone);
  await page.locator(selector).screenshot({ path: joinPath(SHOTS, `${name}-phone.png`) });
  await page.setViewportSize(size);
}

test('seasons: create one from /t, add a player, a season tournament rated by its results, ratings on both pages, a paused table, a rated match from the lobby; axe on the season page', async () => {
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}/t`);
  await page.locator('#seasons a', { hasText: 'Create a season' }).click();
  await page.locator('#s-name').fill('Browser Season');
  await page.locator('#s-players').fill('Ann\nBo\nCy\nDee');
  await page.getByRole('button', { name: 'Create the season' }).click();
  const adminLink = page.locator('ul.links a[href*="#admin="]');
  await adminLink.waitFor();
  assert.equal(await page.locator('ul.links a[href*="#player="]').count(), 4, 'one link per player');
  const seasonAdmin = await adminLink.getAttribute('href');
  const sid = /^\/s\/([A-Za-z0-9]+)#admin=/.exec(seasonAdmin)[1];
  const seasonToken = seasonAdmin.split('#admin=')[1];
  const found = { list: await axe(page) };
  // The host adds a player from the season's page.
  await page.goto(`${BASE}${seasonAdmin}`);
  await page.locator('#h-names').fill('Eve');
  await page.getByRole('button', { name: 'Add to the roster' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#roster li').length === 5);
  found.admin = await axe(page);
  // A tournament of the season, from the roster without Eve: single elimination.
  await page.locator('#h-t-name').fill('Season Cup');
  await page.locator('#h-t-game').selectOption('goofspiel');
  await page.locator('#h-t-format').selectOption('single_elimination');
  await page.locator('#host fieldset label', { hasText: 'Eve' }).locator('input').uncheck();
  await page.getByRole('button', { name: 'Create the tournament' }).click();
  const tAdmin = await page.locator('ul.links a[href^="/t/"][href*="#admin="]').getAttribute('href');
  const tid = /^\/t\/([A-Za-z0-9]+)#admin=/.exec(tAdmin)[1];
  const tToken = tAdmin.split('#admin=')[1];
  // Round one: the host's results (adjudicated games are rated).
  const r1 = await waitView(tid, tToken, (v) => v.rounds[0]?.boards.every((b) => b.match), 'round one\u2019s matches');
  assert.equal(r1.season.id, sid);
  for (const b of r1.rounds[0].boards) {
    const res = await postJson(`/api/tournaments/${tid}/adjudicate`, { round: 0, board: b.board, result: 'p1', reason: 'agreed' }, tToken);
    assert.equal(res.status, 200, JSON.stringify(res.data));
  }
  // The final: both finalists sit at their table; the host pauses it and the tables say so.
  const r2 = await waitView(tid, tToken, (v) => v.rounds[1]?.boards[0]?.match, 'the final');
  const tokenOf = (name) => r2.links.players.find((p) => p.name === name).link.split('#player=')[1];
  const finalists = [r2.rounds[1].boards[0].p1.name, r2.rounds[1].boards[0].p2.name];
  const tables = [];
  for (const name of finalists) {
    const p = await newPage(SIZES.laptop);
    await p.goto(`${BASE}/t/${tid}#player=${tokenOf(name)}`);
    const go = p.locator('#you a', { hasText: 'Go to your table' });
    await go.waitFor({ timeout: 20000 });
    await go.click();
    await join(p, name);
    tables.push(p);
  }
  const paused = await postJson(`/api/tournaments/${tid}/pause`, { round: 1, board: 0 }, tToken);
  assert.equal(paused.status, 200, JSON.stringify(paused.data));
  for (const p of tables) {
    await p.locator('#paused').waitFor({ state: 'visible', timeout: 10000 });
    assert.match(await p.locator('#paused').innerText(), /Paused by the host/);
  }
  assert.match(await tables[0].locator('#status').innerText(), /Paused by the host/);
  await postJson(`/api/tournaments/${tid}/resume`, { round: 1, board: 0 }, tToken);
  await tables[0].locator('#paused').waitFor({ state: 'hidden', timeout: 10000 });
  const fin = await postJson(`/api/tournaments/${tid}/adjudicate`, { round: 1, board: 0, result: 'p2', reason: 'agreed' }, tToken);
  assert.equal(fin.status, 200, JSON.stringify(fin.data));
  await waitView(tid, null, (v) => v.status === 'finished', 'the end');
  // The season's ratings: four players rated in Goofspiel, the champion first (two wins).
  const champion = finalists[1];
  const pub = await newPage(SIZES.laptop);
  await pub.goto(`${BASE}/s/${sid}`);
  await pub.waitForFunction(() => document.querySelectorAll('#ratings tbody tr').length === 4, null, { timeout: 15000 });
  const first = await pub.locator('#ratings tbody tr').first().innerText();
  assert.ok(first.includes(champion) && /\b2\/0\/0\b/.test(first), first);
  assert.ok(Number(/\t(\d+\.\d)\t/.exec(first)[1]) > 1500, first);
  assert.match(await pub.locator('#season-tournaments').innerText(), /Season Cup/);
  found.public = await axe(pub);
  // On a phone the ratings fit the width, with names, not seats.
  await pub.setViewportSize(SIZES.phone);
  await readsWell(pub, 'a season with ratings, phone');
  await pub.setViewportSize(SIZES.laptop);
  if (SHOTS) await shots(pub, 'season');
  // The tournament's page: its season, each player's rating in the standings, the bracket.
  const tp = await newPage(SIZES.laptop);
  await tp.goto(`${BASE}/t/${tid}`);
  await tp.locator('#season a').waitFor();
  await tp.locator('#standings th', { hasText: 'Rating' }).waitFor();
  assert.match(await tp.locator('#standings tbody tr').first().innerText(), /\u00b1/);
  found.tournament = await axe(tp);
  if (SHOTS) {
    await shots(tp, 'tournament');
    await partShots(tp, '#standings', 'tournament-standings');
    await partShots(tp, '#bracket', 'tournament-bracket');
  }
  // A rated match from the lobby: Cy's season link, Dee as the opponent; Cy lands at the table.
  const season = await (await fetch(`${BASE}/api/seasons/${sid}`, { headers: { authorization: `Bearer ${seasonToken}` } })).json();
  const cyLink = season.links.players.find((p) => p.name === 'Cy').link;
  const lobby = await newPage(SIZES.laptop);
  await lobby.goto(`${BASE}/`);
  await lobby.locator('#game').selectOption('goofspiel');
  await lobby.locator('#season-link').fill(`${BASE}${cyLink}`);
  await lobby.locator('#season-link').dispatchEvent('change');
  await lobby.locator('#season-opponent option', { hasText: 'Dee' }).waitFor({ state: 'attached' });
  await lobby.locator('#season-opponent').selectOption({ label: 'Dee' });
  await lobby.getByRole('button', { name: 'Start a rated match' }).click();
  await lobby.waitForURL(/\/m\/[A-Za-z0-9]+#seat=/);
  const after = await (await fetch(`${BASE}/api/seasons/${sid}`)).json();
  assert.equal(after.matches.length, 1);
  assert.deepEqual([after.matches[0].p1.name, after.matches[0].p2.name], ['Cy', 'Dee']);
  for (const p of [page, pub, tp, lobby, ...tables]) assert.deepEqual(p.errors, []);
  for (const p of [page, pub, tp, lobby, ...tables]) await p.context().close();
  const bad = Object.entries(found).filter(([, v]) => v.length);
  assert.deepEqual(bad, [], bad.map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`).join('\n'));
});

// ---------------------------------------------------------------- #18's last gaps

/** Plays by clicking until `ready(page)` holds at this seat's turn; false if the match ended. */
async function clickUntil(page, ready, max = 80) {
  for (let i = 0; i < max; i++) {
    if (!(await myTurn(page, 'p1'))) return false;
    if (await ready(page)) return true;
    const before = await page.evaluate(() => document.body.dataset.steps);
    await clickAMove(page);
    await page.waitForFunction((st) => document.body.dataset.steps !== st || document.querySelector('#message.error:not([hidden])'), before);
    assert.equal(await page.locator('#message.error:not([hidden])').count(), 0, await page.locator('#message').innerText());
  }
  return false;
}

const moveLines = (page) => page.locator('[data-testid=movelog] li').allInnerTexts();

for (const size of Object.keys(SIZES)) {
  test(`The Witch\u2019s Brew at ${size} size: a card is chosen by clicking it in the hand (select, preview, change, Clear, Submit); the log in words`, async () => {
    const { page } = await seatAt('witchs-brew', size);
    const cards = page.locator('#hand button.wb-card:not([disabled])');
    assert.ok(await clickUntil(page, async () => (await cards.count()) >= 2), 'a card decision with two cards or more');
    const st = await page.evaluate(() => document.body.dataset.steps);
    assert.match(await page.locator('[data-testid=wb-hint]').innerText(), /Click a card of yours/);
    const waiting = await page.locator('[data-testid=waiting-for]').innerText();
    assert.doesNotMatch(waiting, /`|such as|\bp[12]\b/, `what the game waits for, in words: ${waiting}`);
    const held = await cards.evaluateAll((xs) => xs.map((x) => x.dataset.card));
    const button = (n) => page.locator(`#hand button.wb-card[data-card="${n}"]`);
    const NAMES = { 1: 'Snipe', 2: 'Lock', 3: 'Guess', 4: 'Copy', 5: 'Leap', 6: 'Freeze', 7: 'Shift', 8: 'Diminish' };
    // Select: the card is marked and previewed in words; nothing is sent.
    await button(held[0]).click();
    assert.equal(await button(held[0]).getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator('[data-testid=draft]').innerText(), new RegExp(`^${held[0]} ${NAMES[held[0]]}`));
    assert.match(await page.locator('[data-testid=wb-hint]').innerText(), new RegExp(`${held[0]} ${NAMES[held[0]]}.* chosen`));
    // Change: another card replaces it.
    await button(held[1]).click();
    assert.equal(await button(held[0]).getAttribute('aria-pressed'), 'false');
    assert.equal(await button(held[1]).getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator('[data-testid=draft]').innerText(), new RegExp(`^${held[1]} ${NAMES[held[1]]}`));
    // A second click takes it back; Clear empties a choice.
    await button(held[1]).click();
    assert.equal(await page.locator('[data-testid=draft]').count(), 0, 'a second click takes the card back');
    await button(held[0]).click();
    await page.locator('#clear-move').click();
    assert.equal(await page.locator('[data-testid=draft]').count(), 0, 'Clear empties the move');
    assert.equal(await page.locator('#hand button.wb-card[aria-pressed=true]').count(), 0);
    assert.equal(await page.evaluate(() => document.body.dataset.steps), st, 'no click sent anything');
    // A card with a choice (Lock's column, Guess's card) asks for it under the hand.
    const choosy = held.find((n) => n === '2' || n === '3');
    const simple = held.find((n) => !['2', '3', '6'].includes(n));
    const pick = choosy || simple || held[0];
    await button(pick).click();
    if (choosy) {
      assert.match(await page.locator('[data-testid=wb-choice]').innerText(), choosy === '2' ? /Lock: choose the column/ : /Guess: choose the card/);
      assert.match(await page.locator('[data-testid=draft]').innerText(), /\(choose/);
      await page.locator('[data-testid=wb-choice] button[data-choice]').first().click();
      assert.match(await page.locator('[data-testid=draft]').innerText(), choosy === '2' ? /must play in column [a-g]$/ : /you guess [1-8] [A-Z][a-z]+$/);
    }
    if (SHOTS && size === 'phone') await page.screenshot({ path: joinPath(SHOTS, 'witchs-brew-hand-phone.png') });
    const violations = await axe(page);
    assert.deepEqual(violations, [], violations.join('\n'));
    const words = await submitBuilt(page, 'a card from the hand');
    // The move log says it in the same words, under the player's name, once both cards are shown.
    await page.waitForFunction((w) => [...document.querySelectorAll('[data-testid=movelog] li')].some((li) => li.textContent.includes(`Ada: ${w}`)), words, { timeout: 20000 });
    const lines = await moveLines(page);
    for (const l of lines) assert.doesNotMatch(l, /: (\d [a-g]|dup \d|[a-g]\d [a-g]\d|[a-g]\d (up|down|left|right))( |$)/, `a move shown as a code: ${l}`);
    // More rounds: stones on the grid are logged in words too.
    await clickUntil(page, async () => (await moveLines(page)).some((l) => /a stone on [a-g]\d/.test(l)), 30);
    assert.ok((await moveLines(page)).some((l) => /(Ada|Computer: random moves|bot random): a stone on [a-g]\d/.test(l)), (await moveLines(page)).join('\n'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('Galespiel on a phone: while building, every free spot\u2019s touch target holds a 44x44 px square; a bridge built from the board; the log in words', async () => {
  const { page } = await seatAt('galespiel', 'phone');
  // Bid the highest card until this seat wins a round and builds.
  let building = false;
  for (let i = 0; i < 40 && !building; i++) {
    assert.ok(await myTurn(page, 'p1'), 'the match runs until a build');
    if (await page.locator('#board .spot.clickable').count()) { building = true; break; }
    const before = await page.evaluate(() => document.body.dataset.steps);
    const moves = await page.locator('#hand button[data-move]:not([disabled])').evaluateAll((xs) => xs.map((x) => x.dataset.move));
    const numeric = moves.filter((m) => /^\d+$/.test(m)).sort((a, b) => b - a);
    if (numeric.length) await play(page, numeric[0]);
    else await clickAMove(page);
    await page.waitForFunction((st) => document.body.dataset.steps !== st || document.querySelector('#message.error:not([hidden])'), before);
  }
  assert.ok(building, 'a build step within 40 moves');
  // The lattice fits the phone while building too (both edges in view); the Zoom toggle enlarges it.
  assert.equal(await page.locator('[data-testid=gale-zoom]').count(), 0, 'fitted to the width until zoomed');
  const fit = await page.evaluate(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return [r.left, r.right, innerWidth]; });
  assert.ok(fit[0] >= 0 && fit[1] <= fit[2], `the fitted lattice is inside the screen: ${fit}`);
  await page.locator('[data-testid=gale-zoom-toggle]').click();
  assert.equal(await page.locator('[data-testid=gale-zoom-toggle]').getAttribute('aria-pressed'), 'true');
  assert.ok(await page.locator('[data-testid=gale-zoom]').count(), 'the lattice is enlarged once zoomed');
  // Every free spot: a 44x44 px square around it (corners and centre) hits that spot alone.
  const { n, bad } = await page.evaluate(() => {
    const out = [];
    let count = 0;
    for (const g of document.querySelectorAll('#board .spot.clickable')) {
      g.scrollIntoView({ block: 'center', inline: 'center' });
      const c = g.querySelector('.spot-free').getBoundingClientRect();
      const [x, y] = [c.x + c.width / 2, c.y + c.height / 2];
      for (const [dx, dy] of [[0, 0], [-21.9, -21.9], [21.9, -21.9], [-21.9, 21.9], [21.9, 21.9], [0, -21.9], [21.9, 0]]) {
        const hit = document.elementFromPoint(x + dx, y + dy)?.closest('[data-cell]');
        if (hit !== g) out.push(`${g.dataset.cell} (${dx}, ${dy}): ${hit?.dataset.cell ?? 'nothing'}`);
      }
      count += 1;
    }
    return { n: count, bad: out };
  });
  assert.ok(n > 40, `free spots: ${n}`);
  assert.deepEqual(bad, [], `points of a spot's 44x44 square that miss it:\n${bad.slice(0, 10).join('\n')}`);
  // A spot chosen on the board stays where it was (the enlarged lattice keeps its scroll).
  const legal = await page.evaluate(() => [...document.querySelectorAll('#legal button[data-move]')].map((b) => b.dataset.move));
  const spot = legal.filter((m) => /^[a-m]\d+$/.test(m))[0];
  assert.ok(spot, `an affordable single bridge: ${legal.join(' ')}`);
  const target = page.locator(`#board .spot.clickable[data-cell="${spot}"]`);
  // The "Connected." notice hides 1.5 s after the socket opens and moves what is below it: not a jump.
  await page.waitForFunction(() => document.querySelector('#connection')?.hidden);
  await target.scrollIntoViewIfNeeded();
  const before = await target.boundingBox();
  await target.click();
  assert.match(await page.locator('[data-testid=build-hint]').innerText(), new RegExp(`Chosen: ${spot}\\b`));
  await page.waitForTimeout(100);
  const after = await page.locator(`#board .spot[data-cell="${spot}"]`).boundingBox();
  assert.ok(Math.abs(after.x - before.x) < 2 && Math.abs(after.y - before.y) < 2, `the board did not jump: ${JSON.stringify([before, after])}`);
  assert.match(await page.locator('[data-testid=draft]').innerText(), new RegExp(`^build a bridge on ${spot}$`));
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'galespiel-build-phone.png') });
  const violations = await axe(page);
  assert.deepEqual(violations, [], violations.join('\n'));
  const st = await page.evaluate(() => document.body.dataset.steps);
  await page.locator('#submit-move').click();
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  await page.waitForFunction((s) => [...document.querySelectorAll('[data-testid=movelog] li')].some((li) => li.textContent.includes(`Ada: build a bridge on ${s}`)), spot);
  const lines = await moveLines(page);
  assert.ok(lines.some((l) => /Ada: bid \d+/.test(l)), `bids in words: ${lines.join('\n')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a rematch against a friend: the friend\u2019s table offers it ("Ann offers a rematch"), both land at their seats, a spectator is shown it', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  const a = await newPage(SIZES.laptop);
  await a.goto(`${BASE}${c.links.p1}`);
  await join(a, 'Ann');
  const b = await newPage(SIZES.phone);
  await b.goto(`${BASE}${c.links.p2}`);
  await join(b, 'Bob');
  const watcher = await newPage(SIZES.laptop);
  await watcher.goto(`${BASE}${c.links.spectator}`);
  await b.waitForFunction(() => document.body.dataset.status === 'live');
  await b.locator('#more summary').click(); // Resign is in the More menu, never beside Submit
  await b.locator('#resign').click();
  await b.locator('#resign-yes').click();
  for (const p of [a, b, watcher]) await p.waitForFunction(() => document.body.dataset.status === 'finished');
  assert.equal(await b.locator('#rematch-offer').isHidden(), true, 'no offer before one is made');
  // Ann asks for a rematch and lands at her new seat (p2), joined.
  await a.locator('#rematch').click();
  await a.waitForURL((u) => u.pathname !== `/m/${c.id}` && u.hash.startsWith('#seat='), { timeout: 10000 });
  const fresh = new URL(a.url()).pathname.split('/')[2];
  // Bob's table is told, with his own seat, in the first viewport.
  await b.waitForFunction(() => !document.querySelector('#rematch-offer')?.hidden);
  assert.match(await b.locator('#rematch-offer').innerText(), /^Ann offers a rematch \(seats swapped\) \u2014 Take your seat$/);
  await assertInFirstViewport(b, '#rematch-take');
  assert.match(await b.locator('#rematch-take').getAttribute('href'), new RegExp(`^/m/${fresh}#seat=[0-9a-f]+$`));
  await watcher.waitForFunction(() => !document.querySelector('#rematch-offer')?.hidden);
  assert.match(await watcher.locator('#rematch-offer').innerText(), /^Ann offered a rematch \(seats swapped\)\. Watch it$/);
  assert.equal(await watcher.locator('#rematch-watch').getAttribute('href'), `/m/${fresh}`);
  if (SHOTS) await b.screenshot({ path: joinPath(SHOTS, 'rematch-offer-phone.png') });
  const violations = await axe(b);
  assert.deepEqual(violations, [], violations.join('\n'));
  // Bob takes his seat: joined as Bob at p1; the match starts on both pages.
  await b.locator('#rematch-take').click();
  await b.waitForURL((u) => u.pathname === `/m/${fresh}` && u.hash.startsWith('#seat='));
  for (const p of [a, b]) await p.waitForFunction(() => document.body.dataset.status === 'live');
  assert.equal(await b.locator('#join').isHidden(), true, 'no second Join');
  assert.match(await b.locator('[data-seat=p1] .seat-name').innerText(), /^Bob/);
  assert.match(await a.locator('[data-seat=p2] .seat-name').innerText(), /^Ann/);
  // Back on the finished table, Ann's own seat link points to her new seat.
  const old = await newPage(SIZES.laptop);
  await old.goto(`${BASE}${c.links.p1}`);
  await old.waitForFunction(() => !document.querySelector('#rematch-offer')?.hidden);
  assert.match(await old.locator('#rematch-offer').innerText(), /^You offered a rematch \(seats swapped\); Bob\u2019s table shows it\. Go to your seat$/);
  assert.equal(await old.locator('#rematch-go').getAttribute('href'), new URL(a.url()).pathname + new URL(a.url()).hash);
  for (const p of [a, b, watcher, old]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, watcher, old]) await p.context().close();
});

test('a Swiss shows the pairing rules the code states; a season tournament takes a roster player\u2019s season link and a newcomer by its registration link', async () => {
  const post = async (path, body, token) => {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const data = await res.json();
    assert.equal(res.status, 201, JSON.stringify(data));
    return data;
  };
  const s = await post('/api/seasons', { name: 'Open season', players: ['Ann', 'Bo'] });
  const bo = s.links.players[1].link;
  const t = await post('/api/tournaments', { name: 'Open Swiss', game: 'goofspiel', season: s.id, format: { kind: 'swiss', rounds: 2 },
    registration: true, cap: 4, players: [{ season_player: 0 }] }, s.admin_token);
  const page = await newPage();
  await page.goto(`${BASE}${t.links.register}`);
  const rules = page.locator('#rules ol.pairing-rules li');
  await rules.first().waitFor();
  assert.equal(await rules.count(), 7);
  assert.match(await rules.nth(4).innerText(), /1st v 5th, 2nd v 6th/);
  await page.getByLabel('Or, on the season\u2019s roster: your season link').fill(`${BASE}${bo}`);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByText('You are in.').waitFor();
  await page.locator('#you').waitFor();
  const other = await newPage({ width: 390, height: 844 });
  await other.goto(`${BASE}${t.links.register}`);
  await other.getByLabel('Your name (new to the season)').fill('Cy');
  await other.getByRole('button', { name: 'Register' }).click();
  await other.getByText('You joined the season too').waitFor();
  assert.match(await other.locator('.notice.ok a').getAttribute('href'), new RegExp(`^/s/${s.id}#player=`));
  const season = await (await fetch(`${BASE}/api/seasons/${s.id}`)).json();
  assert.deepEqual(season.players.map((p) => p.name), ['Ann', 'Bo', 'Cy']);
  for (const p of [page, other]) assert.deepEqual(p.errors, []);
  for (const p of [page, other]) await p.context().close();
});

// ---------------------------------------------------------------- balance reports on the rules page (issue 21)

test('balance: the rules page shows the game\'s latest balance report (run.sh writes one for Goofspiel) with its intervals and plots; none for a game without one; axe', async () => {
  const res = await fetch(`${BASE}/api/games/goofspiel/balance`);
  assert.equal(res.status, 200, 'run.sh writes a Goofspiel balance report under --balance-dir');
  const data = await res.json();
  const page = await newPage(SIZES.laptop);
  await page.goto(`${BASE}/rules/goofspiel`);
  const section = page.locator('[data-testid=balance]');
  await section.waitFor();
  assert.match(await section.innerText(), new RegExp(`played Goofspiel against itself: ${data.report.points[0].games} games`));
  const rows = await page.locator('[data-testid=balance-table] tbody tr').allInnerTexts();
  assert.equal(rows.length, data.report.points.length, 'one row per option value');
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const p = data.report.points[0];
  for (const i of [p.first_seat_wins, p.first_seat_score, p.draw_rate]) {
    const text = `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;
    assert.ok(rows[0].includes(text), `${rows[0]} shows ${text}`);
  }
  for (const name of ['shares', 'endings', 'length']) {
    const img = page.locator(`[data-testid=balance-plot-${name}]`);
    assert.equal(await img.getAttribute('src'), data.plots[name]);
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => {
      const el = document.querySelector(`[data-testid=balance-plot-${n}]`);
      return el && el.complete && el.naturalWidth > 0;
    }, name);
  }
  if (SHOTS) await section.screenshot({ path: joinPath(SHOTS, 'balance.png') });
  assert.deepEqual(await axe(page), []);
  // A game without a report: no card.
  await page.goto(`${BASE}/rules/thwart-omega`);
  await page.locator('article.rules').waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('[data-testid=balance]').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Galespiel\u2019s research variant (size 5): the table draws the 5 x 5 lattice and its 5 spots', async () => {
  const { page } = await seatAt('galespiel', 'laptop', { options: { size: 5, prizes: '3 4 5', draw: 'fixed', hand: 3, rounds: 3 } });
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  await page.locator('#board .spot').first().waitFor();
  assert.deepEqual(await page.locator('#board .spot').evaluateAll((xs) => xs.map((x) => x.dataset.cell)), ['b2', 'd2', 'c3', 'b4', 'd4']);
  assert.equal(await page.locator('#board text.axis').count(), 10, 'columns a..e and rows 1..5');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ----- issue 37's bugs at the table and the keyboard path -----

/** Collects a page's console errors (a failed request is one: "Failed to load resource"). */
function consoleErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} ${m.location()?.url || ''}`); });
  return errors;
}

test('the table shows no "null" in the Share panel (live and finished), and a Thwart Omega spectator no empty Hands panel', async () => {
  const { page } = await seatAt('goofspiel', 'laptop', { options: { cards: '4' } });
  assert.ok(await myTurn(page, 'p1'));
  const share = page.locator('#share');
  await share.waitFor();
  assert.doesNotMatch(await share.innerText(), /\bnull\b|undefined/, 'live');
  await playToEnd(page, 'p1', { game: 'goofspiel' });
  await page.locator('[data-testid=result-head]').waitFor();
  assert.doesNotMatch(await share.innerText(), /\bnull\b|undefined/, 'finished');
  assert.doesNotMatch(await page.locator('main').innerText(), /\bnull\b|undefined/);
  // The finished Goofspiel board says how it ended, with no prize card.
  assert.equal(await page.locator('#board .prize-value').count(), 0);
  assert.match(await page.locator('#board').innerText(), /The game is over after 4 prizes/);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const c = await apiCreate({ game: 'thwart-omega', options: { size: '5' }, time: { kind: 'untimed' }, seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }] });
  const watcher = await newPage(SIZES.phone);
  await watcher.goto(`${BASE}/m/${c.id}`);
  await watcher.locator('#board [data-cell]').first().waitFor();
  assert.equal(await watcher.locator('#hand:visible').count(), 0, 'no Hands panel without a hand');
  assert.doesNotMatch(await watcher.locator('main').innerText(), /Hands/);
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
});

test('keyboard: after choosing a card with Enter, Submit is the next Tab stop and Enter sends; All-In builds a play with the arrows', async () => {
  const { page } = await seatAt('goofspiel', 'phone', { options: { cards: '8' } });
  assert.ok(await myTurn(page, 'p1'));
  const st = await page.evaluate(() => document.body.dataset.steps);
  await page.locator('#hand button[data-move="3"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-testid=draft]').innerText(), '3');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.move), '3', 'the focus stays on the chosen card');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'submit-move', 'one Tab from the chosen card to Submit');
  assert.equal(await page.evaluate(() => document.body.dataset.steps), st, 'nothing sent before Submit');
  await page.keyboard.press('Enter');
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.match(await page.locator('#reveal').innerText(), /you played 3/i);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const allIn = await seatAt('all-in-goofspiel', 'laptop', { options: { first: 'p1' } });
  const p = allIn.page;
  assert.ok(await myTurn(p, 'p1'));
  const first = p.locator('#hand button[data-card]:not([disabled])').first();
  const a = await first.getAttribute('data-card');
  await first.focus();
  await p.keyboard.press('Enter');
  await p.keyboard.press('ArrowRight');
  const b = await p.evaluate(() => document.activeElement?.dataset.card);
  assert.ok(b && b !== a, 'Right moves to the next card');
  await p.keyboard.press('Enter');
  assert.equal(await p.locator('[data-testid=draft]').innerText(), `${a} ${b}`);
  await p.keyboard.press('Tab');
  assert.equal(await p.evaluate(() => document.activeElement?.id), 'submit-move');
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('every rules page loads without a console error (no 404 for a balance report it does not have)', async () => {
  const page = await newPage(SIZES.laptop);
  const errors = consoleErrors(page);
  for (const game of GAMES) {
    await page.goto(`${BASE}/rules/${game}`);
    await page.locator('article.rules').waitFor();
    await page.waitForLoadState('networkidle');
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every game\u2019s board fits a 390 px phone and a laptop: no sideways scroll, Galespiel\u2019s two edges and row labels in view, its words explained', async () => {
  for (const size of ['phone', 'laptop']) {
    for (const game of GAMES) {
      const { page } = await seatAt(game, size);
      await page.waitForFunction(() => document.body.dataset.status === 'live');
      await page.locator('#board svg').first().waitFor();
      const m = await page.evaluate(() => {
        const board = document.querySelector('#board');
        const svg = board.querySelector('svg').getBoundingClientRect();
        return { doc: document.documentElement.scrollWidth, width: innerWidth, scroll: board.scrollWidth, client: board.clientWidth, left: svg.left, right: svg.right };
      });
      assert.ok(m.scroll <= m.client, `${game} at ${size}: the board scrolls sideways (${m.scroll} > ${m.client})`);
      assert.ok(m.doc <= m.width, `${game} at ${size}: the page scrolls sideways (${m.doc} > ${m.width})`);
      assert.ok(m.left >= 0 && m.right <= m.width, `${game} at ${size}: the board is cut (${m.left}..${m.right} of ${m.width})`);
      if (game === 'galespiel') {
        // Column labels a and m (both of Brown's edges) and row labels 1 and 13 (Blue's) on screen.
        const labels = await page.evaluate(() => [...document.querySelectorAll('#board svg text.axis')]
          .filter((t) => /^(a|m|1|13)$/.test(t.textContent)).map((t) => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right]; }));
        for (const want of ['a', 'm', '1', '13']) assert.ok(labels.some(([t]) => t === want), `the label ${want}`);
        for (const [t, l, r] of labels) assert.ok(l >= 0 && r <= m.width, `${size}: the label ${t} is off screen (${l}..${r})`);
        const legend = page.locator('#board [data-testid=glossary]');
        assert.ok(await legend.isVisible(), 'the legend is shown');
        assert.match(await legend.innerText(), /\bM: materials\b/);
      }
      if (game === 'witchs-brew') {
        assert.match(await page.locator('#board [data-testid=glossary]').innerText(), /VP: victory points.*MM1, DM1, FM1: the Cauldron/s);
        assert.match(await page.locator('[data-testid=wb-phase-note]').textContent(), /^Cauldron round \d+ of 22 \((MM|DM|FM)\d+\)|^Intermission/);
      }
      if (SHOTS && size === 'phone') await page.locator('#board').screenshot({ path: joinPath(SHOTS, `board-fits-${game}-phone.png`) });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});

// ---------------------------------------------------------------- issue 37: words, not seats; the replay with its analysis; tournaments that end

const GAME_IDS = /\b(goofspiel|square-goofspiel|all-in-goofspiel|thwart-omega|galespiel|witchs-brew)\b/;

/** What a person reads and can reach on the page: its width against the window's, the visible
 *  text outside code and examples, and the targets smaller than `min` px. Graph points (SVG)
 *  are left out: the decision buttons beside the graph are their targets of full size; links
 *  inside a sentence (prose, a rules page) are too, as WCAG's inline exception says. */
async function pageFacts(page, min) {
  return page.evaluate((least) => {
    const doc = document.documentElement;
    const visible = (el) => el && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.parentElement.closest('pre, code, script, style, option, ul.links') || !visible(n.parentElement) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode.data);
    const inline = (el) => {
      if (el.tagName !== 'A') return false;
      if (el.closest('article.rules, .hint, .muted')) return true;
      const p = el.parentElement;
      return p.tagName === 'P' && p.textContent.trim().length > el.textContent.trim().length + 2 && !p.matches('main > p');
    };
    const small = [...document.querySelectorAll('a[href], button, select, input:not([type=hidden]), summary, [role=tab]')]
      .filter((el) => visible(el) && !inline(el))
      // A radio button or a checkbox is reached through its label.
      .map((el) => ({ el, r: ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label') || el).getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.width < least || r.height < least))
      .map(({ el, r }) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${el.textContent.trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    return { scrollWidth: doc.scrollWidth, width: doc.clientWidth, text: texts.join(' '), small };
  }, min);
}

/** The page fits its width, names no seat id, shows no null/undefined/game id/match id, and its
 *  targets are at least 44 px on a phone (24 px on a laptop). */
async function readsWell(page, what, { matchIds = [] } = {}) {
  const phone = page.viewportSize().width <= 400;
  const f = await pageFacts(page, phone ? 44 : 24);
  assert.ok(f.scrollWidth <= f.width, `${what}: no sideways scroll (${f.scrollWidth} px wide in ${f.width})`);
  const seat = /.{0,40}\b(p1|p2|null|undefined)\b.{0,40}/.exec(f.text);
  assert.equal(seat, null, `${what}: no seat id, null or undefined in what is shown: "${seat?.[0]}"`);
  const id = GAME_IDS.exec(f.text);
  assert.equal(id, null, `${what}: game names, not ids: "${id?.[0]}"`);
  for (const m of matchIds) assert.ok(!f.text.includes(m), `${what}: no match id (${m}) in the text`);
  assert.deepEqual(f.small, [], `${what}: targets of at least ${phone ? 44 : 24} px`);
}

/** A finished match between two bots (4 cards of Goofspiel): its id. */
async function botMatch() {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, seats: [{ kind: 'bot', level: 'random' }, { kind: 'bot', level: 'heuristic' }], time: { kind: 'untimed' } });
  for (let i = 0; i < 100; i++) {
    const st = await (await fetch(`${BASE}/api/matches/${c.id}`)).json();
    if (st.status === 'finished') return c.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bots did not finish');
}

test('the replay with its analysis: the graph beside the board and above the moves on a laptop, its own tab on a phone; names, not seats; no sideways scroll; axe', async () => {
  const id = await botMatch();
  const laptop = await newPage(SIZES.laptop);
  await laptop.goto(`${BASE}/replay/${id}?analysis`);
  await laptop.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 120000 });
  await laptop.locator('#analysis-detail h3').waitFor();
  const box = async (p, sel) => p.locator(sel).first().boundingBox();
  const board = await box(laptop, '.board-box');
  const graph = await box(laptop, '#analysis-graph svg');
  const moves = await box(laptop, '#move-list');
  assert.ok(graph.x >= board.x + board.width, `the graph is beside the board (${graph.x} vs ${board.x + board.width})`);
  assert.ok(graph.y < SIZES.laptop.height, `the graph is in the first viewport (top ${graph.y})`);
  assert.ok(Math.abs(moves.x - graph.x) < 60 && moves.y > graph.y, 'the moves are in the graph\u2019s column, under it');
  assert.equal(await laptop.locator('[role=tablist]').isVisible(), false, 'no tabs on a laptop');
  const text = await laptop.locator('main').innerText();
  assert.match(text, /Computer: rule of thumb/);
  assert.doesNotMatch(text, /bot heuristic|bot random|\bp1 expects/);
  assert.match(await laptop.locator('#analysis-detail h3').innerText(), /^Decision \d+: Computer: random moves\u2019s expected score: \d+%$/);
  await readsWell(laptop, 'replay with analysis, laptop', { matchIds: [id] });
  assert.deepEqual(await axe(laptop), []);
  if (SHOTS) await laptop.screenshot({ path: joinPath(SHOTS, 'replay-analysis.png') });

  const phone = await newPage(SIZES.phone);
  await phone.goto(`${BASE}/replay/${id}?analysis`);
  await phone.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 30000 });
  // The shared link opens on the Analysis tab: the graph, not the board.
  assert.equal(await phone.locator('#tab-analysis').getAttribute('aria-selected'), 'true');
  assert.ok(await phone.locator('#analysis-graph svg').isVisible());
  assert.equal(await phone.locator('.board-box').isVisible(), false, 'the board is in the other tab');
  const graphTop = (await box(phone, '#analysis-graph svg')).y;
  assert.ok(graphTop < SIZES.phone.height, `the graph is in the first viewport (top ${graphTop})`);
  const region = await phone.locator('.analysis-decision').evaluate((el) => [el.scrollWidth, el.clientWidth]);
  assert.ok(region[0] <= region[1], `the decision fits its box (${region[0]} in ${region[1]})`);
  await readsWell(phone, 'replay with analysis, phone (Analysis tab)', { matchIds: [id] });
  assert.deepEqual(await axe(phone), []);
  if (SHOTS) await phone.screenshot({ path: joinPath(SHOTS, 'replay-analysis-phone.png'), fullPage: true });
  // The decision buttons step through the decisions; "Show this position" goes to the board.
  const first = await phone.locator('#analysis-detail h3').innerText();
  await phone.locator('#decision-next').click();
  await phone.waitForFunction((t) => document.querySelector('#analysis-detail h3')?.textContent !== t, first);
  const analysis = await (await fetch(`${BASE}/api/matches/${id}/analysis`)).json();
  const n = Number(/^Decision (\d+):/.exec(await phone.locator('#analysis-detail h3').innerText())[1]);
  await phone.locator('#analysis-detail button.show-board').click();
  assert.equal(await phone.locator('#tab-board').getAttribute('aria-selected'), 'true');
  assert.ok(await phone.locator('.board-box').isVisible());
  assert.equal(await phone.locator('#analysis-graph svg').isVisible(), false);
  const decisions = analysis.games[analysis.games.length - 1].decisions;
  assert.equal(await phone.evaluate(() => document.body.dataset.frame), String(decisions[n - 1].step), 'the board shows that decision');
  await readsWell(phone, 'replay with analysis, phone (Board tab)', { matchIds: [id] });
  // The keyboard: the arrows move between the tabs.
  await phone.locator('#tab-board').focus();
  await phone.keyboard.press('ArrowRight');
  assert.equal(await phone.locator('#tab-analysis').getAttribute('aria-selected'), 'true');
  assert.deepEqual(laptop.errors, []);
  assert.deepEqual(phone.errors, []);
  for (const p of [laptop, phone]) await p.context().close();
});

test('a finished tournament leads with its winner and offers no Adjudicate or Pause; tournament and season pages read in names and game names and fit a phone; axe', async () => {
  const c = await apiTournament({
    name: 'Bots Open', game: 'goofspiel', options: { cards: '4' }, time: { kind: 'untimed' },
    format: { kind: 'swiss', rounds: 2 },
    players: [{ name: 'Ann', bot: 'random' }, { name: 'Bo', bot: 'heuristic' }, { name: 'Cy', bot: 'random' }, { name: 'Dee', bot: 'random' }],
  });
  const done = await waitView(c.id, c.admin_token, (v) => v.status === 'finished', 'the end');
  const top = done.standings.filter((s) => s.rank === done.standings[0].rank).map((s) => s.name);
  // A running one beside it, with people, for the host's controls.
  const running = await apiTournament({
    name: 'People Cup', game: 'goofspiel', options: { cards: '4' }, time: { kind: 'untimed' },
    format: { kind: 'single_elimination' }, players: [{ name: 'Eve' }, { name: 'Fay' }],
  });
  await waitView(running.id, running.admin_token, (v) => v.rounds[0]?.boards[0]?.match, 'the first round');
  const seasonRes = await fetch(`${BASE}/api/seasons`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Phone Season', players: ['Gil', 'Hal'] }) });
  const season = await seasonRes.json();
  assert.equal(seasonRes.status, 201, JSON.stringify(season));
  const sid = /^\/s\/([A-Za-z0-9]+)/.exec(season.links.admin)[1];
  const found = {};
  for (const size of ['laptop', 'phone']) {
    const page = await newPage(SIZES[size]);
    // The finished tournament, as its host sees it: the winner first, no controls.
    await page.goto(`${BASE}/t/${c.id}#admin=${c.admin_token}`);
    await page.locator('#winner').waitFor();
    const head = await page.locator('#winner h2').innerText();
    assert.equal(head, `${top.length > 1 ? 'Winners' : 'Winner'}: ${top.join(' and ')}`);
    const order = await page.evaluate(() => [...document.querySelectorAll('main section')].map((s) => s.id).filter(Boolean));
    assert.equal(order[0], 'winner', `the winner leads the page: ${order.join(', ')}`);
    assert.match(await page.locator('#winner').innerText(), new RegExp(`${done.standings[0].name}: \\d+(\\.5)? points?`));
    assert.equal(await page.getByRole('button', { name: 'Adjudicate' }).count(), 0, 'no Adjudicate once it is over');
    assert.equal(await page.locator('#h-p-action').count(), 0, 'no Pause once it is over');
    assert.equal(await page.getByRole('button', { name: /Start the/ }).count(), 0);
    assert.match(await page.locator('#rounds h3').first().innerText(), /^Round 2: Goofspiel$/);
    await readsWell(page, `finished tournament, host, ${size}`);
    found[`finished tournament ${size}`] = await axe(page);
    if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, `tournament-winner${size === 'phone' ? '-phone' : ''}.png`) });
    // The running one: the host's controls name the players, not the seats.
    await page.goto(`${BASE}/t/${running.id}#admin=${running.admin_token}`);
    await page.locator('#h-a-result').waitFor();
    const results = await page.locator('#h-a-result option').allTextContents();
    assert.deepEqual(results.slice(0, 2).sort(), ['Eve wins', 'Fay wins']);
    assert.equal(await page.locator('#winner').count(), 0, 'no winner while it runs');
    await readsWell(page, `running tournament, host, ${size}`);
    found[`running tournament ${size}`] = await axe(page);
    await page.goto(`${BASE}/t`);
    await page.locator('#t-name').waitFor();
    await readsWell(page, `tournaments list, ${size}`);
    found[`tournaments list ${size}`] = await axe(page);
    await page.goto(`${BASE}/s`);
    await page.locator('#s-name').waitFor();
    await readsWell(page, `seasons list, ${size}`);
    await page.goto(`${BASE}${season.links.players[0].link}`);
    await page.locator('#you').waitFor();
    assert.deepEqual(await page.locator('#r-seat option').allTextContents(), ['the first seat (moves first where it matters)', 'the second seat']);
    await readsWell(page, `a season player's page, ${size}`);
    found[`season player ${size}`] = await axe(page);
    await page.goto(`${BASE}/s/${sid}#admin=${season.links.admin.split('#admin=')[1]}`);
    await page.locator('#host').waitFor();
    await readsWell(page, `a season's host page, ${size}`);
    found[`season host ${size}`] = await axe(page);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  const bad = Object.entries(found).filter(([, v]) => v.length);
  assert.deepEqual(bad, [], bad.map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`).join('\n'));
});

test('the lobby names things: the seat in words, "Your seats" by game and opponent (no match id), finished matches\u2019 reasons with names; rules pages fit a phone', async () => {
  const page = await newPage(SIZES.phone);
  await page.goto(`${BASE}/`);
  await page.locator('#create').waitFor();
  assert.deepEqual(await page.locator('#seat option').allTextContents(), ['the first seat (moves first where it matters)', 'the second seat']);
  assert.deepEqual(await page.locator('#seat option').evaluateAll((os) => os.map((o) => o.value)), ['p1', 'p2'], 'the values stay p1/p2');
  await page.locator('#game').selectOption('goofspiel');
  await page.locator('#level').selectOption('mcts:easy');
  await page.locator('#name').fill('Ada');
  await page.getByRole('button', { name: 'Create match and take my seat' }).click();
  await page.waitForURL(/\/m\/[0-9a-f]+#seat=/);
  const id = new URL(page.url()).pathname.split('/')[2];
  await botMatch(); // a finished match in the lobby's list, with a reason
  await page.goto(`${BASE}/`);
  const mine = page.locator('#mine li a').first();
  await mine.waitFor();
  assert.equal(await mine.innerText(), 'Goofspiel against Computer: easy');
  assert.ok((await mine.getAttribute('href')).includes(id), 'the id stays in the link');
  await page.locator('#matches li').first().waitFor();
  await readsWell(page, 'lobby, phone', { matchIds: [id] });
  assert.deepEqual(page.errors, []);
  // The rules pages: no sideways scroll, targets of 44 px, seats in words in the prose.
  for (const game of GAMES) {
    await page.goto(`${BASE}/rules/${game}`);
    await page.locator('article.rules h2').first().waitFor();
    const f = await pageFacts(page, 44);
    assert.ok(f.scrollWidth <= f.width, `${game}: no sideways scroll (${f.scrollWidth})`);
    assert.deepEqual(f.small, [], `${game}: targets of at least 44 px`);
    const prose = await page.evaluate(() => {
      const a = document.querySelector('article.rules').cloneNode(true);
      a.querySelectorAll('pre, code, details.technical').forEach((x) => x.remove());
      return a.textContent;
    });
    assert.doesNotMatch(prose, /\bp[12]\b/, `${game}: the rules' prose names the seats in words`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
// ---------------------------------------------------------------- end of issue 37's words, replay and tournaments block

// ----- issue 37, the table in a player's hand (engineer A): the action bar, the score beside
// the names, waiting for a friend, the end, the chat after it, your move in another tab -----

/** Where the table's pieces are, at the current scroll: each selector's first visible element's
 *  rectangle, whether a click at its centre reaches it (not covered by the bar), the window's
 *  height and whether the page scrolls sideways; and the visible text of the table's own parts. */
async function tableLayout(page, selectors) {
  return page.evaluate((sels) => {
    const out = { h: window.innerHeight, w: window.innerWidth, sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth, at: {} };
    for (const [key, sel] of Object.entries(sels)) {
      const el = [...document.querySelectorAll(sel)].find((x) => x.checkVisibility() && x.getBoundingClientRect().width > 0);
      if (!el) { out.at[key] = null; continue; }
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      out.at[key] = { top: r.top, bottom: r.bottom, left: r.left, right: r.right, reached: !!hit && (hit === el || el.contains(hit)) };
    }
    const bar = document.querySelector('#actions');
    out.barTop = bar && bar.checkVisibility() ? bar.getBoundingClientRect().top : null;
    out.text = ['.table-head', '.players', '#actions', '#chat', '#fairness', '#result'].map((s) => document.querySelector(s))
      .filter((x) => x && x.checkVisibility()).map((x) => x.innerText).join('\n');
    return out;
  }, selectors);
}

/** Asserts a piece is wholly inside the window and a click reaches it. */
function inView(l, key, what) {
  const r = l.at[key];
  assert.ok(r, `${what}: ${key} is shown`);
  assert.ok(r.top >= 0 && r.bottom <= l.h + 0.5 && r.left >= 0 && r.right <= l.w + 0.5, `${what}: ${key} is inside the ${l.w}x${l.h} window (${Math.round(r.top)}..${Math.round(r.bottom)})`);
  assert.ok(r.reached, `${what}: ${key} is not covered (a click at its centre reaches it)`);
}

const TABLE_IDS = /\b(p1|p2|null|undefined)\b|square-goofspiel|all-in-goofspiel|thwart-omega|witchs-brew/;

for (const size of ['phone', 'laptop']) {
  test(`the action bar at ${size} size, every game against the random bot: the choice and Submit in the first viewport, both scores beside the names, no sideways scroll, Resign only in the More menu`, async () => {
    for (const game of GAMES) {
      const { page } = await seatAt(game, size);
      assert.ok(await myTurn(page, 'p1'), `${game}: Ada is to move`);
      await page.waitForTimeout(200); // the page lays itself out once the notices settle
      await page.evaluate(() => window.scrollTo(0, 0));
      const what = `${game} at ${size}`;
      const choice = '#hand button:not([disabled]), #legal .legal-list button, #board .clickable, #tools select';
      let l = await tableLayout(page, { choice, submit: '#submit-move', s1: '[data-testid=score-p1]', s2: '[data-testid=score-p2]' });
      inView(l, 'choice', what);
      inView(l, 'submit', what);
      inView(l, 's1', what);
      inView(l, 's2', what);
      assert.equal(l.sideways, false, `${what}: no sideways scroll`);
      assert.doesNotMatch(l.text, TABLE_IDS, `${what}: names, not seat ids, null or game ids`);
      // The players' boxes name the people, with their score; "(you)" marks this browser's seat.
      assert.match(await page.locator('[data-seat=p1] .seat-name').innerText(), /^Ada \(you\)$/);
      assert.match(await page.locator('[data-seat=p2] .seat-name').innerText(), /^Computer: random moves$/);
      assert.match(await page.locator('[data-testid=table-who]').innerText(), /^Ada \(you\) vs Computer: random moves/);
      // A board you click fits above the bar on a phone: every cell you may choose is reachable.
      if (size === 'phone' && game === 'thwart-omega') {
        const cells = await page.locator('#board .cell.clickable').evaluateAll((xs) => xs.map((x) => x.getBoundingClientRect().bottom));
        assert.ok(cells.length > 0);
        assert.ok(Math.max(...cells) <= l.barTop + 0.5, `${what}: the board's cells end at ${Math.round(Math.max(...cells))}, above the bar at ${Math.round(l.barTop)}`);
      }
      // On a phone the bar stays at the bottom wherever the page is scrolled.
      if (size === 'phone') {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        l = await tableLayout(page, { submit: '#submit-move', s1: '[data-testid=score-p1]', s2: '[data-testid=score-p2]' });
        inView(l, 'submit', `${what}, scrolled down`);
        inView(l, 's1', `${what}, scrolled down`);
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      // Resign is not beside Submit: it is in the More menu, with a confirmation.
      assert.equal(await page.locator('#resign').isVisible(), false, `${what}: no Resign button in sight`);
      assert.equal(await page.locator('#actions #resign, #move-form #resign').count(), 0, `${what}: Resign is not in the action bar`);
      await page.locator('#more summary').click();
      await page.locator('#resign').click();
      assert.match(await page.locator('.more-menu .confirm').innerText(), /Resign the match\?/);
      await page.locator('#resign-no').click();
      assert.equal(await page.locator('#resign').isVisible(), true, `${what}: No keeps the game on`);
      await page.locator('#more summary').click();
      assert.equal(await page.evaluate(() => document.body.dataset.status), 'live', `${what}: nothing resigned`);
      if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, `${game}-bar-${size}.png`) });
      assert.deepEqual(page.errors, [], what);
      await page.context().close();
    }
  });
}

test('waiting for a friend on a phone: the invite panel at the top, with the link, Copy, the system share sheet and a QR code', async () => {
  const page = await newPage(SIZES.phone);
  // The system share sheet, where the browser has one: recorded instead of opened.
  await page.addInitScript(() => { navigator.share = async (data) => { window.__shared = data; }; });
  await page.goto(`${BASE}/`);
  await page.locator('#game').selectOption('goofspiel');
  await page.locator('input[name=opponent][value=friend]').check();
  await page.locator('#name').fill('Ann');
  await page.locator('#create button[type=submit]').click();
  await page.waitForURL(/#seat=/);
  await page.locator('[data-testid=invite-qr]:visible').waitFor();
  const invite = await page.locator('[data-testid=invite-link]').inputValue();
  assert.match(invite, /\/m\/[0-9a-f]+#seat=/);
  await page.evaluate(() => window.scrollTo(0, 0));
  const l = await tableLayout(page, { panel: '#share', link: '[data-testid=invite-link]', copy: 'button[data-copy=invite-link]', share: '#share-invite', qr: '[data-testid=invite-qr]', board: '#board' });
  for (const k of ['link', 'copy', 'share', 'qr']) inView(l, k, 'the invite panel');
  assert.ok(l.at.panel.bottom <= l.at.board.top, 'the invite panel is above the board');
  assert.equal(l.sideways, false);
  // The QR code is the server's SVG of the invite link.
  const qr = await page.locator('[data-testid=invite-qr]').evaluate((img) => ({ src: img.src, w: img.naturalWidth, alt: img.alt }));
  assert.match(qr.src, /^data:image\/svg\+xml/);
  assert.ok(qr.w > 0, 'the QR code is drawn');
  const svg = await (await fetch(`${BASE}/api/qr`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: invite }) })).text();
  assert.equal(decodeURIComponent(qr.src.split(',').slice(1).join(',')), svg, 'the QR code of the invite link');
  await page.locator('#share-invite').click();
  assert.equal(await page.evaluate(() => window.__shared?.url), invite, 'Share hands the invite link to the share sheet');
  assert.doesNotMatch(await page.locator('main').innerText(), /invite link below/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], violations.join('\n'));
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'invite-phone.png') });
  // Where the browser has no share sheet, there is no Share button.
  const plain = await newPage(SIZES.laptop);
  await plain.addInitScript(({ id, invite: link }) => localStorage.setItem('colosseum.mine', JSON.stringify([{ id, invite: link, link: '' }])), { id: invite.split('/m/')[1].split('#')[0], invite });
  await plain.goto(page.url());
  await plain.locator('[data-testid=invite-qr]:visible').waitFor();
  assert.equal(await plain.locator('#share-invite').count(), 0);
  // Once the friend joins, the panel is the side column's Share panel, without the invite.
  const b = await newPage(SIZES.phone);
  await b.goto(invite);
  await join(b, 'Bob');
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  await page.waitForFunction(() => !document.querySelector('[data-testid=invite-qr]'));
  assert.equal(await page.locator('.side #share').count(), 1);
  for (const p of [page, plain, b]) assert.deepEqual(p.errors, []);
  for (const p of [page, plain, b]) await p.context().close();
});

test('the end where the player is: the result opens over the page with the score, Analyse and Replay; Escape docks it; the chat stays open for players and spectators', async () => {
  const { page, c } = await seatAt('goofspiel', 'phone', { options: { cards: '4' } });
  const watcher = await newPage(SIZES.laptop);
  await watcher.goto(`${BASE}/m/${c.id}`);
  for (let i = 0; i < 3; i++) {
    assert.ok(await myTurn(page, 'p1'));
    const before = await page.evaluate(() => document.body.dataset.steps);
    await clickAMove(page);
    await page.waitForFunction((st) => document.body.dataset.steps !== st, before);
  }
  assert.ok(await myTurn(page, 'p1'));
  // The last card is played from far down the page.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const scrolled = await page.evaluate(() => window.scrollY);
  assert.ok(scrolled > 100, 'the page is scrolled down');
  await page.locator('#hand button[data-move]:not([disabled])').first().click();
  await page.locator('#submit-move').click();
  await page.locator('#result.overlay [data-testid=result-head]').waitFor();
  await checkResult(page, 'p1');
  const l = await tableLayout(page, { head: '[data-testid=result-head]', close: '#result-close', analyse: '#analyse-link', replay: '#replay-link', rematch: '#rematch' });
  for (const k of ['head', 'close', 'analyse', 'replay', 'rematch']) inView(l, k, 'the result overlay');
  assert.ok(await page.evaluate(() => document.querySelector('#result').contains(document.activeElement)), 'the focus is in the result');
  const score = await page.locator('[data-testid=result-score]').innerText();
  assert.match(score, /Ada \d+ points?/);
  assert.match(score, /Computer: random moves \d+ points?/);
  assert.equal(await page.locator('#analyse-link').getAttribute('href'), `/replay/${c.id}?analysis`);
  assert.equal(await page.locator('#replay-link').getAttribute('href'), `/replay/${c.id}`);
  assert.doesNotMatch(l.text, TABLE_IDS);
  const violations = await axe(page);
  assert.deepEqual(violations, [], violations.join('\n'));
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'result-overlay-phone.png') });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#result').classList.contains('overlay'));
  assert.equal(await page.locator('[data-testid=result-head]').isVisible(), true, 'docked at the top, still there');
  // The chat after the game: a "gg" from the seat, a word from a spectator, each on its side.
  await page.locator('#chat-text').fill('gg');
  await page.locator('#chat-text').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=chat-lines]')?.textContent.includes('gg'));
  assert.match(await page.locator('[data-testid=chat-lines]').innerText(), /Ada: gg/);
  await watcher.waitForFunction(() => document.body.dataset.status === 'finished');
  assert.doesNotMatch((await tableLayout(watcher, {})).text, TABLE_IDS, 'a spectator reads names too');
  await watcher.locator('#result-close').click();
  await watcher.locator('#chat-name').fill('Zed');
  await watcher.locator('#chat-text').fill('well played');
  await watcher.locator('#chat-send').click();
  await watcher.waitForFunction(() => document.querySelector('[data-testid=chat-lines]')?.textContent.includes('well played'));
  assert.doesNotMatch(await watcher.locator('[data-testid=chat-lines]').innerText(), /gg/);
  // A finished match opened later shows its result over the page too; Close docks it.
  await page.reload();
  await page.locator('#result.overlay [data-testid=result-head]').waitFor();
  await page.locator('#result-close').click();
  assert.equal(await page.locator('#result.overlay').count(), 0);
  for (const p of [page, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [page, watcher]) await p.context().close();
});

test('your move in another tab: the sound and the notification are off until turned on in the More menu, the permission asked only then', async () => {
  const c = await apiCreate({ game: 'goofspiel', options: { cards: '6' }, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage(SIZES.laptop);
  await page.addInitScript(() => {
    // A hidden tab, and a Notification that records what it is asked.
    Object.defineProperty(Document.prototype, 'hidden', { get: () => true, configurable: true });
    Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true });
    window.__asked = 0;
    window.__notes = [];
    class FakeNotification {
      constructor(title, options) { window.__notes.push({ title, body: options?.body }); }
      close() {}
      static requestPermission() { window.__asked += 1; FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
    }
    FakeNotification.permission = 'default';
    window.Notification = FakeNotification;
  });
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Ada');
  assert.ok(await myTurn(page, 'p1'));
  await page.locator('#more summary').click();
  assert.equal(await page.locator('#opt-sound').isChecked(), false, 'the sound is off by default');
  assert.equal(await page.locator('#opt-notify').isChecked(), false, 'the notification is off by default');
  assert.equal(await page.evaluate(() => window.__asked), 0, 'no permission asked before');
  // A move with both off: no alert.
  let before = await page.evaluate(() => document.body.dataset.steps);
  await page.locator('#more summary').click();
  await clickAMove(page);
  await page.waitForFunction((st) => document.body.dataset.steps !== st, before);
  assert.ok(await myTurn(page, 'p1'));
  assert.equal(await page.evaluate(() => document.body.dataset.alerts ?? null), null);
  await page.locator('#more summary').click();
  await page.locator('#opt-sound').check();
  await page.locator('#opt-notify').check();
  assert.equal(await page.evaluate(() => window.__asked), 1, 'the permission is asked when the player turns it on');
  assert.equal(await page.locator('#opt-notify').isChecked(), true);
  assert.deepEqual(await page.evaluate(() => [localStorage.getItem('colosseum.sound'), localStorage.getItem('colosseum.notify')]), ['1', '1']);
  await page.locator('#more summary').click();
  before = await page.evaluate(() => document.body.dataset.steps);
  await clickAMove(page);
  await page.waitForFunction((st) => document.body.dataset.steps !== st, before);
  assert.ok(await myTurn(page, 'p1'));
  await page.waitForFunction(() => /sound,notification/.test(document.body.dataset.alerts || ''));
  const notes = await page.evaluate(() => window.__notes);
  assert.equal(notes.length, 1);
  assert.match(notes[0].title, /^Your move · Goofspiel$/);
  assert.ok(notes[0].body.length > 5, notes[0].body);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
