// Square Goofspiel in the browser: the board (6x6, or n x n in the research variant `size`), hands, lines and auctions from the view, its
// last reveal and its words. Loaded by the server's pages (boards.js) from
// /assets/games/square-goofspiel.js; it imports nothing: the shared helpers come in `kit`.

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);
/** "1 line point", "16 line points". */
const count = (n, one, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;
/** A seat's name, never its id. */
const who = (ctx, seat) => ctx?.names?.[seat] || (seat === 'p1' ? 'Player 1' : 'Player 2');

/** The headline score beside each player's name: line points (the lines each player leads). */
export function headline(v) {
  return { p1: count(v.line_points?.p1 ?? 0, 'line point'), p2: count(v.line_points?.p2 ?? 0, 'line point') };
}

/** The action bar's sentence when `ctx.you` can act: the cell up for auction and the hand. */
export function prompt(v, ctx) {
  if (!ctx?.canAct || !ctx.you || !v.up_now) return null;
  const side = v.board?.length || 6;
  const label = (v.phase_cells || []).find((p) => p.cell === v.up_now)?.label;
  const cards = v.hands?.[ctx.you]?.cards || [];
  const what = cards.length > 1 ? `bid one of your ${count(cards.length, 'card')} or pass` : cards.length ? `bid your last card, ${cards[0]}, or pass` : 'you have no cards left: pass';
  return `Bid for cell ${v.up_now}${label ? ` (auction ${label} of phase ${v.phase} of ${side})` : ''}: ${what}, then Submit.`;
}

export function placeholder() {
  return 'a bid, e.g. 3, or pass';
}

export const optionLabels = { advantage: 'Ties go to' };

export function lastReveal(v, n) {
  const a = (v.auctions || []).at(-1);
  if (!a) return null;
  return { key: `s${v.auctions.length}`, moves: { p1: String(a.p1), p2: String(a.p2) }, cells: [a.cell],
    sentence: `Cell ${a.cell}: ${n('p1')} bid ${a.p1}, ${n('p2')} bid ${a.p2}. ${a.winner ? `${cap(n(a.winner))} ${n(a.winner) === 'you' ? 'win' : 'wins'} it` : 'Nobody wins it'}.` };
}

export function render(v, ctx, _state, { h, card, grid, table, list, name, col }) {
  const phase = Object.fromEntries((v.phase_cells || []).map((p) => [p.cell, p]));
  const side = v.board?.length || 6;
  const board = grid(side, side, (r, c) => {
    const st = v.board?.[r]?.[c];
    const id = `${col(c)}${r + 1}`;
    const p = phase[id];
    const owned = st === 'p1' || st === 'p2';
    // An owned cell shows its owner, never a phase letter over it.
    return {
      fill: owned ? `var(--${st})` : 'var(--cell)',
      label: owned ? (st === 'p1' ? '1' : '2') : p ? p.label : '',
      labelClass: owned ? 'on-dark' : p?.up_now ? 'up-now' : undefined,
      cls: p?.up_now && !owned ? 'highlight' : undefined,
      title: `${owned ? `${name(ctx, st)}\u2019s` : 'free'}${p && !owned ? `, auction ${p.label} of this phase${p.up_now ? ' (up now)' : ''}` : ''}`,
    };
  }, { ctx, label: `the ${side} by ${side} board` });
  const you = ctx.you;
  const handOf = (seat) => v.hands?.[seat] || { cards: [], strength: 0 };
  const hand = h('div', {},
    ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, `${seat === you ? 'Your hand' : `${name(ctx, seat)}\u2019s hand`} (strength ${handOf(seat).strength})`),
      seat === you ? [card('pass', { move: 'pass', ctx }), ...[...new Set(handOf(seat).cards)].map((c) => card(`${c} \u00d7${handOf(seat).cards.filter((x) => x === c).length}`, { move: String(c), ctx }))]
        : handOf(seat).cards.length ? handOf(seat).cards.map((c) => h('span', { class: 'pcard mini' }, c)) : h('span', { class: 'muted' }, 'no cards left'))));
  const lines = (v.lines || []).map((l) => [l.line, l.worth, `${l.cells[0]} / ${l.cells[1]}`, `${l.totals[0]} / ${l.totals[1]}`, l.winner ? name(ctx, l.winner) : 'nobody']);
  const auctions = v.auctions || [];
  const last = auctions[auctions.length - 1];
  return {
    board,
    legend: `Blue cells (1) are ${name(ctx, 'p1')}\u2019s, red (2) ${name(ctx, 'p2')}\u2019s; letters are this phase\u2019s auctions in order, the ringed one is up now.`,
    builds: true,
    hand,
    score: h('div', {},
      h('p', {}, `Line points: ${name(ctx, 'p1')} ${v.line_points?.p1 ?? 0}, ${name(ctx, 'p2')} ${v.line_points?.p2 ?? 0}. ${v.up_now ? `Phase ${v.phase} of ${side}; up now: ${v.up_now}.` : v.outcome ? 'Every cell has been auctioned.' : `Phase ${v.phase ?? 1} of ${side}.`}`),
      h('p', { class: 'hint' }, `Each line: its worth, the cells and card totals as ${name(ctx, 'p1')} / ${name(ctx, 'p2')}, and who leads it.`),
      table(['line', 'worth', 'cells', 'totals', 'leader'], lines)),
    reveal: last ? h('p', {}, `Cell ${last.cell} (${last.label}): ${name(ctx, 'p1')} bid ${last.p1}, ${name(ctx, 'p2')} bid ${last.p2}; ${last.winner ? `${name(ctx, last.winner)} wins it` : 'nobody wins it'}.`) : null,
    log: list(auctions.map((a) => `phase ${a.phase} ${a.label} ${a.cell}: ${who(ctx, 'p1')} ${a.p1}, ${who(ctx, 'p2')} ${a.p2} \u2192 ${a.winner ? who(ctx, a.winner) : 'nobody'}`)),
    headline: headline(v),
    prompt: prompt(v, ctx),
  };
}
