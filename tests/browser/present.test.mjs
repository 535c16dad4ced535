// Unit tests of the table's pure functions (crates/server/assets/present.js) and of the games'
// own browser modules' pure functions (crates/games/assets/ID.js), no browser:
//   node --test tests/browser/present.test.mjs      (run.sh runs it before the browser tests)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  botLabel, orderedLevels, friendlyError, plain, placeholderFor, lastReveal, resultText, timeoutNotice,
  clockLevel, statusLine, pageTitle, gridStep, seatName, contrast, seatDoing, moveLabel,
  raceName, raceTitle, personName, namesOf, seatsToNames, seatsInWords, count, singular,
} from '../../crates/server/assets/present.js';
import { expectsText, seatSummary, turningText } from '../../crates/server/assets/analysis.js';
import * as goofspiel from '../../crates/games/assets/goofspiel.js';
import * as squareGoofspiel from '../../crates/games/assets/square-goofspiel.js';
import * as allInGoofspiel from '../../crates/games/assets/all-in-goofspiel.js';
import * as thwartOmega from '../../crates/games/assets/thwart-omega.js';
import * as galespiel from '../../crates/games/assets/galespiel.js';
import * as witchsBrew from '../../crates/games/assets/witchs-brew.js';

const { allInNumber } = allInGoofspiel;
const { describeWitchsBrew, wbCondition } = witchsBrew;
// The game modules as the pages load them (boards.js's loadGame), by id.
const GAMES = {
  goofspiel, 'square-goofspiel': squareGoofspiel, 'all-in-goofspiel': allInGoofspiel, 'thwart-omega': thwartOmega, galespiel, 'witchs-brew': witchsBrew,
};

const seat = (extra = {}) => ({ to_act: false, submitted: false, locked: false, ...extra });
function stateOf({ you = 'p1', status = 'live', seats = {}, match = {}, names = { p1: 'Ann', p2: 'Bob' } } = {}) {
  return {
    you, status, names, joined: { p1: true, p2: true },
    match: { game: 'goofspiel', decision: 'move', seats: { p1: seat(seats.p1), p2: seat(seats.p2) }, ...match },
  };
}

test('bot levels in words, easy to hard first', () => {
  assert.equal(botLabel('mcts:easy'), 'Computer: easy');
  assert.equal(botLabel('mcts:hard'), 'Computer: hard');
  assert.ok(!/mcts|heuristic/.test(botLabel('heuristic')));
  assert.deepEqual(orderedLevels(['random', 'heuristic', 'mcts:easy', 'mcts:medium', 'mcts:hard']),
    ['mcts:easy', 'mcts:medium', 'mcts:hard', 'heuristic', 'random']);
  const st = stateOf({ names: { p1: 'Ann', p2: null }, match: { seats: { p1: seat(), p2: { ...seat(), player: { kind: 'bot', level: 'mcts:medium' } } } } });
  assert.equal(seatName(st, 'p2'), 'Computer: medium');
});

test('errors are addressed to the player: no seat prefix, no backticks', () => {
  assert.equal(friendlyError('p1: not legal here: card `9` is not in your hand'), 'That move is not allowed now: card 9 is not in your hand');
  assert.equal(friendlyError('p2: not a move: `2 h`'), 'That is not a move in this game: 2 h');
  // The server's two kinds of refused move (400 not_a_move, 422 illegal_move), as it words them.
  assert.equal(friendlyError('`banana` is not a move: write a card number from 1 to 3, digits only'),
    '\u201cbanana\u201d is not a move in this game: write a card number from 1 to 3, digits only');
  assert.equal(friendlyError('not legal here: you have no 1 left; your hand is 2 3; the legal moves now: 2, 3'),
    'That move is not allowed now: you have no 1 left; your hand is 2 3; the legal moves now: 2, 3');
  assert.equal(plain('play `done` or **pass**'), 'play done or pass');
});

test('placeholders differ per game', () => {
  const all = Object.values(GAMES).map((g) => placeholderFor(g, 'move'));
  assert.equal(new Set(all).size, all.length);
  assert.notEqual(placeholderFor(galespiel, 'build'), placeholderFor(galespiel, 'bid'));
  // A game without words of its own (no module loaded) still gets a hint.
  assert.equal(placeholderFor({}, 'move'), 'or type a move: see the rules');
});

