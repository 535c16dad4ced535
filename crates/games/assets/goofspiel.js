// Goofspiel in the browser: its board, hands, score and log from the view, its last reveal and
// its words. Loaded by the server's pages (boards.js) from /assets/games/goofspiel.js; it imports
// nothing: the shared helpers come in `kit` (docs/browser.md, "A game's browser code").

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);
/** "1 point", "12 points". */
const count = (n, one, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;
/** A seat's name, never its id. */
const who = (ctx, seat) => ctx?.names?.[seat] || (seat === 'p1' ? 'Player 1' : 'Player 2');

/** The headline score beside each player's name: the points won so far. */
export function headline(v) {
  return { p1: count(v.points?.p1 ?? 0, 'point'), p2: count(v.points?.p2 ?? 0, 'point') };
}

/** The action bar's sentence when `ctx.you` can act: the prize and the cards to bid with. */
export function prompt(v, ctx) {
  if (!ctx?.canAct || !ctx.you || v.prize === null || v.prize === undefined) return null;
  const hand = v.hands?.[ctx.you] || [];
  if (hand.length === 1) return `Bid your last card, ${hand[0]}, for the ${v.prize}-point prize: choose it, then Submit.`;
  return `Bid for the ${v.prize}-point prize: pick one of your ${count(hand.length, 'card')}, then Submit.`;
}

/** The notation box's hint for a decision. */
export function placeholder() {
  return 'a card, e.g. 7';
}

/** The lobby's words for the options. */
export const optionLabels = { cards: 'Cards', order: 'Prize order', returns: 'Result scored as' };

/** The last round's reveal ({key, sentence, moves, cells}), or null before the first. */
export function lastReveal(v, n) {
  const t = (v.turns || []).at(-1);
  if (!t) return null;
  const took = t.winner ? `${cap(n(t.winner))} ${n(t.winner) === 'you' ? 'take' : 'takes'} it` : 'A tie: nobody takes it';
  return { key: `g${v.turns.length}`, moves: { p1: String(t.p1), p2: String(t.p2) }, cells: [],
    sentence: `Prize ${t.prize}: ${n('p1')} played ${t.p1}, ${n('p2')} played ${t.p2}. ${took}.` };
}

/** The pieces of the table: {board, hand, score, reveal, log, builds}. */
export function render(v, ctx, _state, { h, s, card, table, list, name }) {
  const you = ctx.you;
  const svg = s('svg', { viewBox: '0 0 360 150', class: 'board', 'aria-label': 'the prize' });
  if (v.prize !== null && v.prize !== undefined) {
    svg.append(s('text', { x: 70, y: 22, class: 'axis' }, 'prize'));
    svg.append(s('rect', { x: 35, y: 30, width: 70, height: 100, rx: 8, class: 'prize-card' }));
    svg.append(s('text', { x: 70, y: 92, class: 'prize-value' }, v.prize));
  } else if ((v.prizes_left || []).length) {
    svg.append(s('text', { x: 70, y: 60, class: 'axis' }, 'the next prize'));
    svg.append(s('text', { x: 70, y: 80, class: 'axis' }, 'is being drawn'));
  } else {
    // No prize on the table: the game is over; the board says how it ended instead of a blank card.
    svg.append(s('text', { x: 180, y: 60, class: 'axis' }, `The game is over after ${count((v.turns || []).length, 'prize')}`));
    svg.append(s('text', { x: 180, y: 90, class: 'axis' }, `points: ${name(ctx, 'p1')} ${v.points?.p1 ?? 0}, ${name(ctx, 'p2')} ${v.points?.p2 ?? 0}`));
  }
  if ((v.prizes_left || []).length) svg.append(s('text', { x: 240, y: 22, class: 'axis' }, 'prizes still to come'));
  (v.prizes_left || []).forEach((p, i) => {
    const x = 140 + (i % 7) * 30;
    const y = 32 + Math.floor(i / 7) * 40;
    svg.append(s('rect', { x, y, width: 26, height: 34, rx: 4, class: 'small-card' }));
    svg.append(s('text', { x: x + 13, y: y + 22, class: 'cell-label' }, p));
  });
  const hands = ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
    h('span', { class: 'who' }, seat === you ? 'Your hand' : `${name(ctx, seat)}\u2019s hand`),
    (v.hands?.[seat] || []).map((c) => (seat === you ? card(String(c), { move: String(c), ctx }) : h('span', { class: 'pcard mini' }, c))),
    (v.hands?.[seat] || []).length ? null : h('span', { class: 'muted' }, 'no cards left')));
  const turns = v.turns || [];
  const last = turns[turns.length - 1];
  return {
    board: svg,
    builds: true,
    hand: h('div', {}, you === 'p2' ? hands.reverse() : hands),
    score: table(['', name(ctx, 'p1'), name(ctx, 'p2')], [['points', v.points?.p1, v.points?.p2]]),
    reveal: last ? h('p', {}, `For prize ${last.prize}: ${name(ctx, 'p1')} played ${last.p1}, ${name(ctx, 'p2')} played ${last.p2}; ${last.winner ? `${name(ctx, last.winner)} takes it` : 'a tie, nobody takes it'}.`) : null,
    log: list(turns.map((t) => `prize ${t.prize}: ${who(ctx, 'p1')} ${t.p1}, ${who(ctx, 'p2')} ${t.p2} \u2192 ${t.winner ? who(ctx, t.winner) : 'a tie'}`)),
    headline: headline(v),
    prompt: prompt(v, ctx),
  };
}
