// Per-game pictures of a view: an SVG board, the hand, the score, the last reveal and the log.
// A renderer gets the view JSON the server sent for this viewer and nothing else.
//
// render(game, view, ctx) returns {board, hand, score, reveal, log, tools, last, builds, listLegal},
// any of them null. ctx: {you: 'p1'|'p2'|null, names, legal: [text]|null, canAct: bool,
// submission: text|null, draft: text|null, pick(text): choose a move (it is previewed, never sent:
// Submit sends it), compose(text): put a move in the notation box, addToBox(token): append a
// token to the notation box}.
// One way to make a move everywhere: clicks build a move (`pick`), Submit sends it.
import { h, s, other } from './common.js';
import { lastReveal, allInNumber, wbCard, wbCondition, WB_CARDS, WB_CONDITIONS, moveLabel, gridStep } from './present.js';
import { withNames } from './movelog.js'; // social: names instead of p1/p2 in the game's sentences

const name = (ctx, seat) => (ctx.names && ctx.names[seat]) || seat;
const col = (i) => String.fromCharCode(97 + i);

function table(head, rows) {
  return h('div', { class: 'scroll', tabindex: '0' }, h('table', { class: 'score' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c)))))));
}

function list(items, cls = 'log') {
  return items.length ? h('ol', { class: cls, tabindex: '0' }, items.map((t) => h('li', {}, t))) : h('p', { class: 'muted' }, 'Nothing yet.');
}

/** A clickable card: a click chooses its move (previewed; Submit sends it). */
function card(label, { move, ctx, title, dim, cls, detail } = {}) {
  const playable = move !== undefined && ctx?.canAct && (!ctx.legal || ctx.legal.includes(move));
  const chosen = move !== undefined && (ctx?.draft === move || (ctx?.draft == null && ctx?.submission === move));
  return h('button', {
    type: 'button',
    class: `pcard${dim ? ' dim' : ''}${chosen ? ' chosen' : ''}${cls ? ` ${cls}` : ''}${detail ? ' with-detail' : ''}`,
    disabled: !playable,
    title,
    'data-move': move,
    'aria-pressed': move !== undefined && ctx?.canAct ? String(chosen) : undefined,
    onclick: playable ? () => ctx.pick(chosen && ctx.draft === move ? null : move) : undefined,
  }, label, detail ? h('small', { class: 'card-detail' }, detail) : null);
}

/**
 * Keyboard on a board: one Tab stop (roving tabindex), arrows move between the focusable items,
 * Enter or Space acts on the focused one. `items` are [element, row, col, act|undefined].
 */
function roving(svg, items, ctx) {
  if (!items.length) return;
  const start = items.find(([el]) => el.dataset.cell === ctx?.focus) || items.find(([, , , act]) => act) || items[0];
  for (const [el] of items) el.setAttribute('tabindex', el === start[0] ? '0' : '-1');
  const rows = Math.max(...items.map(([, r]) => r)) + 1;
  const cols = Math.max(...items.map(([, , c]) => c)) + 1;
  svg.addEventListener('keydown', (e) => {
    const at = items.find(([el]) => el === e.target.closest('[data-cell]'));
    if (!at) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (at[3]) { if (ctx) ctx.focus = at[0].dataset.cell; at[3](); }
      return;
    }
    const to = gridStep(e.key, at[1], at[2], rows, cols);
    if (!to) return;
    e.preventDefault();
    // The nearest item in that direction (spots of a lattice are not on every cell).
    const dr = Math.sign(to[0] - at[1]);
    const dc = Math.sign(to[1] - at[2]);
    const ahead = items.filter(([, r, c]) => (dr === 0 || Math.sign(r - at[1]) === dr) && (dc === 0 || Math.sign(c - at[2]) === dc) && !(r === at[1] && c === at[2]));
    if (!ahead.length) return;
    const dist = ([, r, c]) => Math.abs(r - at[1]) * (dr ? 1 : 4) + Math.abs(c - at[2]) * (dc ? 1 : 4);
    const next = ahead.reduce((a, b) => (dist(b) < dist(a) ? b : a));
    at[0].setAttribute('tabindex', '-1');
    next[0].setAttribute('tabindex', '0');
    next[0].focus();
    if (ctx) ctx.focus = next[0].dataset.cell;
  });
}

