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

/** Makes one move by clicking: a legal-move button, the board, or the tools' Submit. */
async function clickAMove(page) {
  const legal = page.locator('#legal button[data-move]');
  const n = await legal.count();
  if (n > 0) {
    const b = legal.nth(pickRandom(n));
    const mv = await b.getAttribute('data-move');
    await b.click();
    return mv;
  }
  if (await page.locator('#tools select').count()) {
    await page.locator('#move-form button[type=submit]').click();
    return await page.locator('#notation').inputValue();
  }
  const cells = page.locator('#board .cell.clickable');
  const c = await cells.count();
  if (c >= 2) {
    const a = pickRandom(c);
    let b = pickRandom(c - 1);
    if (b >= a) b += 1;
    await cells.nth(a).click();
    await cells.nth(b).click();
    return 'two cells';
  }
  throw new Error(`no way to move on the page: ${await page.locator('#status').innerText()}`);
}

/** Plays `seat` by clicking until the match ends; a screenshot after `midAt` moves. */
async function playToEnd(page, seat, { game, midAt = 6, maxMoves = 800 } = {}) {
  let moves = 0;
  while (await myTurn(page, seat)) {
    const before = await page.evaluate(() => document.body.dataset.steps);
    const mv = await clickAMove(page);
    // Wait for the answer: a new status, a new step, or a refusal.
    await page.waitForFunction(([s, st]) => document.body.dataset.steps !== st
      || document.querySelector(`[data-testid=status-${s}]`)?.textContent !== 'to move'
      || document.querySelector('#message.error:not([hidden])'), [seat, before], { timeout: 30000 });
    const err = await page.locator('#message.error:not([hidden])').count();
    if (err) {
      const text = await page.locator('#message').innerText();
      if (!/rate|too many/i.test(text)) throw new Error(`${game}: the move ${mv} was refused: ${text}`);
      await page.waitForTimeout(1000);
    }
    moves += 1;
    if (moves === midAt && SHOTS && game) await page.screenshot({ path: joinPath(SHOTS, `${game}-mid.png`), fullPage: true });
    assert.ok(moves < maxMoves, `${game}: more than ${maxMoves} moves`);
  }
  return moves;
}

for (const game of GAMES) {
  test(`${game}: a full match against the random bot, played by clicking`, async () => {
    const t0 = Date.now();
    const page = await newPage();
    let link;
    if (game === 'goofspiel') {
      // Through the lobby's form, as a person would.
      await page.goto(`${BASE}/`);
      await page.locator('#game').selectOption(game);
      await page.locator('input[data-option=cards]').fill('8');
      await page.locator('input[name=opponent][value=bot]').check();
      await page.locator('#level').selectOption('random');
      await page.locator('#time').selectOption('untimed');
      await page.locator('#name').fill('Ada');
      await page.locator('#create button[type=submit]').click();
      link = await page.locator('[data-testid=my-link]').inputValue();
      assert.match(link, /\/m\/[0-9a-f]+#seat=[0-9a-f]+$/);
      assert.match(await page.locator('[data-testid=spectator-link]').inputValue(), /\/m\/[0-9a-f]+$/);
      await page.locator('[data-testid=play-link]').click();
      await page.waitForURL(/\/m\//);
    } else {
      const c = await apiCreate({ game, options: OPTIONS[game] || {}, time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
      link = `${BASE}${c.links.p1}`;
      await page.goto(link);
    }
    await join(page, 'Ada');
    await page.waitForFunction(() => document.body.dataset.status === 'live' || document.body.dataset.status === 'finished');
    const moves = await playToEnd(page, 'p1', { game, midAt: MID[game] });
    await page.locator('[data-testid=result-reason]').waitFor();
    const reason = await page.locator('[data-testid=result-reason]').innerText();
    assert.ok(reason.length > 10, `a result with a reason: ${reason}`);
    if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, `${game}-end.png`), fullPage: true });
    assert.deepEqual(page.errors, [], 'no script errors');
    finished[game] = page.url().split('/m/')[1].split('#')[0];
    console.log(`# ${game}: ${moves} moves clicked in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${reason}`);
    await page.context().close();
  });
}

test('two players in two browsers: a submission stays hidden, then both see the reveal; a spectator watches', async () => {
  const a = await newPage();
  await a.goto(`${BASE}/`);
  await a.locator('#game').selectOption('goofspiel');
  await a.locator('input[data-option=cards]').fill('4');
  await a.locator('#time').selectOption('untimed');
  await a.locator('#create button[type=submit]').click();
  const mine = await a.locator('[data-testid=my-link]').inputValue();
  const invite = await a.locator('[data-testid=invite-link]').inputValue();
  const spectate = await a.locator('[data-testid=spectator-link]').inputValue();
  assert.notEqual(mine, invite);
  await a.goto(mine);
  await join(a, 'Ann');
  assert.match(await a.locator('#status').innerText(), /Waiting for .* to join/);
  const b = await newPage({ width: 390, height: 844 }); // a phone
  await b.goto(invite);
  await join(b, 'Bob');
  const watcher = await newPage();
  await watcher.goto(spectate);
  await watcher.waitForFunction(() => document.body.dataset.status === 'live');
  assert.equal(await watcher.locator('#actions').isHidden(), true, 'a spectator has no move box');

  assert.ok(await myTurn(a, 'p1'));
  await a.locator('#legal button[data-move="3"]').click();
  await a.waitForFunction(() => document.querySelector('#status')?.textContent.includes('You played 3'));
  // Bob and the spectator see that Ann has submitted, not what.
  await b.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted');
  await watcher.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted');
  for (const p of [b, watcher]) {
    const text = await p.locator('main').innerText();
    assert.ok(!/played 3/.test(text), 'the hidden move is not on the other pages');
    const html = await p.content();
    assert.ok(!html.includes('"submission"'), 'no submission in the DOM');
  }
  assert.equal(await statusOf(b, 'p2'), 'to move');
  // Ann changes her mind and locks; still hidden.
  await a.locator('#legal button[data-move="4"]').click();
  await a.waitForFunction(() => document.querySelector('#status')?.textContent.includes('You played 4'));
  await a.locator('#lock').click();
  await b.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has submitted (locked)');
  await b.locator('#legal button[data-move="2"]').click();
  // Both see the reveal.
  for (const p of [a, b, watcher]) {
    await p.waitForFunction(() => /played 4.*played 2/.test(document.querySelector('#reveal')?.textContent || ''));
  }
  if (SHOTS) await b.screenshot({ path: joinPath(SHOTS, 'phone-goofspiel.png'), fullPage: true });
  // Play the rest from both sides.
  await Promise.all([playToEnd(a, 'p1', { midAt: -1 }), playToEnd(b, 'p2', { midAt: -1 })]);
  await watcher.waitForFunction(() => document.body.dataset.status === 'finished');
  assert.ok((await watcher.locator('[data-testid=result-reason]').innerText()).length > 5);
  for (const p of [a, b, watcher]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, watcher]) await p.context().close();
});