test('All-In numbers follow the rules page table', () => {
  const cases = [[[10, 9], 109n], [[3, 1, 2], 312n], [[10, -1, 9], -9n], [[-3, 5], -35n], [[5, -3], 2n], [[-1, -2], -3n], [[0, 7], 7n], [[], 0n],
    [[9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0], 9876543212111100n],
    [[-3, 9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0, -2, -1], -39876543212111103n]];
  for (const [cards, want] of cases) assert.equal(allInNumber(cards).value, want, cards.join(' '));
  assert.equal(allInNumber([10, -1, 9]).written, '10-19');
});

test('The Witch\u2019s Brew moves and conditions in words', () => {
  assert.equal(describeWitchsBrew('2 d'), '2 Lock: the opponent must play in column d');
  assert.equal(describeWitchsBrew('dup 3 7'), 'Duplicard, then 3 Guess: you guess 7 Shift');
  assert.equal(describeWitchsBrew('6 c3 d4'), '6 Freeze: freeze c3, d4');
  assert.equal(describeWitchsBrew('a4 down'), 'leap the stone on a4 down');
  assert.equal(describeWitchsBrew('c3 c4'), 'shift the stone on c3 to c4');
  assert.equal(describeWitchsBrew('2A 2C'), '2A: four of yours in a row (diagonals too) and 2C: an inner opponent\u2019s stone whose four orthogonal neighbours are yours or neutral');
  assert.equal(describeWitchsBrew('1A 2B / 3C / -'), 'round 6: 1A 2B; round 9: 3C; round 12: none');
  assert.match(wbCondition('2a'), /^2A: four of yours/);
  // The table's labels: the game's words where it has them, else the notation.
  assert.equal(moveLabel(witchsBrew, '2 d'), '2 Lock: the opponent must play in column d');
  assert.equal(moveLabel(goofspiel, '7'), '7');
  assert.equal(moveLabel({}, 'x'), 'x');
});

test('a live race is named by its game, "live" by default', () => {
  assert.equal(raceName(witchsBrew), 'Cauldron');
  assert.equal(raceTitle(witchsBrew), 'The Cauldron');
  assert.equal(raceName(goofspiel), 'live');
  assert.equal(raceTitle({}), 'The live race');
  const racing = stateOf({ seats: { p1: { to_act: true } }, match: { race: { over: false } } });
  assert.equal(statusLine(racing, { race: raceName(witchsBrew) }), 'The Cauldron race is on: answer the question above.');
  assert.equal(seatDoing(racing, 'p2', raceName(witchsBrew)), 'in the Cauldron race');
  assert.equal(statusLine(racing), 'The live race is on: answer the question above.');
  assert.ok(witchsBrew.races.runs({ cauldron: 'live' }) && witchsBrew.races.runs({ cauldron: ' LIVE ' }));
  assert.ok(!witchsBrew.races.runs({ cauldron: 'simulated' }) && !witchsBrew.races.runs({}));
});

test('the last reveal of each game: a sentence, both moves, the cells it changed', () => {
  const you = (s) => (s === 'p1' ? 'you' : 'Bob');
  const g = lastReveal(GAMES['goofspiel'], { turns: [{ prize: 7, p1: 4, p2: 2, winner: 'p1' }] }, you);
  assert.equal(g.sentence, 'Prize 7: you played 4, Bob played 2. You take it.');
  assert.deepEqual(g.moves, { p1: '4', p2: '2' });
  assert.equal(lastReveal(GAMES['goofspiel'], { turns: [] }, you), null);
  assert.equal(lastReveal({}, { turns: [{ prize: 7, p1: 4, p2: 2, winner: 'p1' }] }, you), null, 'a game without a module reveals nothing');
  const sq = lastReveal(GAMES['square-goofspiel'], { auctions: [{ cell: 'c3', label: 'A', p1: 1, p2: 5, winner: 'p2' }] }, you);
  assert.deepEqual(sq.cells, ['c3']);
  assert.match(sq.sentence, /Bob wins it/);
  const t = lastReveal(GAMES['thwart-omega'], { rounds: 3, last_round: { p1: 'B d4 W e5', p2: 'B a1 W k11' } }, you);
  assert.deepEqual(t.cells, ['d4', 'e5', 'a1', 'k11']);
  const a = lastReveal(GAMES['all-in-goofspiel'], { rounds: [{ round: 2, worth: 2, cards: { p1: [10, 9], p2: [] }, numbers: { p1: 109, p2: 0 }, winner: 'p1' }] }, you);
  assert.equal(a.moves.p1, '10 9 = 109');
  assert.equal(a.moves.p2, 'nothing (0)');
  const gs = lastReveal(GAMES['galespiel'], { last_round: { round: 4, prize: 6, bids: { p1: { value: 5 }, p2: { value: 3, aid: true } }, winner: 'p1', built: ['b2'], paid: 4 } }, you);
  assert.deepEqual(gs.cells, ['b2']);
  assert.match(gs.sentence, /Bob bid 3 with aid\. You win and build b2 for 4 M\./);
  // A new round changes the key; the same round keeps it.
  const k1 = lastReveal(GAMES['goofspiel'], { turns: [{ prize: 1, p1: 1, p2: 2, winner: 'p2' }] }, you).key;
  const k2 = lastReveal(GAMES['goofspiel'], { turns: [{ prize: 1, p1: 1, p2: 2, winner: 'p2' }, { prize: 3, p1: 3, p2: 3, winner: null }] }, you);
  assert.notEqual(k1, k2.key);
  assert.match(k2.sentence, /a tie: nobody takes it/i);
});