/** An SVG grid of rows x cols cells; cell(r, c) gives {fill, label, stone, title, click, cls}. */
function grid(rows, cols, cell, { size = 44, ctx, label = 'board' } = {}) {
  const pad = 22;
  const w = cols * size + pad * 2;
  const hgt = rows * size + pad * 2;
  const svg = s('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'board', role: 'grid', 'aria-label': `${label}: ${cols} columns and ${rows} rows; arrow keys move, Enter chooses` });
  for (let c = 0; c < cols; c++) {
    svg.append(s('text', { x: pad + c * size + size / 2, y: 15, class: 'axis', 'aria-hidden': 'true' }, col(c)));
    svg.append(s('text', { x: pad + c * size + size / 2, y: hgt - 5, class: 'axis', 'aria-hidden': 'true' }, col(c)));
  }
  const items = [];
  for (let r = 0; r < rows; r++) {
    svg.append(s('text', { x: 10, y: pad + r * size + size / 2 + 4, class: 'axis', 'aria-hidden': 'true' }, r + 1));
    svg.append(s('text', { x: w - 10, y: pad + r * size + size / 2 + 4, class: 'axis', 'aria-hidden': 'true' }, r + 1));
    const row = s('g', { role: 'row' });
    for (let c = 0; c < cols; c++) {
      const d = cell(r, c) || {};
      const x = pad + c * size;
      const y = pad + r * size;
      const id = `${col(c)}${r + 1}`;
      const g = s('g', {
        class: `cell${d.click ? ' clickable' : ''}${d.cls ? ` ${d.cls}` : ''}`,
        'data-cell': id,
        role: 'gridcell',
        'aria-disabled': d.click ? undefined : 'true',
        'aria-label': `${id}${d.label ? ` ${d.label}` : ''}${d.title ? `: ${d.title}` : ''}`,
      });
      g.append(s('rect', { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 4, fill: d.fill || 'var(--cell)', class: d.rectClass }));
      if (d.stone) g.append(d.stone(x + size / 2, y + size / 2, size));
      if (d.label !== undefined && d.label !== '') g.append(s('text', { x: x + size / 2, y: y + size / 2 + 5, class: `cell-label${d.labelClass ? ` ${d.labelClass}` : ''}`, 'aria-hidden': 'true' }, d.label));
      if (d.title) g.append(s('title', {}, `${id}: ${d.title}`));
      if (d.click) g.addEventListener('click', () => { if (ctx) ctx.focus = id; d.click(); });
      items.push([g, r, c, d.click]);
      row.append(g);
    }
    svg.append(row);
  }
  roving(svg, items, ctx);
  return svg;
}

// ---------------------------------------------------------------- Goofspiel

function goofspiel(v, ctx) {
  const you = ctx.you;
  const svg = s('svg', { viewBox: '0 0 360 150', class: 'board', 'aria-label': 'the prize' });
  svg.append(s('text', { x: 70, y: 22, class: 'axis' }, 'prize'));
  svg.append(s('rect', { x: 35, y: 30, width: 70, height: 100, rx: 8, class: 'prize-card' }));
  svg.append(s('text', { x: 70, y: 92, class: 'prize-value' }, v.prize ?? '–'));
  svg.append(s('text', { x: 240, y: 22, class: 'axis' }, 'prizes still to come'));
  (v.prizes_left || []).forEach((p, i) => {
    const x = 140 + (i % 7) * 30;
    const y = 32 + Math.floor(i / 7) * 40;
    svg.append(s('rect', { x, y, width: 26, height: 34, rx: 4, class: 'small-card' }));
    svg.append(s('text', { x: x + 13, y: y + 22, class: 'cell-label' }, p));
  });
  const hands = ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
    h('span', { class: 'who' }, seat === you ? 'Your hand' : `${name(ctx, seat)}\u2019s hand`),
    (v.hands?.[seat] || []).map((c) => (seat === you ? card(String(c), { move: String(c), ctx }) : h('span', { class: 'pcard mini' }, c)))));
  const turns = v.turns || [];
  const last = turns[turns.length - 1];
  return {
    board: svg,
    builds: true,
    hand: h('div', {}, you === 'p2' ? hands.reverse() : hands),
    score: table(['', name(ctx, 'p1'), name(ctx, 'p2')], [['points', v.points?.p1, v.points?.p2]]),
    reveal: last ? h('p', {}, `For prize ${last.prize}: ${name(ctx, 'p1')} played ${last.p1}, ${name(ctx, 'p2')} played ${last.p2}; ${last.winner ? `${name(ctx, last.winner)} takes it` : 'a tie, nobody takes it'}.`) : null,
    log: list(turns.map((t) => `prize ${t.prize}: p1 ${t.p1}, p2 ${t.p2} \u2192 ${t.winner || 'tie'}`)),
  };
}