test('a refused move shows the reason; a reload mid-match resumes the seat', async () => {
  const c = await apiCreate({ game: 'square-goofspiel', time: { kind: 'untimed' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }] });
  const page = await newPage();
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Cy');
  assert.ok(await myTurn(page, 'p1'));
  await page.locator('#notation').fill('9');
  await page.locator('#notation').press('Enter');
  await page.locator('#message.error').waitFor();
  assert.match(await page.locator('#message').innerText(), /Move refused: .+/);
  // Two moves, then a reload.
  for (let i = 0; i < 2; i++) {
    assert.ok(await myTurn(page, 'p1'));
    const st = await page.evaluate(() => document.body.dataset.steps);
    await page.locator('#legal button[data-move="1"]').click();
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
  await page.locator('#legal button[data-move="pass"]').click();
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
  await page.locator('#legal button[data-move]').first().click();
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
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
  await page.locator('[data-cell=a1]').focus();
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#notation').inputValue(), /^B a1 W \s*$/);
  await page.locator('[data-cell=b2]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((x) => document.body.dataset.steps !== x, st);
  assert.match(await page.locator('#reveal').innerText(), /Kim played B a1 W b2/);
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
  await page.locator('#legal button[data-move]').first().click();
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

test('replays step through every game with the slider; rules pages render', async () => {
  const page = await newPage();
  for (const game of GAMES) {
    const id = finished[game];
    if (!id) continue;
    await page.goto(`${BASE}/replay/${id}`);
    await page.locator('#slider').waitFor();
    const max = Number(await page.locator('#slider').getAttribute('max'));
    assert.ok(max >= 2, `${game}: frames`);
    assert.match(await page.locator('#frame-label').innerText(), new RegExp(`Step ${max} of ${max}`));
    await page.locator('#slider').fill('0');
    assert.match(await page.locator('#frame-label').innerText(), /Step 0 of/);
    await page.locator('#slider').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await page.locator('#frame-label').innerText(), /Step 1 of/);
    await page.locator('#next').click();
    assert.match(await page.locator('#frame-label').innerText(), /Step 2 of/);
    if (game === 'thwart-omega' && SHOTS) {
      await page.locator('#slider').fill(String(Math.floor(max / 2)));
      await page.screenshot({ path: joinPath(SHOTS, 'replay-thwart-omega.png'), fullPage: true });
    }
  }
  for (const game of GAMES) {
    await page.goto(`${BASE}/rules/${game}`);
    await page.locator('article.rules h2').first().waitFor();
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
    await page.waitForFunction(([s, st]) => document.body.dataset.steps !== st
      || document.querySelector(`[data-testid=status-${s}]`)?.textContent !== 'to move'
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
  assert.match(await a.locator('#race-feedback').innerText(), /is wrong/);
  await b.waitForFunction(() => /Ann is locked out for 0:\d\d/.test(document.querySelector('[data-race-seat=p1]')?.textContent || ''));
  await watcher.waitForFunction(() => /locked out/.test(document.querySelector('[data-race-seat=p1]')?.textContent || ''));
  const l1 = await a.locator('#race-lockout').innerText();
  await a.waitForTimeout(1200);
  assert.notEqual(await a.locator('#race-lockout').innerText(), l1, 'the lockout counts down');
  if (SHOTS) await a.screenshot({ path: joinPath(SHOTS, 'cauldron-race.png'), fullPage: true });

  // Bob answers right (the button): both see who won, and the accepted answers.
  const right = answerOf(question);
  await b.locator('#race-answer').fill(right);
  await b.locator('#race-submit').click();
  for (const p of [a, b, watcher]) await p.waitForFunction(() => document.body.dataset.race === 'over');
  assert.match(await a.locator('[data-testid=race-winner]').first().innerText(), /Bob won the round/);
  assert.match(await b.locator('[data-testid=race-winner]').first().innerText(), /You won the round/);
  assert.match(await watcher.locator('[data-testid=race-winner]').first().innerText(), /Bob won the round/);
  assert.ok((await a.locator('[data-testid=race-answers]').innerText()).includes(right));
  if (SHOTS) await b.screenshot({ path: joinPath(SHOTS, 'cauldron-race-over-phone.png'), fullPage: true });

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
  await page.locator('[data-testid=play-link]').click();
  await page.waitForURL(/\/m\//);
  await join(page, 'Ada');
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
  await page.locator('input[data-option=cards]').fill('4');
  await page.locator('input[name=opponent][value=bot]').check();
  await page.locator('#level').selectOption('random');
  await page.locator('#time').selectOption('untimed');
  await page.locator('#sealed').check();
  await page.locator('#create button[type=submit]').click();
  await page.locator('[data-testid=play-link]').click();
  await page.waitForURL(/\/m\//);
  await join(page, 'Ada');
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
  assert.equal((await call('join', null)).status, 200);
  const page = await newPage();
  await page.goto(`${BASE}${c.links.p1}`);
  await join(page, 'Ada');
  await myTurn(page, 'p1');
  await page.locator('#legal button[data-move="3"]').click();
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
  // p2 commits and opens with a plain HTTP client, as a bot author would.
  const nonce = randomBytes(16).toString('hex');
  const hash = createHash('sha256').update(`1\n${nonce}`).digest('hex');
  assert.equal((await call('commit', { hash })).status, 200);
  // The reloaded page opens by itself.
  await page.waitForFunction(() => document.querySelector('[data-testid=status-p1]')?.textContent === 'has opened (sealed)', null, { timeout: 10000 });
  const wrong = await call('open', { move: '2', nonce });
  assert.equal(wrong.status, 422);
  assert.equal(wrong.data.error.code, 'commitment_mismatch');
  assert.equal((await call('open', { move: '1', nonce })).status, 200);
  await page.waitForFunction(() => document.body.dataset.steps !== undefined && document.querySelector('[data-testid=status-p1]')?.textContent === 'to move');
  const after = await (await fetch(`${BASE}/api/matches/${c.id}`)).json();
  assert.equal(after.match.sealed.last.p1.move, '3');
  assert.equal(after.match.sealed.last.p2.nonce, nonce);
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});

test('fair chance: a typed client seed, the commitment on screen, and the check on a finished match', async () => {
  const created = await apiCreate({ game: 'goofspiel', options: { cards: '4' }, seats: [{ kind: 'human' }, { kind: 'bot', level: 'random' }], time: { kind: 'untimed' } });
  const page = await newPage({ width: 390, height: 844 });
  await page.goto(`${BASE}${created.links.p1}`);
  // The commitment is on the page before anyone has joined.
  const commitment = await page.locator('[data-testid=commitment]').getAttribute('title');
  assert.match(commitment, /^[0-9a-f]{64}$/);
  await page.locator('details.client-seed summary').click();
  await page.locator('#client-seed').fill('my-own-seed');
  await join(page, 'Fay');
  await page.waitForFunction(() => document.body.dataset.status === 'live');
  assert.match(await page.locator('#fairness').innerText(), /my-own-seed/);
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
  assert.equal(state.fairness.client_seeds.p1, 'my-own-seed');
  assert.equal(state.fairness.commitment, commitment);
  if (SHOTS) await page.screenshot({ path: joinPath(SHOTS, 'fair-chance-phone.png'), fullPage: true });
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
  const chance = page.locator('[data-option=p1_chance]');
  assert.equal(await chance.isVisible(), true, 'simulated (the default): shown');
  await page.locator('[data-option=cauldron]').selectOption('live');
  assert.equal(await chance.isVisible(), false, 'live: hidden');
  assert.equal(await page.locator('[data-option=none_chance]').isVisible(), false);
  await page.context().close();
});