test('result text names the winner and drops backticks', () => {
  const st = stateOf({ match: { result: { winner: 'p2', by: 'game', reason: 'p2 has more points (`12` to 9)' } } });
  assert.deepEqual(resultText(st), { head: 'You lose', body: 'Bob has more points (12 to 9).' });
  const watcher = { ...st, you: null };
  assert.equal(resultText(watcher).head, 'Bob wins');
});

test('result text: the players\u2019 names for the seat ids, a bot by its level\u2019s name, how it ended in words, singular right', () => {
  const bot = { ...seat(), player: { kind: 'bot', level: 'heuristic' } };
  const st = stateOf({ names: { p1: 'Ann', p2: 'bot heuristic' }, match: { seats: { p1: seat(), p2: bot }, result: { winner: 'p2', by: 'game', reason: 'p2 took more points, 7 to 3' } } });
  const r = resultText(st);
  assert.equal(r.body, 'Computer: rule of thumb took more points, 7 to 3.');
  assert.doesNotMatch(`${r.head} ${r.body}`, /\bp[12]\b|by the rules of the game|heuristic/);
  const resigned = resultText(stateOf({ you: null, match: { result: { winner: 'p1', by: 'resignation', reason: 'p2 resigned' } } }));
  assert.deepEqual(resigned, { head: 'Ann wins', body: 'Ann won by resignation: Bob resigned.' });
  const late = resultText(stateOf({ match: { result: { winner: 'p1', by: 'time', reason: 'p2 ran out of time (bid)' } } }));
  assert.equal(late.body, 'You won on time: Bob ran out of time (bid).');
  const drawn = resultText(stateOf({ match: { result: { winner: null, by: 'game', reason: 'p1 and p2 both took 1 points' } } }));
  assert.deepEqual(drawn, { head: 'A draw', body: 'Ann and Bob both took 1 point.' });
  const nobody = resultText(stateOf({ names: { p1: '', p2: null }, you: null, match: { result: { winner: 'p2', by: 'game', reason: 'p2 has 1 cells, p1 has 11 cells' } } }));
  assert.equal(nobody.head, 'Player 2 wins');
  assert.equal(nobody.body, 'Player 2 has 1 cell, Player 1 has 11 cells.');
});

test('names as people read them: bots by their level\u2019s name, seats in words, plurals right', () => {
  assert.equal(personName('bot heuristic'), 'Computer: rule of thumb');
  assert.equal(personName('bot mcts:easy'), 'Computer: easy');
  assert.equal(personName('Ann', 'p1'), 'Ann');
  assert.equal(personName(null, 'p1'), 'Player 1');
  assert.deepEqual(namesOf({ p1: 'Ann', p2: 'bot random' }), { p1: 'Ann', p2: 'Computer: random moves' });
  assert.equal(seatsToNames('p1 took more points than p2; p12 stays', { p1: 'Ann', p2: 'Bob' }), 'Ann took more points than Bob; p12 stays');
  assert.equal(count(1, 'point'), '1 point');
  assert.equal(count(0, 'point'), '0 points');
  assert.equal(count(3, 'match', 'matches'), '3 matches');
  assert.equal(singular('1 points, 11 points, 21 cards, 1.5 points, 1 cards'), '1 point, 11 points, 21 cards, 1.5 points, 1 card');
  assert.equal(singular('1 bridges, 1 VPs; card 1 has 1 loss, 1 was played'), '1 bridge, 1 VP; card 1 has 1 loss, 1 was played', 'words that only end in s stay');
  // The rules' and the options' words: the seats in words, a capital at a sentence's start only.
  assert.equal(seatsInWords('p1 starts round 1; p2 the next. p1 holds the advantage (p1 by default)'),
    'The first player starts round 1; the second player the next. The first player holds the advantage (the first player by default)');
  assert.equal(seatsInWords('p2 starts', false), 'the second player starts', 'mid-sentence (after code) stays lower case');
  assert.equal(seatsInWords('sp1 and p12'), 'sp1 and p12');
});