// ---------------------------------------------------------------- Square Goofspiel

function squareGoofspiel(v, ctx) {
  const phase = Object.fromEntries((v.phase_cells || []).map((p) => [p.cell, p]));
  const board = grid(6, 6, (r, c) => {
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
  }, { ctx, label: 'the 6 by 6 board' });
  const you = ctx.you;
  const handOf = (seat) => v.hands?.[seat] || { cards: [], strength: 0 };
  const hand = h('div', {},
    ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, `${seat === you ? 'Your hand' : `${name(ctx, seat)}\u2019s hand`} (strength ${handOf(seat).strength})`),
      seat === you ? [card('pass', { move: 'pass', ctx }), ...[...new Set(handOf(seat).cards)].map((c) => card(`${c} \u00d7${handOf(seat).cards.filter((x) => x === c).length}`, { move: String(c), ctx }))]
        : handOf(seat).cards.map((c) => h('span', { class: 'pcard mini' }, c)))));
  const lines = (v.lines || []).map((l) => [l.line, l.worth, `${l.cells[0]} / ${l.cells[1]}`, `${l.totals[0]} / ${l.totals[1]}`, l.winner ? name(ctx, l.winner) : '–']);
  const auctions = v.auctions || [];
  const last = auctions[auctions.length - 1];
  return {
    board,
    legend: `Blue cells (1) are ${name(ctx, 'p1')}\u2019s, red (2) ${name(ctx, 'p2')}\u2019s; letters are this phase\u2019s auctions in order, the ringed one is up now.`,
    builds: true,
    hand,
    score: h('div', {},
      h('p', {}, `Line points: ${name(ctx, 'p1')} ${v.line_points?.p1 ?? 0}, ${name(ctx, 'p2')} ${v.line_points?.p2 ?? 0}. Phase ${v.phase ?? '–'}; up now: ${v.up_now ?? '–'}.`),
      table(['line', 'worth', 'cells p1/p2', 'totals p1/p2', 'leader'], lines)),
    reveal: last ? h('p', {}, `Cell ${last.cell} (${last.label}): ${name(ctx, 'p1')} bid ${last.p1}, ${name(ctx, 'p2')} bid ${last.p2}; ${last.winner ? `${name(ctx, last.winner)} wins it` : 'nobody wins it'}.`) : null,
    log: list(auctions.map((a) => `phase ${a.phase} ${a.label} ${a.cell}: p1 ${a.p1}, p2 ${a.p2} \u2192 ${a.winner || 'none'}`)),
  };
}

// ---------------------------------------------------------------- All-In Goofspiel

