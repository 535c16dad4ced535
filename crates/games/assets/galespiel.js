// Galespiel in the browser: the lattice (bridges chosen by clicking spots), the cards, materials
// and score from the view, its last reveal and its words. Loaded by the server's pages
// (boards.js) from /assets/games/galespiel.js; it imports nothing: the shared helpers come in
// `kit`.

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);

/** "1 card", "7 cards". */
const count = (n, one, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

/** The headline beside each player's name: materials held, and the fewest M that would still
 *  join that player's two edges (the game's own score: the smaller need wins a stalemate). */
export function headline(v) {
  const of = (p) => {
    const join = p?.cheapest_connection;
    return `${p?.materials ?? 0} M \u00b7 ${join === null || join === undefined ? 'cut off' : join === 0 ? 'joined' : `${join} M to join`}`;
  };
  return { p1: of(v.players?.p1), p2: of(v.players?.p2) };
}

/** The game's words, explained where they first appear (the table shows them as a legend). */
export function glossary() {
  return GLOSSARY;
}
const GLOSSARY = [
  ['M', 'materials, won with the prizes and spent on bridges (a free spot\u2019s number is its cost in M); after each round you lose 1 M per 6 M held'],
  ['to join', 'the fewest M that would still join your two edges'],
];

/** The action bar's sentence when `ctx.you` can act, for the decision's kind (`ctx.decision`:
 *  bid, build, upgrade, item) with the numbers that matter. */
export function prompt(v, ctx) {
  if (!ctx?.canAct || !ctx.you) return null;
  const me = v.players?.[ctx.you] || {};
  const m = me.materials ?? 0;
  const join = me.cheapest_connection;
  const kind = ctx.decision || (/build/.test(v.waiting_for || '') ? 'build' : /upgrade/.test(v.waiting_for || '') ? 'upgrade' : /window/.test(v.waiting_for || '') ? 'item' : 'bid');
  if (kind === 'build') {
    const costs = (v.spots || []).filter((sp) => !sp.bridge).map((sp) => sp.cost);
    const range = costs.length ? ` (each costs its number, ${Math.min(...costs)} to ${Math.max(...costs)} M)` : '';
    return `Build: you have ${m} M${join ? `, ${join} M to join` : ''}; click free spots${range}, then Submit, or \u201cdone\u201d for none.`;
  }
  if (kind === 'upgrade') {
    const n = Number(/choice of (\d+)/.exec(v.waiting_for || '')?.[1] || 1);
    return `Your bridges surrounded ${n === 1 ? 'a dot' : 'dots'}: choose ${count(n, 'even card')} to upgrade (2+ wins ties, 4+ gains 3 M, 6+ makes your first bridge free, 8+ is worth 10), then Submit.`;
  }
  if (kind === 'item') {
    if (/Crystal/.test(v.waiting_for || '')) return 'Crystal Ball: use it to see this cycle\u2019s whole prize order, or skip to keep it; then Submit.';
    return `Rush Order: send ${v.prize ? `the ${v.prize} M prize` : 'this prize'} to the end of the cycle and reveal the next, or skip to keep the item; then Submit.`;
  }
  const cards = (me.cards || []).filter((c) => c.in_hand).length;
  return `Bid for the ${v.prize ?? '?'} M prize: pick one of your ${count(cards, 'card')}, then Submit (you have ${m} M).`;
}

export function placeholder(decision) {
  return decision === 'build' ? 'spots, e.g. b2 d2, or done' : 'a card, e.g. 5';
}

const spotList = (t) => {
  const spots = t.split(/[\s,]+/).filter(Boolean);
  return `${spots.length > 1 ? 'bridges on' : 'a bridge on'} ${spots.length > 1 ? `${spots.slice(0, -1).join(', ')} and ${spots.at(-1)}` : spots[0]}`;
};

/** A move in words (the move log, the list of moves): "bid 7 with Specialist's Aid", "build
 *  bridges on c3 and e5", "build nothing". `kind` is the decision's kind when known. */
export function moveLabel(move, kind) {
  const t = String(move ?? '').trim();
  let m;
  if (/^(done|-)$/i.test(t)) return 'build nothing';
  if ((m = /^upgrade\s+(.+)$/i.exec(t))) {
    const cards = m[1].split(/[\s,]+/).filter(Boolean);
    return `upgrade ${cards.length > 1 ? `cards ${cards.slice(0, -1).join(', ')} and ${cards.at(-1)}` : `card ${cards[0]}`}`;
  }
  if (/^(use|yes)$/i.test(t)) return 'use the item';
  // skip and no, and the pass words every game shares (RULINGS.md): pass, none, no submission.
  if (/^(skip|no|pass|none|no\s*submission)$/i.test(t)) return kind === 'build' ? 'build nothing' : 'keep the item for later';
  if ((m = /^emergency(?:\s+(.+))?$/i.exec(t))) return m[1] ? `build ${spotList(m[1])} with Emergency Delivery` : 'Emergency Delivery, building nothing';
  if ((m = /^(?:build\s+)?([a-m]\d{1,2}(?:[\s,]+[a-m]\d{1,2})*)$/i.exec(t))) return `build ${spotList(m[1])}`;
  if ((m = /^(?:aid\s+)?(\d{1,2}\+?)(?:\s+aid)?$/i.exec(t)) && (!kind || kind === 'bid')) return `bid ${m[1]}${/aid/i.test(t) ? ' with Specialist\u2019s Aid' : ''}`;
  return t;
}

export const optionLabels = { advantage: 'Ties go to', items: 'Items', board: 'Spot costs', cards: 'Cards' };

export function lastReveal(v, n) {
  const lr = v.last_round;
  if (!lr) return null;
  const bid = (b) => (b ? `${b.value}${b.aid ? ' with aid' : ''}` : '?');
  const built = lr.built?.length ? ` and ${n(lr.winner) === 'you' ? 'build' : 'builds'} ${lr.built.join(' ')} for ${lr.paid} M` : '';
  return { key: `l${lr.round}:${(lr.built || []).join(',')}`, moves: { p1: bid(lr.bids?.p1), p2: bid(lr.bids?.p2) }, cells: lr.built || [],
    sentence: `Round ${lr.round}, prize ${lr.prize} M: ${n('p1')} bid ${bid(lr.bids?.p1)}, ${n('p2')} bid ${bid(lr.bids?.p2)}. ${lr.winner ? `${cap(n(lr.winner))} ${n(lr.winner) === 'you' ? 'win' : 'wins'}${built}` : 'Nobody wins'}.` };
}

export function render(v, ctx, state, { h, s, card, table, roving, name, col }) {
  // The lattice's side from its spots: 61 on the seed's 13, 25 and 5 on the research variant's 9 and 5.
  const size = ({ 5: 5, 25: 9 })[(v.spots || []).length] || 13;
  const step = 28;
  const pad = 24;
  const W = pad * 2 + step * (size - 1);
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board', 'aria-label': 'the Galespiel lattice' });
  const X = (c) => pad + c * step;
  for (let c = 0; c < size; c++) svg.append(s('text', { x: X(c), y: 12, class: 'axis' }, col(c)));
  for (let r = 0; r < size; r++) svg.append(s('text', { x: 8, y: X(r) + 4, class: 'axis' }, r + 1));
  // Bridges first, under the dots.
  const building = ctx.canAct && (ctx.decision === 'build');
  const chosen = state.gale || (state.gale = []);
  const spotItems = [];
  for (const sp of v.spots || []) {
    const m = /^([a-m])(\d+)$/.exec(sp.spot);
    const c = m[1].charCodeAt(0) - 97;
    const r = Number(m[2]) - 1;
    const odd = c % 2 === 1;
    const free = building && !sp.bridge;
    const g = s('g', { class: `spot${free ? ' clickable' : ''}${chosen.includes(sp.spot) ? ' chosen' : ''}`, 'data-cell': sp.spot, role: free ? 'button' : 'img', 'aria-pressed': free ? String(chosen.includes(sp.spot)) : undefined, 'aria-label': `spot ${sp.spot}, cost ${sp.cost} M${sp.bridge ? `, ${name(ctx, sp.bridge)}\u2019s bridge` : ''}` });
    // A touch target as wide as the lattice allows: the diamond between the four neighbours.
    if (!sp.bridge) g.append(s('path', { d: `M${X(c)} ${X(r) - step}L${X(c) + step} ${X(r)}L${X(c)} ${X(r) + step}L${X(c) - step} ${X(r)}Z`, class: `hit${free ? ' live' : ''}` }));
    if (sp.bridge) {
      // Brown (p1) runs horizontally at odd/odd spots, vertically at even/even; blue the other way.
      const horizontal = (sp.bridge === 'p1') === odd;
      const ends = horizontal ? { x1: X(c - 1), y1: X(r), x2: X(c + 1), y2: X(r) } : { x1: X(c), y1: X(r - 1), x2: X(c), y2: X(r + 1) };
      g.append(s('line', { ...ends, class: `bridge ${sp.bridge}` }));
    } else {
      g.append(s('circle', { cx: X(c), cy: X(r), r: 10, class: 'spot-free' }));
      g.append(s('text', { x: X(c), y: X(r) + 4, class: 'spot-cost' }, sp.cost));
    }
    g.append(s('title', {}, `${sp.spot}: cost ${sp.cost} M${sp.bridge ? `, ${name(ctx, sp.bridge)}\u2019s bridge` : ''}`));
    const toggle = free ? () => {
      if (chosen.includes(sp.spot)) chosen.splice(chosen.indexOf(sp.spot), 1);
      else chosen.push(sp.spot);
      ctx.pick(chosen.length ? chosen.join(' ') : null);
    } : undefined;
    if (toggle) g.addEventListener('click', () => { ctx.focus = sp.spot; toggle(); });
    if (free) spotItems.push([g, r, c, toggle]);
    svg.append(g);
  }
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (c % 2 === 0 && r % 2 === 1) svg.append(s('circle', { cx: X(c), cy: X(r), r: 4, class: 'dot p1' }));
      if (c % 2 === 1 && r % 2 === 0) svg.append(s('circle', { cx: X(c), cy: X(r), r: 4, class: 'dot p2' }));
    }
  }
  roving(svg, spotItems, ctx);
  const you = ctx.you;
  const pl = v.players || {};
  const cardsOf = (seat) => (pl[seat]?.cards || []);
  // A plain card's effects read "-": nothing is written under it.
  const effects = (c) => (c.effects && c.effects.trim() !== '-' ? c.effects : null);
  // While building, the choice is on the board: the hand holds only "done" and what is chosen
  // (the prompt says the rest), so that on a phone the action bar leaves the lattice room.
  const hand = h('div', {},
    building ? null : ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, `${seat === you ? 'Your cards' : `${name(ctx, seat)}\u2019s cards`} (${pl[seat]?.colour ?? ''})`),
      cardsOf(seat).map((c) => (seat === you
        ? card(`${c.value}${c.upgraded ? '+' : ''} ${c.name !== String(c.card) ? c.name : ''}`, { move: String(c.card), ctx, dim: !c.in_hand, detail: effects(c) })
        : h('span', { class: `pcard mini${c.in_hand ? '' : ' dim'}` }, `${c.value}${c.upgraded ? '+' : ''}`, effects(c) ? h('small', { class: 'card-detail' }, effects(c)) : null))))),
    building ? h('div', { class: 'hand-row' }, card('done: build nothing', { move: 'done', ctx })) : null,
    building && chosen.length ? h('p', { class: 'hint', 'data-testid': 'build-hint' },
      `Chosen: ${chosen.join(' ')}, listed cost ${chosen.reduce((t, sp) => t + ((v.spots || []).find((x) => x.spot === sp)?.cost || 0), 0)} M (you have ${pl[you]?.materials ?? 0} M). Submit to build, or click a spot again to drop it.`) : null);
  const lr = v.last_round;
  const over = v.pending === 'over' || (v.prize === null && !(v.prizes_left || []).length && /over/.test(v.waiting_for || ''));
  const bid = (b) => (b ? `${b.value}${b.aid ? ' with aid' : ''}` : '?');
  const row = (k, f) => [k, f(pl.p1 || {}), f(pl.p2 || {})];
  // The lattice fits the width (both edges and every label in view). While this seat builds, a
  // Zoom toggle draws it larger where the page stacks or on a touch screen (galespiel.css: a
  // step of 48 px, in a box that scrolls) so that every free spot's touch target (the diamond
  // between its four neighbours) holds a square of more than 44x44 px; the choice is kept for
  // the next builds (`ctx.memory`) and the scroll between clicks.
  const keep = ctx.memory || state;
  const zoomed = building && !!keep.galeZoom;
  let board = svg;
  if (zoomed) {
    // The box drawn before this one holds the latest scroll: its scroll event may not have been
    // delivered yet (a click right after the page scrolled it), so read it directly.
    const prev = globalThis.document?.querySelector('[data-testid=gale-zoom]');
    if (prev && prev.scrollWidth > prev.clientWidth) state.galeScroll = [prev.scrollLeft, prev.scrollTop];
    board = h('div', { class: 'gale-zoom', 'data-testid': 'gale-zoom' }, svg);
    board.addEventListener('scroll', () => { state.galeScroll = [board.scrollLeft, board.scrollTop]; }, { passive: true });
    requestAnimationFrame(() => {
      if (!board.isConnected || board.scrollWidth <= board.clientWidth) return;
      const [left, top] = state.galeScroll || [(board.scrollWidth - board.clientWidth) / 2, 0];
      board.scrollLeft = left;
      board.scrollTop = top;
    });
  }
  if (building) {
    board = h('div', { class: 'gale-board' },
      h('button', {
        type: 'button', class: 'gale-zoom-toggle', 'data-testid': 'gale-zoom-toggle', 'aria-pressed': String(zoomed),
        onclick: () => { keep.galeZoom = !zoomed; state.galeScroll = undefined; ctx.rerender?.(); },
      }, zoomed ? 'Fit the board to the screen' : 'Zoom in: larger spots to tap'),
      board);
  }
  return {
    board,
    builds: true,
    // The legend explains the game's words where they first appear (a visible line, for touch).
    legend: h('span', { 'data-testid': 'glossary' }, `Brown (${name(ctx, 'p1')}) joins left to right, blue (${name(ctx, 'p2')}) top to bottom; circles are free spots with their cost in M.`,
      glossary().map(([term, text]) => [' ', h('b', { class: 'term' }, term), `: ${text}.`])),
    hand,
    score: h('div', {},
      h('p', {}, over ? `The game is over after ${count(v.rounds ?? 0, 'round')}.`
        : `Prize up now: ${v.prize === null || v.prize === undefined ? 'being drawn' : `${v.prize} M`}; ${(v.prizes_left || []).length ? `still to come this cycle: ${v.prizes_left.join(' ')} M` : 'the last of this cycle'}${v.upcoming?.some((x) => x !== null) ? `; you know the next: ${v.upcoming.map((x) => x ?? '?').join(' ')}` : ''}.`),
      table(['', name(ctx, 'p1'), name(ctx, 'p2')], [
        row('materials (M)', (p) => p.materials),
        row('M to join', (p) => (p.cheapest_connection === 0 ? 'joined' : p.cheapest_connection ?? 'cut off')),
        row('bridges', (p) => (p.bridges || []).length),
        row('dots surrounded', (p) => p.dots_surrounded),
        ...(v.players?.p1?.items_held?.length || v.players?.p2?.items_held?.length || v.players?.p1?.items_used?.length || v.players?.p2?.items_used?.length
          ? [row('items held', (p) => (p.items_held || []).join(', ') || 'none')] : [])])),
    reveal: lr ? h('p', {}, `Round ${lr.round}, prize ${lr.prize}: ${name(ctx, 'p1')} bid ${bid(lr.bids?.p1)}, ${name(ctx, 'p2')} bid ${bid(lr.bids?.p2)}; ${lr.winner ? `${name(ctx, lr.winner)} won${lr.built?.length ? ` and built ${lr.built.join(' ')} for ${lr.paid} M` : ''}` : 'nobody won'}.`) : null,
    log: h('p', {}, `${count(v.rounds ?? 0, 'round')} played; ${v.rounds_without_bridge ?? 0} in a row without a bridge.`),
    headline: headline(v),
    prompt: prompt(v, ctx),
  };
}
