// Unit tests of the games' own words at the table (node --test, no browser): each game module's
// `headline` (the score beside each player's name) and `prompt` (the action bar's sentence), its
// glossary, and the words its `render` builds (names, never seat ids; singular and plural right).
// The modules are crates/games/assets/ID.js; docs/browser.md, "A game's browser code".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as goofspiel from '../../crates/games/assets/goofspiel.js';
import * as squareGoofspiel from '../../crates/games/assets/square-goofspiel.js';
import * as allInGoofspiel from '../../crates/games/assets/all-in-goofspiel.js';
import * as thwartOmega from '../../crates/games/assets/thwart-omega.js';
import * as galespiel from '../../crates/games/assets/galespiel.js';
import * as witchsBrew from '../../crates/games/assets/witchs-brew.js';

const NAMES = { p1: 'Ann', p2: 'Bob' };
const acting = (you = 'p1', extra = {}) => ({ you, canAct: true, names: NAMES, draft: null, pick() {}, ...extra });
const idle = (you = 'p1') => ({ you, canAct: false, names: NAMES, draft: null, pick() {} });
const watcher = { you: null, canAct: false, names: NAMES, draft: null, pick() {} };

// ----- views, shaped as the server sends them (taken from real matches) -----

const goof = { hands: { p1: [1, 2, 3, 4, 8, 11, 13], p2: [2, 3, 5, 6, 7, 10, 11] }, pending: 'both', points: { p1: 1, p2: 23 }, prize: 6, prizes_left: [1, 5, 7, 9, 10, 13], turns: [{ p1: 7, p2: 8, prize: 3, winner: 'p2' }, { p1: 1, p2: 4, prize: 1, winner: 'p1' }] };
const square = {
  up_now: 'e5', phase: 3, board: Array.from({ length: 6 }, () => Array(6).fill('open')), line_points: { p1: 1, p2: 20 },
  hands: { p1: { cards: [1, 1, 3, 3, 4, 4], strength: 16 }, p2: { cards: [5], strength: 5 } },
  phase_cells: [{ cell: 'a3', label: 'A', state: 'p1', up_now: false }, { cell: 'e5', label: 'F', state: 'open', up_now: true }],
  auctions: [{ cell: 'b2', label: 'A', p1: '3', p2: '4', phase: 1, winner: 'p2' }, { cell: 'f6', label: 'B', p1: '2', p2: '2', phase: 1, winner: null }], lines: [],
};
const allIn = (current, points = { p1: 1, p2: 7.5 }) => ({ current, hands: { p1: [10, 9, -3], p2: [1] }, points, rounds: [{ cards: { p1: [2], p2: [] }, numbers: { p1: 2, p2: 0 }, round: 1, starter: 'p1', winner: 'p1', worth: 1 }] });
const thwart = { black: { groups: [5, 3, 2, 2], product: 60, seat: 'p1' }, white: { groups: [1], product: 1, seat: 'p2' }, empty: 23, rounds: 7, last_round: { p1: 'B b7 W a4', p2: 'B f3 W f4' }, rows: ['.......'] };
const card = (n, inHand = true) => ({ card: n, effects: '-', in_hand: inHand, name: String(n), upgraded: false, value: n });
const gale = (extra = {}) => ({
  prize: 5, prizes_left: [4, 4, 5, 8], rounds: 2, rounds_without_bridge: 0, upcoming: [null, null, null, null], pending: 'both', waiting_for: 'the bids', last_round: null,
  spots: [{ bridge: null, cost: 4, spot: 'b2' }, { bridge: 'p1', cost: 3, spot: 'd2' }, { bridge: null, cost: 1, spot: 'e3' }, { bridge: null, cost: 6, spot: 'g7' }],
  players: {
    p1: { bridges: ['d2'], cards: [card(1), card(2), card(3, false)], cheapest_connection: 12, colour: 'brown', dots_surrounded: 0, items_held: [], items_used: [], materials: 9 },
    p2: { bridges: [], cards: [card(1), card(2)], cheapest_connection: null, colour: 'blue', dots_surrounded: 0, items_held: [], items_used: [], materials: 1 },
  },
  ...extra,
});
const brew = (stage, extra = {}) => ({
  stage, cauldron: 'MM2', cauldron_mode: 'simulated', prize_pair: null, placement_round: 0, lock_column: null, schedule: 'MM1 DM1 MM2 DM2', scoring_rounds_to_come: [6, 9, 12],
  cauldron_rounds: [{ discarded: false, pair: ['2', '3'], received: ['2', '3'], round: 'MM1', winner: 'p2' }, { discarded: false, pair: ['1E', '3D'], received: ['3D', '1E'], round: 'DM1', winner: 'p1' }],
  players: {
    p1: { conditions: [{ condition: '1E' }, { condition: '2A' }], hand: [2, 5, 5], points: 1, duplicard: true },
    p2: { conditions: [{ condition: '3D' }], hand: [3], points: 3, duplicard: true },
  },
  rounds: [], grid: [], waiting_for: '', ...extra,
});