function allIn(v, ctx) {
  const cur = v.current || {};
  const you = ctx.you;
  const svg = s('svg', { viewBox: '0 0 360 130', class: 'board', 'aria-label': 'the round' });
  const over = !v.current;
  svg.append(s('text', { x: 180, y: 22, class: 'axis' }, over ? `The game is over after ${(v.rounds || []).length} rounds` : `Round ${cur.round}, worth ${cur.worth}: ${name(ctx, cur.starter)} starts, ${name(ctx, cur.responder)} responds`));
  const n = cur.face_down_count || 0;
  for (let i = 0; i < Math.min(n, 16); i++) {
    svg.append(s('rect', { x: 20 + i * 20, y: 40, width: 30, height: 44, rx: 4, class: 'card-back' }));
  }
  const down = cur.face_down_cards ? ` (yours: ${cur.face_down_cards.join(' ')})` : '';
  svg.append(s('text', { x: 180, y: 110, class: 'axis' }, over ? `points: ${name(ctx, 'p1')} ${v.points?.p1 ?? 0}, ${name(ctx, 'p2')} ${v.points?.p2 ?? 0}` : n ? `${n} card${n > 1 ? 's' : ''} face down${down}` : cur.face_down_count === 0 ? 'the starter put down no cards' : 'waiting for the starter'));
  const mine = you ? v.hands?.[you] || [] : [];
  // The play being built: cards in the order clicked; a second click takes a card back.
  const draft = ctx.draft && ctx.draft !== 'pass' ? ctx.draft.split(/\s+/).map(Number) : [];
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
      ctx.canAct ? h('button', { type: 'button', class: `pcard${ctx.draft === 'pass' ? ' chosen' : ''}`, 'data-move': 'pass', 'aria-pressed': String(ctx.draft === 'pass'), onclick: () => ctx.pick(ctx.draft === 'pass' ? null : 'pass') }, 'pass (no cards)') : null) : null,
    you && ctx.canAct ? h('p', { class: 'made', 'data-testid': 'allin-number', 'aria-live': 'polite' }, draft.length
      ? `Your cards make ${made.written === String(made.value) ? made.value : `${made.written} = ${made.value}`}.`
      : ctx.draft === 'pass' ? 'You put down no cards: the number 0.' : 'No cards chosen yet.') : null,
    ['p1', 'p2'].filter((x) => x !== you).map((seat) => h('div', { class: 'hand-row' }, h('span', { class: 'who' }, `${name(ctx, seat)}\u2019s hand`),
      (v.hands?.[seat] || []).map((c) => h('span', { class: 'pcard mini' }, c)))));
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
    log: list(rounds.map((r) => `round ${r.round} (${r.worth}): p1 ${play(r, 'p1')}; p2 ${play(r, 'p2')} \u2192 ${r.winner || 'split'}`)),
  };
}

// ---------------------------------------------------------------- Thwart Omega