test('a timeout says what was played for whom', () => {
  const st = stateOf({ match: { timed_out: ['p1'] } });
  const n = timeoutNotice(st, { moves: { p1: '1', p2: '5' } });
  assert.equal(n.kind, 'warn');
  assert.match(n.text, /^Your time ran out: 1 was played for you/);
  assert.match(timeoutNotice({ ...st, you: 'p2' }, null).text, /Ann\u2019s time ran out: the game\u2019s default move was played for them/);
  assert.equal(timeoutNotice(stateOf(), null), null);
});

test('the clock warns near the end', () => {
  assert.equal(clockLevel(9000, 60000), 'low');
  assert.equal(clockLevel(13000, 60000), '');
  assert.equal(clockLevel(25000, 300000), 'low');
  assert.equal(clockLevel(null, 60000), '');
});

test('the status line says what to do now', () => {
  assert.equal(statusLine(stateOf({ seats: { p1: { to_act: true }, p2: { to_act: true } } })), 'Your move. Bob is choosing too.');
  assert.match(statusLine(stateOf({ seats: { p1: { to_act: true, submitted: true, submission: '4' }, p2: { to_act: true } } })), /^You played 4\. You may change it until Bob moves too, or lock it\.$/);
  assert.equal(statusLine(stateOf({ seats: { p2: { to_act: true } } })), 'Waiting for Bob.');
  assert.match(statusLine({ ...stateOf(), status: 'waiting', joined: { p1: true, p2: false } }, { invite: 'x' }), /to join: send them the invite link\.$/);
});

test('the title says "your move"', () => {
  assert.match(pageTitle('Goofspiel', { yourMove: true }), /^\u25cf Your move/);
  assert.equal(pageTitle('Goofspiel'), 'Goofspiel \u00b7 Colosseum');
});

test('arrow keys on a board stay on the board', () => {
  assert.deepEqual(gridStep('ArrowRight', 0, 5, 6, 6), [0, 5]);
  assert.deepEqual(gridStep('ArrowDown', 2, 3, 6, 6), [3, 3]);
  assert.deepEqual(gridStep('ArrowUp', 0, 0, 6, 6), [0, 0]);
  assert.equal(gridStep('a', 0, 0, 6, 6), null);
});

test('pieces stand out from the cells (>= 3:1), as style.css colours them', () => {
  // The shared colours, and The Witch's Brew's own (its gray stones and frozen cells).
  const css = ['../../crates/server/assets/style.css', '../../crates/games/assets/witchs-brew.css']
    .map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n');
  const v = (name) => { const m = new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(css); assert.ok(m, name); return m[1]; };
  const cell = v('cell');
  for (const piece of ['p1', 'p2', 'gray-stone', 'frozen-edge']) {
    assert.ok(contrast(v(piece), cell) >= 3, `${piece} ${v(piece)} on ${cell}: ${contrast(v(piece), cell).toFixed(2)}`);
  }
  assert.ok(contrast(v('muted'), v('card')) >= 4.5, 'muted text');
  assert.ok(contrast('#ffffff', v('p1')) >= 4.5 && contrast('#ffffff', v('p2')) >= 4.5, 'owner digits on owned cells');
  assert.ok(contrast('#000000', '#ffffff') > 20.9);
});

test('what each seat is doing, as the seat panels say it', () => {
  const st = stateOf({ seats: { p1: { to_act: true }, p2: { to_act: true, submitted: true, locked: true } } });
  assert.equal(seatDoing(st, 'p1'), 'to move');
  assert.equal(seatDoing(st, 'p2'), 'has submitted (locked)');
  assert.equal(seatDoing({ ...st, you: 'p2' }, 'p1'), 'thinking');
  assert.equal(seatDoing(stateOf({ seats: { p1: { to_act: true, committed: true } }, match: { sealed: { phase: 'commit' } } }), 'p1'), 'has committed (sealed)');
  assert.equal(seatDoing({ ...st, status: 'waiting', joined: { p1: true, p2: false } }, 'p2'), 'not joined yet');
  assert.equal(seatDoing(stateOf({ match: { result: { winner: 'p1' } } }), 'p1'), '');
});