// ----- the headline score beside each player's name -----

test('headline: each game\u2019s own score for both seats, singular right', () => {
  const cases = [
    ['goofspiel', goofspiel.headline(goof), { p1: '1 point', p2: '23 points' }],
    ['goofspiel at the start', goofspiel.headline({ points: { p1: 0, p2: 0 } }), { p1: '0 points', p2: '0 points' }],
    ['square-goofspiel', squareGoofspiel.headline(square), { p1: '1 line point', p2: '20 line points' }],
    ['all-in-goofspiel (halves)', allInGoofspiel.headline(allIn(null)), { p1: '1 point', p2: '7.5 points' }],
    ['all-in-goofspiel (a split)', allInGoofspiel.headline(allIn(null, { p1: 0.5, p2: 2 })), { p1: '0.5 points', p2: '2 points' }],
    ['thwart-omega', thwartOmega.headline(thwart), { p1: 'score 60', p2: 'score 1' }],
    ['thwart-omega, colours swapped', thwartOmega.headline({ ...thwart, black: { ...thwart.black, seat: 'p2' }, white: { ...thwart.white, seat: 'p1' } }), { p1: 'score 1', p2: 'score 60' }],
    ['galespiel', galespiel.headline(gale()), { p1: '9 M \u00b7 12 M to join', p2: '1 M \u00b7 cut off' }],
    ['galespiel, joined', galespiel.headline(gale({ players: { p1: { materials: 0, cheapest_connection: 0 }, p2: { materials: 4, cheapest_connection: 7 } } })), { p1: '0 M \u00b7 joined', p2: '4 M \u00b7 7 M to join' }],
    ['witchs-brew', witchsBrew.headline(brew({ stage: 'play_cards' })), { p1: '1 VP', p2: '3 VP' }],
  ];
  for (const [what, got, want] of cases) assert.deepEqual(got, want, what);
  for (const [what, got] of cases) for (const t of Object.values(got)) assert.doesNotMatch(t, /\b1 (points|line points)\b|undefined|null|NaN/, what);
});

// ----- the action bar's prompt -----