function thwart(v, ctx, state) {
  const rows = v.rows || [];
  const n = rows.length;
  const sel = state.thwart || (state.thwart = []);
  const mineCells = {};
  const sub = ctx.submission && /B\s*([a-k]\d+)\s*W\s*([a-k]\d+)/i.exec(ctx.submission);
  if (sub) { mineCells[sub[1]] = 'B'; mineCells[sub[2]] = 'W'; }
  const drafted = ctx.draft && /B\s*([a-k]\d+)\s*W\s*([a-k]\d+)/i.exec(ctx.draft);
  if (drafted && !sel.length) { sel.push(drafted[1], drafted[2]); }
  if (sel.length) { for (const k of Object.keys(mineCells)) delete mineCells[k]; }
  sel.forEach((c, i) => { mineCells[c] = i === 0 ? 'B' : 'W'; });
  const stone = (ch) => (x, y, size) => {
    if (ch === '#') return s('path', { d: `M${x - size / 4} ${y - size / 4}L${x + size / 4} ${y + size / 4}M${x + size / 4} ${y - size / 4}L${x - size / 4} ${y + size / 4}`, class: 'burn' });
    const black = ch.toLowerCase() === 'b';
    const dbl = ch === 'B' || ch === 'W';
    return s('g', {}, s('circle', { cx: x, cy: y, r: size * 0.36, class: black ? 'stone-black' : 'stone-white' }),
      dbl ? s('circle', { cx: x, cy: y, r: size * 0.18, class: black ? 'double-black' : 'double-white' }) : null);
  };
  const board = grid(n, n, (r, c) => {
    const ch = rows[r][c];
    const id = `${col(c)}${r + 1}`;
    const pending = mineCells[id];
    const empty = ch === '.';
    return {
      stone: empty ? (pending ? (x, y, size) => s('circle', { cx: x, cy: y, r: size * 0.3, class: pending === 'B' ? 'ghost-black' : 'ghost-white' }) : null) : stone(ch),
      title: { '.': 'empty', b: 'black', B: 'double black', w: 'white', W: 'double white', '#': 'burned' }[ch] + (pending ? `, your ${pending === 'B' ? 'black' : 'white'} stone this round` : ''),
      click: empty && ctx.canAct ? () => {
        // Click a cell again to take its stone back; a third cell replaces the white stone.
        if (sel.includes(id)) sel.splice(sel.indexOf(id), 1);
        else if (sel.length === 2) sel[1] = id;
        else sel.push(id);
        if (sel.length === 2) ctx.pick(`B ${sel[0]} W ${sel[1]}`);
        else { ctx.pick(null); ctx.compose(sel.length ? `B ${sel[0]} W ` : ''); }
      } : undefined,
    };
  }, { ctx, label: 'the Thwart Omega board' });
  const groups = (x) => (x?.groups?.length ? x.groups.join(' \u00d7 ') : 'no stones');
  // The view holds only the last round; the page keeps the rounds it has seen.
  const memo = ctx.memory ? (ctx.memory.thwart ||= {}) : {};
  if (v.last_round && v.rounds) memo[v.rounds] = v.last_round;
  const seen = Object.entries(memo).map(([n, r]) => [Number(n), r]).filter(([n]) => n <= (v.rounds ?? 0)).sort((x, y) => x[0] - y[0]);
  const lr = v.last_round;
  return {
    board,
    legend: `Black: ${name(ctx, 'p1')}; white: ${name(ctx, 'p2')}. A ring marks a double stone (weight 2); a cross a burned cell.`,
    builds: true,
    hand: ctx.you && ctx.canAct ? h('p', { class: 'hint' }, sel.length === 2 ? `Black on ${sel[0]}, white on ${sel[1]}: Submit to play, or click a stone to take it back.`
      : sel.length === 1 ? `Black on ${sel[0]}. Now click an empty cell for your white stone.` : 'Click an empty cell for your black stone, then another for your white stone, then Submit.') : null,
    score: table(['colour', 'player', 'groups', 'product'], [
      ['black', name(ctx, v.black?.seat || 'p1'), groups(v.black), v.black?.product ?? 0],
      ['white', name(ctx, v.white?.seat || 'p2'), groups(v.white), v.white?.product ?? 0]]),
    reveal: lr ? h('p', {}, `Last round: ${name(ctx, 'p1')} played ${lr.p1}, ${name(ctx, 'p2')} played ${lr.p2}.`) : null,
    log: h('div', {}, h('p', {}, `${v.rounds ?? 0} rounds played, ${v.empty ?? '?'} cells empty.`),
      seen.length ? list(seen.map(([n, r]) => `round ${n}: p1 ${r.p1}; p2 ${r.p2}`)) : null,
      v.rounds > seen.length ? h('p', { class: 'hint' }, 'Earlier rounds are in the replay once the match ends.') : null),
  };
}

// ---------------------------------------------------------------- Galespiel

