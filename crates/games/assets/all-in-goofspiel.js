// All-In Goofspiel in the browser: the round, the hands (a play built card by card, with the
// number it makes), score and log from the view, its last reveal and its words, and the number
// rule. Loaded by the server's pages (boards.js) from /assets/games/all-in-goofspiel.js; it
// imports nothing: the shared helpers come in `kit`.

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);
/** "1 point", "7.5 points". */
const count = (n, one, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;
/** A seat's name, never its id. */
const who = (ctx, seat) => ctx?.names?.[seat] || (seat === 'p1' ? 'Player 1' : 'Player 2');

/** The headline score beside each player's name: the points taken so far (halves from split
 *  rounds). */
export function headline(v) {
  return { p1: count(v.points?.p1 ?? 0, 'point'), p2: count(v.points?.p2 ?? 0, 'point') };
}

/** The action bar's sentence when `ctx.you` can act: the round's worth, whether you start or
 *  answer, and the cards you hold. */
export function prompt(v, ctx) {
  const cur = v.current;
  if (!ctx?.canAct || !ctx.you || !cur) return null;
  const hand = v.hands?.[ctx.you] || [];
  const worth = `Round ${cur.round}, worth ${count(cur.worth, 'point')}`;
  const cards = hand.length > 1 ? `click cards from your ${count(hand.length, 'card')} in the order you put them down, or pass; then Submit`
    : hand.length ? `put down your last card, ${hand[0]}, or pass; then Submit` : 'you have no cards left: pass, then Submit';
  if (cur.starter === ctx.you) return `${worth}: you start, face down; ${cards}.`;
  const down = cur.face_down_count ?? 0;
  return `${worth}: ${who(ctx, cur.starter)} put down ${down ? `${count(down, 'card')} face down` : 'no cards'}; answer: ${cards}.`;
}

export function placeholder() {
  return 'cards in order, e.g. 10 9, or pass';
}

export const optionLabels = { first: 'Who starts' };

// ----- the number rule (docs/rules/all-in-goofspiel.md, "The number rule") -----

/** The number a play's cards make side by side, as a BigInt (it can pass 2^53), and as written. */
export function allInNumber(cards) {
  const list = (cards || []).map(Number);
  if (!list.length) return { value: 0n, written: '0' };
  let total = 0n;
  let term = null;
  const close = () => { if (term) total += term.sign * BigInt(term.digits || '0'); };
  for (const c of list) {
    if (c < 0) { close(); term = { sign: -1n, digits: String(-c) }; } else {
      if (!term) term = { sign: 1n, digits: '' };
      term.digits += String(c);
    }
  }
  close();
  return { value: total, written: list.join('').replace(/(\d)-/g, '$1-') };
}

export function lastReveal(v, n) {
  const r = (v.rounds || []).at(-1);
  if (!r) return null;
  const play = (seat) => {
    const cards = r.cards?.[seat] || [];
    return cards.length ? `${cards.join(' ')} = ${r.numbers?.[seat]}` : 'nothing (0)';
  };
  const took = (w) => `${cap(n(w))} ${n(w) === 'you' ? 'take' : 'takes'} ${r.worth} points`;
  return { key: `a${v.rounds.length}`, moves: { p1: play('p1'), p2: play('p2') }, cells: [],
    sentence: `Round ${r.round} (worth ${r.worth}): ${n('p1')} played ${play('p1')}, ${n('p2')} played ${play('p2')}. ${r.winner ? took(r.winner) : `Equal numbers: ${r.worth} points split`}.` };
}

/** The board's line before the starter has put down cards: to the starter (who is to move), what
 *  to do; to anyone else, whom the round waits for. */
export function starterWaiting(cur, ctx, name) {
  if (ctx.you && cur.starter === ctx.you) return ctx.canAct ? 'you start: put down your cards face down' : 'you start this round';
  return `waiting for ${name(ctx, cur.starter)} to put down cards`;
}

export function render(v, ctx, _state, { h, s, table, list, name }) {
  const cur = v.current || {};
  const you = ctx.you;
  // Short lines (a long name wraps to the next line, never past the picture's edge).
  const svg = s('svg', { viewBox: '0 0 360 140', class: 'board', 'aria-label': 'the round' });
  const over = !v.current;
  svg.append(s('text', { x: 180, y: 18, class: 'axis' }, over ? `The game is over after ${count((v.rounds || []).length, 'round')}` : `Round ${cur.round}, worth ${count(cur.worth, 'point')}`));
  svg.append(s('text', { x: 180, y: 34, class: 'axis' }, over ? `${name(ctx, 'p1')}: ${count(v.points?.p1 ?? 0, 'point')}` : cur.starter === you ? 'You start,' : `${name(ctx, cur.starter)} starts,`));
  svg.append(s('text', { x: 180, y: 50, class: 'axis' }, over ? `${name(ctx, 'p2')}: ${count(v.points?.p2 ?? 0, 'point')}` : cur.responder === you ? 'you respond' : `${name(ctx, cur.responder)} responds`));
  const n = cur.face_down_count || 0;
  for (let i = 0; i < Math.min(n, 16); i++) {
    svg.append(s('rect', { x: 20 + i * 20, y: 58, width: 30, height: 44, rx: 4, class: 'card-back' }));
  }
  if (!over) {
    svg.append(s('text', { x: 180, y: 118, class: 'axis' }, n ? `${count(n, 'card')} face down` : cur.face_down_count === 0 ? `${name(ctx, cur.starter)} put down no cards` : starterWaiting(cur, ctx, name)));
    if (cur.face_down_cards) svg.append(s('text', { x: 180, y: 134, class: 'axis' }, `yours: ${cur.face_down_cards.join(' ')}`));
  }
  const mine = you ? v.hands?.[you] || [] : [];
  // The play being built: cards in the order clicked; a second click takes a card back.
  // A typed pass word (pass, none, no submission: RULINGS.md) is the pass, as the engine reads it.
  const passing = ctx.draft && /^(pass|none|no\s*submission)$/i.test(ctx.draft.trim());
  const draft = ctx.draft && !passing ? ctx.draft.split(/[\s,]+/).filter(Boolean).map(Number) : [];
  const made = allInNumber(draft);
  const toggle = (c) => {
    const next = draft.includes(c) ? draft.filter((x) => x !== c) : [...draft, c];
    ctx.pick(next.length ? next.join(' ') : null);
  };
  const hand = h('div', {},
    you ? h('div', { class: 'hand-row' }, h('span', { class: 'who' }, ctx.canAct ? 'Your hand: click cards in the order you put them down (click again to take one back), then Submit' : 'Your hand'),
      mine.map((c) => h('button', {
        type: 'button', class: `pcard${draft.includes(c) ? ' chosen' : ''}`, disabled: !ctx.canAct, 'data-card': c,
        'aria-pressed': ctx.canAct ? String(draft.includes(c)) : undefined, onclick: () => toggle(c),
      }, c, draft.includes(c) ? h('small', { class: 'order' }, ` #${draft.indexOf(c) + 1}`) : null)),
      mine.length || ctx.canAct ? null : h('span', { class: 'muted' }, 'no cards left'),
      ctx.canAct ? h('button', { type: 'button', class: `pcard${ctx.draft === 'pass' ? ' chosen' : ''}`, 'data-move': 'pass', 'aria-pressed': String(ctx.draft === 'pass'), onclick: () => ctx.pick(ctx.draft === 'pass' ? null : 'pass') }, 'pass (no cards)') : null) : null,
    you && ctx.canAct ? h('p', { class: 'made', 'data-testid': 'allin-number', 'aria-live': 'polite' }, draft.length
      ? `Your cards make ${made.written === String(made.value) ? made.value : `${made.written} = ${made.value}`}.`
      : passing ? 'You put down no cards: the number 0.' : 'No cards chosen yet.') : null,
    ['p1', 'p2'].filter((x) => x !== you).map((seat) => h('div', { class: 'hand-row' }, h('span', { class: 'who' }, `${name(ctx, seat)}\u2019s hand`),
      (v.hands?.[seat] || []).map((c) => h('span', { class: 'pcard mini' }, c)),
      (v.hands?.[seat] || []).length ? null : h('span', { class: 'muted' }, 'no cards left'))));
  const rounds = v.rounds || [];
  const last = rounds[rounds.length - 1];
  const play = (r, seat) => `${(r.cards[seat] || []).join(' ') || 'nothing'} = ${r.numbers[seat]}`;
  return {
    board: svg,
    builds: true,
    listLegal: false,
    hand,
    score: table(['', name(ctx, 'p1'), name(ctx, 'p2')], [['points', v.points?.p1, v.points?.p2], ['cards left', v.hands?.p1?.length, v.hands?.p2?.length]]),
    reveal: last ? h('p', {}, `Round ${last.round} (worth ${last.worth}): ${name(ctx, 'p1')} put down ${play(last, 'p1')}, ${name(ctx, 'p2')} put down ${play(last, 'p2')}; ${last.winner ? `${name(ctx, last.winner)} takes it` : 'split'}.`) : null,
    log: list(rounds.map((r) => `round ${r.round} (${r.worth}): ${who(ctx, 'p1')} ${play(r, 'p1')}; ${who(ctx, 'p2')} ${play(r, 'p2')} \u2192 ${r.winner ? who(ctx, r.winner) : 'split'}`)),
    headline: headline(v),
    prompt: prompt(v, ctx),
  };
}