test('prompt: the action with the numbers that matter, for every game and decision', () => {
  const cases = [
    ['goofspiel', goofspiel.prompt(goof, acting()), 'Bid for the 6-point prize: pick one of your 7 cards, then Submit.'],
    ['goofspiel, a 1-point prize and the last card', goofspiel.prompt({ ...goof, prize: 1, hands: { p1: [13], p2: [2] } }, acting()), 'Bid your last card, 13, for the 1-point prize: choose it, then Submit.'],
    ['square-goofspiel', squareGoofspiel.prompt(square, acting()), 'Bid for cell e5 (auction F of phase 3 of 6): bid one of your 6 cards or pass, then Submit.'],
    ['square-goofspiel, one card', squareGoofspiel.prompt(square, acting('p2')), 'Bid for cell e5 (auction F of phase 3 of 6): bid your last card, 5, or pass, then Submit.'],
    ['all-in, the starter', allInGoofspiel.prompt(allIn({ round: 2, worth: 2, starter: 'p1', responder: 'p2', face_down_count: null }), acting()),
      'Round 2, worth 2 points: you start, face down; click cards from your 3 cards in the order you put them down, or pass; then Submit.'],
    ['all-in, the responder', allInGoofspiel.prompt(allIn({ round: 1, worth: 1, starter: 'p1', responder: 'p2', face_down_count: 2 }), acting('p2')),
      'Round 1, worth 1 point: Ann put down 2 cards face down; answer: put down your last card, 1, or pass; then Submit.'],
    ['all-in, the starter passed', allInGoofspiel.prompt(allIn({ round: 3, worth: 3, starter: 'p2', responder: 'p1', face_down_count: 0 }), acting()),
      'Round 3, worth 3 points: Bob put down no cards; answer: click cards from your 3 cards in the order you put them down, or pass; then Submit.'],
    ['thwart-omega', thwartOmega.prompt(thwart, acting()), 'Round 8, 23 cells empty: click a cell for a black stone, then one for a white stone, then Submit (your score is black\u2019s groups multiplied).'],
    ['thwart-omega, white, one cell', thwartOmega.prompt({ ...thwart, empty: 1 }, acting('p2')), 'Round 8, 1 cell empty: click a cell for a black stone, then one for a white stone, then Submit (your score is white\u2019s groups multiplied).'],
    ['galespiel, bid', galespiel.prompt(gale(), acting('p1', { decision: 'bid' })), 'Bid for the 5 M prize: pick one of your 2 cards, then Submit (you have 9 M).'],
    ['galespiel, build', galespiel.prompt(gale({ waiting_for: 'p1\'s build' }), acting('p1', { decision: 'build' })),
      'Build: you have 9 M, 12 M to join; click free spots (each costs its number, 1 to 6 M), then Submit, or \u201cdone\u201d for none.'],
    ['galespiel, upgrade', galespiel.prompt(gale({ waiting_for: 'p1\'s choice of 1 upgrade(s)' }), acting('p1', { decision: 'upgrade' })),
      'Your bridges surrounded a dot: choose 1 even card to upgrade (2+ wins ties, 4+ gains 3 M, 6+ makes your first bridge free, 8+ is worth 10), then Submit.'],
    ['galespiel, two upgrades', galespiel.prompt(gale({ waiting_for: 'p1\'s choice of 2 upgrade(s)' }), acting('p1', { decision: 'upgrade' })),
      'Your bridges surrounded dots: choose 2 even cards to upgrade (2+ wins ties, 4+ gains 3 M, 6+ makes your first bridge free, 8+ is worth 10), then Submit.'],
    ['galespiel, Crystal Ball', galespiel.prompt(gale({ waiting_for: 'the Crystal Ball window at the start of the cycle' }), acting('p1', { decision: 'item' })),
      'Crystal Ball: use it to see this cycle\u2019s whole prize order, or skip to keep it; then Submit.'],
    ['galespiel, Rush Order', galespiel.prompt(gale({ waiting_for: 'p1\'s Rush Order window' }), acting('p1', { decision: 'item' })),
      'Rush Order: send the 5 M prize to the end of the cycle and reveal the next, or skip to keep the item; then Submit.'],
    ['witchs-brew, a Cauldron race won', witchsBrew.prompt(brew({ stage: 'pick', seat: 'p1' }, { prize_pair: ['1', '8'] }), acting()),
      'You won the Cauldron race of MM2 (Main Match 2): pick 1 Snipe or 8 Diminish; Bob gets the other. Then Submit.'],
    ['witchs-brew, a DM pair', witchsBrew.prompt(brew({ stage: 'pick', seat: 'p2' }, { cauldron: 'DM2', prize_pair: ['2B', '3C'] }), acting('p2')),
      `You won the Cauldron race of DM2 (Death Match 2): pick 2B: ${witchsBrew.WB_CONDITIONS['2B']} or 3C: ${witchsBrew.WB_CONDITIONS['3C']}; Ann gets the other. Then Submit.`],
    ['witchs-brew, the Intermission', witchsBrew.prompt(brew({ stage: 'assign' }), acting()),
      'Intermission: assign each of your 2 victory conditions to round 6, 9 or 12 (at most three a round), then Submit.'],
    ['witchs-brew, a card', witchsBrew.prompt(brew({ stage: 'play_cards' }, { placement_round: 4 }), acting('p2')),
      'Placement round 4 of 12: play your last card, 3 Guess (the higher value wins the round; every card\u2019s effect happens either way), then Submit.'],
    ['witchs-brew, the winner\u2019s stone under a Lock', witchsBrew.prompt(brew({ stage: 'winner_stone' }, { placement_round: 1, waiting_for: "p2's stone on an empty cell in column e (p1's Lock), such as `d4`" }), acting('p2')),
      'You won placement round 1: place your stone on an empty cell in column e (Ann\u2019s Lock): click the cell, then Submit.'],
    ['witchs-brew, the loser\u2019s stone', witchsBrew.prompt(brew({ stage: 'loser_stone' }, { placement_round: 2, waiting_for: "p1's stone on an empty cell, such as `d4`" }), acting()),
      'You lost placement round 2: place your stone on an empty cell: click the cell, then Submit.'],
    ['witchs-brew, the gray stone', witchsBrew.prompt(brew({ stage: 'gray_stone' }, { waiting_for: "p1's gray stone on an empty cell" }), acting()),
      'Place the gray (neutral) stone on an empty cell: click it, then Submit.'],
    ['witchs-brew, a Leap', witchsBrew.prompt(brew({ stage: 'winner_move' }, { waiting_for: "p1's Leap: a stone of theirs and a direction (`c3 up`), or `pass`" }), acting()),
      'Your Leap: choose one of your stones and a direction (it jumps to the nearest empty cell that way), or pass; then Submit.'],
    ['witchs-brew, a Shift', witchsBrew.prompt(brew({ stage: 'loser_move' }, { waiting_for: "p1's Shift: a stone (theirs or neutral) and an empty neighbour (`c3 c4`), or `pass`" }), acting()),
      'Your Shift: move one of your stones or a gray one to an empty neighbouring cell, or pass; then Submit.'],
  ];
  for (const [what, got, want] of cases) assert.equal(got, want, what);
  for (const [what, got] of cases) assert.doesNotMatch(got, /\bp[12]\b|undefined|null|NaN|`|your 1 card/, what);
});

test('prompt: null when the seat cannot act, and for a spectator', () => {
  const views = [[goofspiel, goof], [squareGoofspiel, square], [allInGoofspiel, allIn({ round: 1, worth: 1, starter: 'p1', responder: 'p2', face_down_count: null })],
    [thwartOmega, thwart], [galespiel, gale()], [witchsBrew, brew({ stage: 'play_cards' })]];
  for (const [m, v] of views) {
    assert.equal(m.prompt(v, idle()), null);
    assert.equal(m.prompt(v, watcher), null);
  }
  // A finished game: nothing to decide.
  assert.equal(goofspiel.prompt({ ...goof, prize: null }, acting()), null);
  assert.equal(allInGoofspiel.prompt(allIn(null), acting()), null);
});

// ----- the game's words explained -----

test('glossary: M and "to join" in Galespiel; VP, MM1/DM1 and a live race\u2019s Category in The Witch\u2019s Brew', () => {
  const terms = (g) => g.map(([t]) => t);
  assert.deepEqual(terms(galespiel.glossary()), ['M', 'to join']);
  assert.match(galespiel.glossary()[0][1], /^materials/);
  assert.deepEqual(terms(witchsBrew.glossary(brew({ stage: 'play_cards' }))), ['VP', 'MM1, DM1, FM1']);
  assert.deepEqual(terms(witchsBrew.glossary({ ...brew({ stage: 'race' }), cauldron_mode: 'live' })), ['VP', 'MM1, DM1, FM1', 'Category']);
  assert.match(witchsBrew.glossary({ cauldron_mode: 'live' })[2][1], /free \(any round\)/);
  assert.equal(witchsBrew.cauldronRound('MM1'), 'Main Match 1');
  assert.equal(witchsBrew.cauldronRound('dm9'), 'Death Match 9');
  assert.equal(witchsBrew.cauldronRound('FM2'), 'Final Match 2');
});

// ----- render: names, never seat ids; plurals; finished boards -----

function fakeNode(tag, attrs, children) {
  const node = {
    tag, attrs: attrs || {}, children: [], dataset: {},
    append(...c) { node.children.push(...c.flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false)); },
    addEventListener() {}, setAttribute(k, v) { node.attrs[k] = v; }, querySelector() { return null; },
  };
  node.append(...children);
  return node;
}
const fake = (tag, attrs, ...children) => fakeNode(tag, attrs, children);
const KIT = {
  h: fake, s: fake,
  name: (ctx, seat) => ctx.names?.[seat] || seat,
  col: (i) => String.fromCharCode(97 + i),
  table: (head, rows) => fake('table', {}, fake('tr', {}, head), rows.map((r) => fake('tr', {}, r))),
  list: (items) => fake('ol', {}, items.map((t) => fake('li', {}, t))),
  card: (label, o = {}) => fake('button', {}, label, o.detail || null),
  grid: (rows, cols, cell) => fake('svg', {}, Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => { const d = cell(r, c) || {}; return fake('g', {}, d.label ?? '', d.title ?? ''); }))),
  roving() {},
};
const textOf = (n) => (n === null || n === undefined || n === false ? '' : typeof n !== 'object' ? String(n) : n.children.map(textOf).filter(Boolean).join(' | '));
const allText = (parts) => ['board', 'hand', 'score', 'log', 'tools', 'legend'].map((k) => textOf(parts[k])).join(' || ');

test('render: logs, scores and boards name the players, never p1/p2; the parts carry headline and prompt', () => {
  const wbGrid = Array.from({ length: 6 }, () => Array.from({ length: 7 }, () => ({ stone: null, frozen: false })));
  const renders = [
    ['goofspiel', goofspiel.render(goof, acting(), {}, KIT), goof, goofspiel],
    ['square-goofspiel', squareGoofspiel.render(square, acting(), {}, KIT), square, squareGoofspiel],
    ['all-in-goofspiel', allInGoofspiel.render(allIn({ round: 2, worth: 2, starter: 'p1', responder: 'p2', face_down_count: null }), acting(), {}, KIT), allIn({ round: 2, worth: 2, starter: 'p1', responder: 'p2', face_down_count: null }), allInGoofspiel],
    ['thwart-omega', thwartOmega.render(thwart, acting(), {}, KIT), thwart, thwartOmega],
    ['galespiel', galespiel.render(gale({ last_round: { round: 2, prize: 6, bids: { p1: { value: 9 }, p2: { value: 3 } }, winner: 'p1', built: ['d2'], paid: 3 } }), acting('p1', { decision: 'bid' }), {}, KIT), gale(), galespiel],
    ['witchs-brew', witchsBrew.render(brew({ stage: 'play_cards' }, { grid: wbGrid, rounds: [{ round: 1, plays: ['5', '4'], values: [5, 4], winner: 'p1', reason: 'higher_value', placed: ['a1', 'b1', 'c1'], moved: [['a1', 'a2'], null], copied: [null, '5'] }] }), acting(), {}, KIT), null, witchsBrew],
  ];
  for (const [game, parts, view, m] of renders) {
    const text = allText(parts);
    assert.doesNotMatch(text, /\bp[12]\b/, `${game}: ${text}`);
    assert.doesNotMatch(text, /\b1 (points|rounds|cards|prizes)\b|undefined|NaN/, `${game}: ${text}`);
    assert.ok(parts.headline?.p1 && parts.headline?.p2, `${game}: headline`);
    assert.equal(typeof parts.prompt, 'string', `${game}: prompt`);
    if (view) assert.deepEqual(parts.headline, m.headline(view), game);
  }
  assert.match(textOf(renders[0][1].log), /prize 3: Ann 7, Bob 8 \u2192 Bob/);
  assert.match(textOf(renders[1][1].log), /phase 1 B f6: Ann 2, Bob 2 \u2192 nobody/);
  assert.match(textOf(renders[2][1].log), /round 1 \(1\): Ann 2 = 2; Bob nothing = 0 \u2192 Ann/);
  assert.match(textOf(renders[5][1].log), /Ann moved a1 \u2192 a2; Bob copied 5/);
});

test('render: finished boards read well, with no stray "-" and no empty lines', () => {
  const over = { ...goof, prize: null, prizes_left: [], hands: { p1: [], p2: [] } };
  const goofText = textOf(goofspiel.render(over, idle(), {}, KIT).board);
  assert.match(goofText, /The game is over after 2 prizes/);
  assert.match(textOf(goofspiel.render(over, idle(), {}, KIT).hand), /^Your hand \| no cards left \| Bob\u2019s hand \| no cards left$/);
  const aiOver = { ...allIn(null), rounds: [allIn(null).rounds[0]] };
  const aiText = textOf(allInGoofspiel.render(aiOver, idle(), {}, KIT).board);
  assert.match(aiText, /The game is over after 1 round \| Ann: 1 point \| Bob: 7.5 points/);
  const squareOver = { ...square, up_now: null, phase: 6, outcome: { winner: 'p2' } };
  const sqText = textOf(squareGoofspiel.render(squareOver, idle(), {}, KIT).score);
  assert.match(sqText, /Every cell has been auctioned/);
  const galeOver = gale({ prize: null, prizes_left: [], pending: 'over', waiting_for: 'nothing (the game is over)', rounds: 30 });
  const galeText = textOf(galespiel.render(galeOver, idle(), {}, KIT).score);
  assert.match(galeText, /The game is over after 30 rounds/);
  const wbOver = brew({ stage: 'over' }, { scoring_rounds_to_come: [], placement_round: 12, grid: [] });
  const wbText = textOf(witchsBrew.render(wbOver, idle(), {}, KIT).score);
  assert.match(wbText, /Every condition has been checked/);
  for (const t of [goofText, aiText, sqText, galeText, wbText]) assert.doesNotMatch(t, /(^|\| )[-\u2013]( \||$)|: [-\u2013]|\bnull\b|undefined/, t);
});

test('render: the legend explains Galespiel\u2019s M and The Witch\u2019s Brew\u2019s VP and MM1 where they appear', () => {
  const gl = textOf(galespiel.render(gale(), acting('p1', { decision: 'bid' }), {}, KIT).legend);
  assert.match(gl, /M \| : materials/);
  const wbGrid = Array.from({ length: 6 }, () => Array.from({ length: 7 }, () => ({ stone: null, frozen: false })));
  const wb = witchsBrew.render(brew({ stage: 'pick', seat: 'p1' }, { grid: wbGrid, prize_pair: ['1', '8'] }), acting(), {}, KIT);
  assert.match(textOf(wb.legend), /VP \| : victory points/);
  assert.match(textOf(wb.legend), /MM1, DM1, FM1 \| : the Cauldron/);
  assert.match(textOf(wb.hand), /^Cauldron round 3 of 4:\s+\|\s+MM2\s+\|\s+\(Main Match 2\)\s+\|\s+; on offer: 1 Snipe or 8 Diminish\./);
});

test('moveLabel: the pass words every game shares (pass, none, no submission) read as the pass', () => {
  for (const word of ['pass', 'none', 'NONE', 'no submission', 'No  Submission']) {
    assert.equal(witchsBrew.moveLabel(word), 'pass', word);
    assert.equal(galespiel.moveLabel(word, 'build'), 'build nothing', word);
    assert.equal(galespiel.moveLabel(word, 'item'), 'keep the item for later', word);
  }
  assert.equal(galespiel.moveLabel('done', 'build'), 'build nothing');
  assert.equal(galespiel.moveLabel('skip', 'item'), 'keep the item for later');
});