test('The Witch\u2019s Brew: a card move built from the hand (the Duplicard, Lock\u2019s column, Freeze\u2019s stones)', () => {
  const { parseCardMove, cardMove, toggleFreeze, moveLabel: label } = witchsBrew;
  assert.deepEqual(parseCardMove('dup 2 d'), { dup: true, card: 2, rest: 'd' });
  assert.deepEqual(parseCardMove('5'), { dup: false, card: 5, rest: '' });
  assert.equal(parseCardMove('d4'), null);
  assert.equal(parseCardMove(null), null);
  assert.equal(cardMove(6, false, 'c3 d4'), '6 c3 d4');
  assert.equal(cardMove(2, true), 'dup 2');
  assert.equal(toggleFreeze('', 'c3'), 'c3');
  assert.equal(toggleFreeze('c3 d4', 'c3'), 'd4', 'a second click takes a stone back');
  assert.equal(toggleFreeze('a1 b1 c1', 'd1'), 'a1 b1 c1', 'at most three stones');
  assert.equal(label('2'), '2 Lock (choose the column)');
  assert.equal(label('3'), '3 Guess (choose the card you guess)');
  assert.equal(label('3 5'), '3 Guess: you guess 5 Leap');
});

test('Galespiel\u2019s moves in words', () => {
  assert.equal(galespiel.moveLabel('8+', 'bid'), 'bid 8+');
  assert.equal(galespiel.moveLabel('aid 7'), 'bid 7 with Specialist\u2019s Aid');
  assert.equal(galespiel.moveLabel('b2'), 'build a bridge on b2');
  assert.equal(galespiel.moveLabel('emergency c3 e5'), 'build bridges on c3 and e5 with Emergency Delivery');
  assert.equal(galespiel.moveLabel('upgrade 4'), 'upgrade card 4');
  assert.equal(galespiel.moveLabel('skip', 'item'), 'keep the item for later');
  assert.equal(galespiel.moveLabel('7', 'upgrade'), '7', 'a number is a bid only in a bid');
});

test('The Witch\u2019s Brew: what the game waits for, without notation examples or backticks, with names', () => {
  const n = (seat) => (seat === 'p1' ? 'you' : 'Bob');
  const w = witchsBrew.waitingWords;
  assert.equal(w("both seats' cards, such as `5`, `2 d`, `3 7`, `6 c3`, `dup 1`", n), 'both seats\u2019 cards');
  assert.equal(w("p1's stone on an empty cell in column d (p2's Lock), such as `d4`", n), 'your stone on an empty cell in column d (Bob\u2019s Lock)');
  assert.equal(w("p2's Leap: a stone of theirs and a direction (`c3 up`), or `pass`", n), 'Bob\u2019s Leap: a stone of theirs and a direction, or pass');
  assert.equal(w('`discard` or `keep` from the Discard holder', n), 'discard or keep from the Discard holder');
  assert.equal(w('p2 to pick 4 or 7', n), 'Bob to pick 4 or 7');
});

test('The Witch\u2019s Brew\u2019s reveal says why a round was won in words', () => {
  const you = (seat) => (seat === 'p1' ? 'you' : 'Bob');
  const r = witchsBrew.lastReveal({ rounds: [{ round: 8, plays: ['8', '8'], values: [8, 8], winner: 'p2', reason: 'tie_lost_previous', placed: ['c4'] }] }, you);
  assert.equal(r.sentence, 'Placement round 8: you played 8 Diminish (value 8), Bob played 8 Diminish (value 8). Bob wins the round (a tie: it goes to the loser of the previous round); stones on c4.');
  for (const reason of ['snipe', 'guess', 'higher_value', 'tie_lost_previous', 'tie_advantage']) assert.ok(witchsBrew.WB_REASONS[reason], reason);
});

// ----- issue 37's board bugs: a game module's render with a stand-in for the page's kit -----