function galespiel(v, ctx, state) {
  const size = 13;
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
    g.append(s('title', {}, `${sp.spot}: cost ${sp.cost}${sp.bridge ? `, ${sp.bridge}'s bridge` : ''}`));
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
  const hand = h('div', {},
    ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, `${seat === you ? 'Your cards' : `${name(ctx, seat)}\u2019s cards`} (${pl[seat]?.colour ?? ''})`),
      cardsOf(seat).map((c) => (seat === you
        ? card(`${c.value}${c.upgraded ? '+' : ''} ${c.name !== String(c.card) ? c.name : ''}`, { move: String(c.card), ctx, dim: !c.in_hand, detail: c.effects || null })
        : h('span', { class: `pcard mini${c.in_hand ? '' : ' dim'}` }, `${c.value}${c.upgraded ? '+' : ''}`, c.effects ? h('small', { class: 'card-detail' }, c.effects) : null))))),
    building ? h('div', { class: 'hand-row' }, card('done: build nothing', { move: 'done', ctx })) : null,
    building ? h('p', { class: 'hint', 'data-testid': 'build-hint' }, chosen.length
      ? `Chosen: ${chosen.join(' ')}, listed cost ${chosen.reduce((t, sp) => t + ((v.spots || []).find((x) => x.spot === sp)?.cost || 0), 0)} M (you have ${pl[you]?.materials ?? 0} M). Submit to build, or click a spot again to drop it.`
      : 'Click free spots to choose bridges (their costs are shown), then Submit; or choose \u201cdone\u201d to build nothing.') : null);
  const lr = v.last_round;
  const bid = (b) => (b ? `${b.value}${b.aid ? ' with aid' : ''}` : '?');
  const row = (k, f) => [k, f(pl.p1 || {}), f(pl.p2 || {})];
  return {
    board: svg,
    builds: true,
    legend: `Brown (${name(ctx, 'p1')}) joins left to right, blue (${name(ctx, 'p2')}) top to bottom; circles are free spots with their cost in M.`,
    hand,
    score: h('div', {},
      h('p', {}, `Prize up now: ${v.prize ?? '–'} M; still to come this cycle: ${(v.prizes_left || []).join(' ') || '–'}${v.upcoming?.some((x) => x !== null) ? `; you know the next: ${v.upcoming.map((x) => x ?? '?').join(' ')}` : ''}.`),
      table(['', name(ctx, 'p1'), name(ctx, 'p2')], [
        row('materials (M)', (p) => p.materials),
        row('cheapest connection (M)', (p) => p.cheapest_connection ?? 'cut off'),
        row('bridges', (p) => (p.bridges || []).length),
        row('dots surrounded', (p) => p.dots_surrounded),
        row('items held', (p) => (p.items_held || []).join(', ') || '–')])),
    reveal: lr ? h('p', {}, `Round ${lr.round}, prize ${lr.prize}: ${name(ctx, 'p1')} bid ${bid(lr.bids?.p1)}, ${name(ctx, 'p2')} bid ${bid(lr.bids?.p2)}; ${lr.winner ? `${name(ctx, lr.winner)} won${lr.built?.length ? ` and built ${lr.built.join(' ')} for ${lr.paid} M` : ''}` : 'nobody won'}.`) : null,
    log: h('p', {}, `${v.rounds ?? 0} rounds played; ${v.rounds_without_bridge ?? 0} in a row without a bridge.`),
  };
}

// ---------------------------------------------------------------- The Witch's Brew

