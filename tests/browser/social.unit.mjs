// Unit tests of the social modules' pure functions (no browser): node --test social.unit.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineText, logRows, withNames } from '../../crates/server/assets/movelog.js';
import { durationText, prizeText, previousRace } from '../../crates/server/assets/race.js';
import { kindWords } from '../../crates/games/assets/witchs-brew.js';

const names = { p1: 'Ann', p2: 'Bob' };

test('names replace seat ids in the game\'s sentences', () => {
  assert.equal(withNames('p2 to pick 4 or 7', names), 'Bob to pick 4 or 7');
  assert.equal(withNames('p1 and p2', { p1: 'Ann' }), 'Ann and Player 2', 'a seat without a name in words, never p2');
  assert.equal(withNames('sp1 p12', names), 'sp1 p12', 'only whole seat ids');
});

test('log lines name the players and say what is hidden or played by the clock', () => {
  assert.equal(lineText({ kind: 'move', p1: '7', p2: '5' }, names), 'Ann: 7 \u00b7 Bob: 5');
  assert.equal(lineText({ kind: 'bid', p1: '1', p2: '12', by_default: ['p1'] }, names), 'Ann: 1 (time ran out: played for them) \u00b7 Bob: 12');
  assert.equal(lineText({ kind: 'move', hidden: true, face_down: ['p2'] }, names), 'Bob: face down until answered');
  assert.equal(lineText({ kind: 'chance', hidden: true }, names), 'drawn: secret until the end');
  assert.equal(lineText({ kind: 'chance', chance: '3' }, names), 'drawn: 3');
  assert.equal(lineText({ kind: 'move', chance: '4 7' }, names), 'drawn: 4 7');
  assert.equal(lineText({ kind: 'race', chance: 'p2' }, names, kindWords), 'Cauldron race: Bob won');
  assert.equal(lineText({ kind: 'race', chance: 'none' }, names, kindWords), 'Cauldron race: nobody answered correctly');
  assert.equal(lineText({ kind: 'race', chance: 'p1' }, names), 'live race: Ann won', 'a game that does not name its races');
  assert.equal(lineText({ kind: 'assign', p1: '1A / 2B / -' }, names, kindWords), 'Ann: 1A / 2B / -');
  assert.equal(lineText({ kind: 'assign' }, names, kindWords), 'assignment');
});

test('a replayed game starts its own part of the log', () => {
  const rows = logRows([
    { game: 1, step: 0, at: 0, kind: 'move', p1: '1' },
    { game: 2, step: 0, at: 9000, kind: 'move', p2: '2' },
  ], names);
  assert.deepEqual(rows.map((r) => r.key), ['1.0', 'g2', '2.0']);
  assert.match(rows[1].text, /Game 2 begins/);
});

test('a race\u2019s time and lockout are worded from the state\u2019s milliseconds', () => {
  assert.equal(durationText(180000), '3 minutes');
  assert.equal(durationText(60000), '1 minute');
  assert.equal(durationText(30000), '30 s');
  assert.equal(durationText(90000), '90 s');
});

test('the finished race shown beside the open one is the last finished before it', () => {
  const races = [{ opened_at: 0, round: 'MM1' }, { opened_at: 180000, round: 'MM2' }];
  assert.equal(previousRace({ opened_at: 360000 }, races).round, 'MM2');
  assert.equal(previousRace({ opened_at: 180000 }, races.slice(0, 1)).round, 'MM1');
  assert.equal(previousRace({ opened_at: 0 }, races.slice(0, 1)), null);
  assert.equal(prizeText(['4', '2A']), '4 or 2A');
});

test('the move log words a game\u2019s moves with its moveLabel, keeping the names', async () => {
  const brew = await import('../../crates/games/assets/witchs-brew.js');
  const gale = await import('../../crates/games/assets/galespiel.js');
  const names = { p1: 'Ann', p2: 'Bob' };
  const label = (game) => (mv, kind) => game.moveLabel(mv, kind);
  assert.equal(lineText({ kind: 'move', p1: '2 d', p2: 'dup 6 c3' }, names, brew.kindWords, label(brew)),
    'Ann: 2 Lock: the opponent must play in column d \u00b7 Bob: Duplicard, then 6 Freeze: freeze c3');
  assert.equal(lineText({ kind: 'move', p2: 'c3 up' }, names, brew.kindWords, label(brew)), 'Bob: leap the stone on c3 up');
  assert.equal(lineText({ kind: 'move', p1: 'd4', by_default: ['p1'] }, names, brew.kindWords, label(brew)), 'Ann: a stone on d4 (time ran out: played for them)');
  assert.equal(lineText({ kind: 'bid', p1: '7 aid', p2: '5' }, names, {}, label(gale)), 'Ann: bid 7 with Specialist\u2019s Aid \u00b7 Bob: bid 5');
  assert.equal(lineText({ kind: 'build', p1: 'c3 e5' }, names, {}, label(gale)), 'Ann: build bridges on c3 and e5');
  assert.equal(lineText({ kind: 'build', p2: 'done' }, names, {}, label(gale)), 'Bob: build nothing');
  assert.equal(lineText({ kind: 'chance', chance: '5 3 8 4 4 6 5' }, names, {}, label(gale)), 'drawn: 5 3 8 4 4 6 5', 'chance is not a move');
  assert.equal(lineText({ kind: 'move', p1: '7' }, names), 'Ann: 7', 'a game without words keeps its notation');
});