/** A stand-in DOM node (tag, attributes, children) with the part of the DOM a renderer uses. */
function fakeNode(tag, attrs, children) {
  const node = {
    tag, attrs: attrs || {}, children: [],
    append(...c) { node.children.push(...c.flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false)); },
    addEventListener() {}, setAttribute(k, v) { node.attrs[k] = v; }, querySelector() { return null; },
  };
  node.append(...children);
  return node;
}
const fake = (tag, attrs, ...children) => fakeNode(tag, attrs, children);
const FAKE_KIT = {
  h: fake, s: fake,
  name: (ctx, seat) => ctx.names?.[seat] || seat,
  table: (head, rows) => fake('table', {}, fake('tr', {}, head), rows.map((r) => fake('tr', {}, r))),
  list: (items) => fake('ol', {}, items.map((t) => fake('li', {}, t))),
  card: (label) => fake('button', {}, label),
};
/** The text of a stand-in node, its pieces joined by " | ". */
const textOf = (n) => (n === null || n === undefined || n === false ? '' : typeof n !== 'object' ? String(n) : n.children.map(textOf).filter(Boolean).join(' | '));

test('All-In Goofspiel\u2019s board tells the starter to put down cards, and the responder whom it waits for', () => {
  const view = (starter) => ({ current: { round: 3, worth: 3, starter, responder: starter === 'p1' ? 'p2' : 'p1', face_down_count: null }, hands: { p1: [1, 2], p2: [1, 2] }, points: { p1: 0, p2: 0 }, rounds: [] });
  const ctx = (you, canAct) => ({ you, canAct, names: { p1: 'Ann', p2: 'Bob' }, draft: null, pick() {} });
  const board = (v, c) => textOf(allInGoofspiel.render(v, c, {}, FAKE_KIT).board);
  // The old board said "waiting for the starter" to the starter at its own move.
  const mine = board(view('p1'), ctx('p1', true));
  assert.doesNotMatch(mine, /waiting for/);
  assert.match(mine, /you start: put down your cards/);
  assert.match(board(view('p1'), ctx('p2', false)), /waiting for Ann to put down cards/);
  assert.match(board(view('p2'), ctx(null, false)), /waiting for Bob to put down cards/);
  assert.match(board({ ...view('p2'), current: { ...view('p2').current, face_down_count: 0 } }, ctx('p1', true)), /Bob put down no cards/);
});

test('Goofspiel\u2019s finished board shows how it ended, not a "-" prize card', () => {
  const ctx = { you: 'p1', canAct: false, names: { p1: 'Ann', p2: 'Bob' }, draft: null, pick() {} };
  const over = { prize: null, prizes_left: [], hands: { p1: [], p2: [] }, points: { p1: 5, p2: 1 }, turns: [{ prize: 2, p1: 2, p2: 1, winner: 'p1' }, { prize: 1, p1: 1, p2: 2, winner: 'p2' }, { prize: 3, p1: 3, p2: 3, winner: null }] };
  const board = goofspiel.render(over, ctx, {}, FAKE_KIT).board;
  const text = textOf(board);
  assert.doesNotMatch(text, /[-\u2013]\s*(\||$)/, text);
  assert.ok(!board.children.some((c) => c.attrs.class === 'prize-value'), 'no prize card when the game is over');
  assert.match(text, /The game is over after 3 prizes/);
  assert.match(text, /points: Ann 5, Bob 1/);
  // While a prize is up, the card shows it.
  const live = goofspiel.render({ ...over, prize: 4, prizes_left: [5] }, ctx, {}, FAKE_KIT).board;
  assert.equal(textOf(live.children.find((c) => c.attrs.class === 'prize-value')), '4');
});

test('the analysis in words: the first player\u2019s expected score by name, a turning point for whom it swung, a seat\u2019s summary by name', () => {
  const names = { p1: 'Ann', p2: 'Computer: rule of thumb' };
  assert.equal(expectsText(names.p1, 0.389), 'Ann\u2019s expected score: 39%');
  assert.equal(turningText({ decision: 2, swing: -0.12 }, names), 'after decision 3 (+12% for Computer: rule of thumb)');
  assert.equal(turningText({ decision: 0, swing: 0.3 }, names), 'after decision 1 (+30% for Ann)');
  const line = seatSummary({ seat: 'p2', played: '5', cost: 0.023, mark: 'inaccuracy', best: '7' }, names);
  assert.equal(line, 'Computer: rule of thumb played 5 (cost 2.3%, inaccuracy); engine: 7');
  assert.doesNotMatch(seatSummary({ seat: 'p1', played: '1', cost: 0, best: '1' }, {}), /\bp1\b/, 'no name: the seat in words');
});