function witchsBrew(v, ctx, state) {
  const gridRows = v.grid || [];
  const you = ctx.you;
  const stage = v.stage?.stage;
  const cellMove = ctx.canAct && ctx.legal && ctx.legal.some((m) => /^[a-g]\d$/.test(m));
  const board = grid(gridRows.length, gridRows[0]?.length || 7, (r, c) => {
    const cell = gridRows[r][c];
    const id = `${col(c)}${r + 1}`;
    const st = cell.stone;
    const fill = cell.frozen ? 'var(--frozen)' : 'var(--cell)';
    const clickable = ctx.canAct && (cellMove ? ctx.legal.includes(id) : true);
    const owner = st === 'p1' || st === 'p2' ? `${name(ctx, st)}\u2019s stone` : st ? 'a neutral (gray) stone' : 'empty';
    return {
      fill,
      rectClass: cell.frozen ? 'frozen' : undefined,
      cls: `${v.lock_column === col(c) ? 'locked-col' : ''}${ctx.draft === id ? ' drafted' : ''}`.trim() || undefined,
      stone: st ? (x, y, size) => s('circle', { cx: x, cy: y, r: size * 0.34, class: `stone ${st}` })
        : ctx.draft === id ? (x, y, size) => s('circle', { cx: x, cy: y, r: size * 0.3, class: 'stone ghost' }) : null,
      label: cell.frozen ? '\u2744' : undefined,
      labelClass: 'frozen-mark',
      title: `${owner}${cell.frozen ? ', frozen' : ''}`,
      click: clickable ? () => (cellMove ? ctx.pick(ctx.draft === id ? null : id) : ctx.addToBox(id)) : undefined,
    };
  }, { ctx, label: 'the 7 by 6 grid' });
  const pl = v.players || {};
  const hand = h('div', {},
    v.waiting_for ? h('p', { class: 'waiting-for', 'data-testid': 'waiting-for' }, `Waiting for ${withNames(v.waiting_for, { ...ctx.names, ...(you ? { [you]: 'you' } : {}) })}.`) : null,
    ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, seat === you ? 'Your cards' : `${name(ctx, seat)}\u2019s cards`),
      (pl[seat]?.hand || []).map((c) => h('span', { class: 'pcard mini wb-card' }, wbCard(c), WB_CARDS[c] ? h('small', { class: 'card-detail' }, WB_CARDS[c][1]) : null)),
      pl[seat]?.duplicard ? h('span', { class: 'tag' }, 'Duplicard') : null,
      pl[seat]?.discard ? h('span', { class: 'tag' }, 'Discard') : null)));
  // Intermission: assign each condition to round 6, 9 or 12.
  let tools = null;
  if (stage === 'assign' && ctx.canAct && you) {
    const conds = (pl[you]?.conditions || []).map((c) => c.condition);
    const choice = state.assign || (state.assign = {});
    conds.forEach((c, i) => { if (!choice[c]) choice[c] = ['6', '9', '12'][Math.floor(i / 3) % 3]; });
    const text = () => ['6', '9', '12'].map((r) => conds.filter((c) => choice[c] === r).join(' ') || '-').join(' / ');
    // The default assignment is a move already: previewed, ready for Submit.
    if (!state.draft) { state.draft = text(); ctx.compose(text()); }
    const textOf = (c) => (pl[you]?.conditions || []).find((x) => x.condition === c)?.text || WB_CONDITIONS[c] || '';
    tools = h('div', { class: 'assign' }, h('p', {}, 'Assign each victory condition to a scoring round (at most three each), then Submit:'),
      conds.map((c) => h('div', { class: 'option' }, h('label', { for: `assign-${c}` }, h('strong', {}, c), ` ${textOf(c)}`), h('select', { id: `assign-${c}`, 'data-condition': c, onchange: (e) => { choice[c] = e.target.value; ctx.pick(text()); } },
        ['6', '9', '12'].map((r) => h('option', { value: r, selected: choice[c] === r }, `round ${r}`))))));
  }
  const condTable = (seat) => {
    const cs = pl[seat]?.conditions || [];
    if (!cs.length) return null;
    return h('div', { class: 'scroll', tabindex: '0' }, h('table', { class: 'score conditions' },
      h('caption', {}, `${name(ctx, seat)}\u2019s victory conditions`),
      h('thead', {}, h('tr', {}, ['', 'condition', 'pts', 'round', 'now'].map((x) => h('th', {}, x)))),
      h('tbody', {}, cs.map((c) => h('tr', { class: c.scored ? 'scored' : c.met_now && !c.checked ? 'met' : '' },
        h('td', {}, c.condition), h('td', {}, c.text), h('td', {}, c.points), h('td', {}, c.round ?? '\u2013'),
        h('td', {}, c.scored ? 'scored' : c.checked ? 'missed' : c.met_now ? 'met now' : 'not met'))))));
  };
  const rounds = v.rounds || [];
  const cauldron = v.cauldron_rounds || [];
  const describe = (r) => {
    if (!r || typeof r !== 'object') return String(r ?? '');
    const plays = r.plays || [];
    const parts = [`round ${r.round}: ${name(ctx, 'p1')} played ${plays[0] ?? '?'}${r.values ? ` (${r.values[0]})` : ''}, ${name(ctx, 'p2')} played ${plays[1] ?? '?'}${r.values ? ` (${r.values[1]})` : ''}`];
    parts.push(r.winner ? `${name(ctx, r.winner)} won${r.reason ? ` (${String(r.reason).replace(/_/g, ' ')})` : ''}` : 'nobody won');
    if (r.placed?.length) parts.push(`stones ${r.placed.map((x) => x ?? '\u2013').join(', ')} (winner, loser, gray)`);
    ['p1', 'p2'].forEach((seat, i) => {
      if (r.moved?.[i]) parts.push(`${seat} moved ${r.moved[i].join(' \u2192 ')}`);
      if (r.copied?.[i]) parts.push(`${seat} copied ${r.copied[i]}`);
    });
    return parts.join('; ');
  };
  return {
    board,
    builds: cellMove || stage === 'assign',
    legend: `Blue stones: ${name(ctx, 'p1')}; red: ${name(ctx, 'p2')}; gray: neutral. Frozen cells are blue with a thick border and \u2744.`,
    hand,
    tools,
    score: h('div', {},
      table(['', name(ctx, 'p1'), name(ctx, 'p2')], [['points', pl.p1?.points ?? 0, pl.p2?.points ?? 0], ['Diminish penalty', pl.p1?.diminish_penalty ?? 0, pl.p2?.diminish_penalty ?? 0]]),
      h('p', {}, `Scoring after rounds ${(v.scoring_rounds_to_come || []).join(', ') || '–'}; placement round ${v.placement_round ?? 0}.`),
      condTable('p1'), condTable('p2')),
    reveal: null, // render() writes it from present.js's lastReveal
    log: list([
      ...cauldron.map((c) => `${c.round}: ${c.pair.join(' / ')} \u2192 ${c.winner ? name(ctx, c.winner) : 'nobody'}${c.discarded ? ' (discarded)' : ''}`),
      ...rounds.map((r) => `placement ${describe(r)}`)]),
  };
}

// ---------------------------------------------------------------- any other game

function generic(v) {
  const pre = h('pre', { class: 'json', tabindex: '0' }, JSON.stringify(v, null, 1));
  return { board: null, hand: null, score: pre, reveal: null, log: null };
}

const RENDERERS = {
  goofspiel,
  'square-goofspiel': squareGoofspiel,
  'all-in-goofspiel': allIn,
  'thwart-omega': thwart,
  galespiel,
  'witchs-brew': witchsBrew,
};

/** The pieces of a view: {board, hand, score, reveal, log, tools}. `state` keeps a page's
 *  half-made choices (cells clicked so far) between renders. */
export function render(game, view, ctx, state = {}) {
  const f = RENDERERS[game] || generic;
  let parts;
  try {
    parts = f(view || {}, ctx, state);
  } catch (e) {
    console.error(e);
    return generic(view);
  }
  // The last reveal: one sentence, and its cells marked on the board until the next.
  const names = (seat) => (seat === ctx.you ? 'you' : name(ctx, seat));
  const last = lastReveal(game, view, names);
  parts.last = last;
  if (last) {
    parts.reveal = h('p', {}, last.sentence);
    for (const id of last.cells || []) parts.board?.querySelector(`[data-cell="${id}"]`)?.classList.add('last-move');
  }
  parts.label = (mv) => moveLabel(game, mv);
  return parts;
}

export { other };
