// The table's pictures of a view, shared by every game: a game's own browser code (its board
// renderer, its last reveal, its words) is its module in crates/games/assets, served at
// /assets/games/ID.js with its stylesheet at /assets/games/ID.css and loaded here by `loadGame`.
// This file and the other assets name no game (crates/games/tests/browser_assets.rs).
//
// A game module exports (each optional; docs/browser.md, "A game's browser code"):
//   render(view, ctx, state, kit) -> {board, hand, score, reveal, log, tools, legend, builds, listLegal}
//   lastReveal(view, names) -> {key, sentence, moves: {p1, p2}, cells} | null
//   placeholder(decision), moveLabel(move), optionLabels, kindWords, races
// A renderer gets the view JSON the server sent for this viewer and nothing else. ctx: {you:
// 'p1'|'p2'|null, names, legal: [text]|null, canAct: bool, decision, submission: text|null, draft:
// text|null, pick(text): choose a move (it is previewed, never sent: Submit sends it),
// compose(text): put a move in the notation box, addToBox(token): append a token to the notation
// box, focus, memory: what the page has seen that the view no longer holds}. kit: the helpers
// below. One way to make a move everywhere: clicks build a move (`pick`), Submit sends it.
import { h, s, other } from './common.js';
import { lastReveal, moveLabel, gridStep } from './present.js';
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
    // The nearest item in that direction (a board's items need not be on every cell).
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

// ---------------------------------------------------------------- a game's module

/** What a game's module gets besides the view: the shared pieces of a board. */
const KIT = Object.freeze({ h, s, card, grid, table, list, roving, name, col, withNames });

const modules = new Map();

/** The browser module of game `id` (its exports), loaded once, with its stylesheet; `{}` when it
 *  has none or cannot be loaded (the view is then shown as it is). */
export function loadGame(id) {
  if (!modules.has(id)) {
    const file = encodeURIComponent(id);
    if (!document.querySelector(`link[data-game-style="${file}"]`)) {
      document.head.append(h('link', { rel: 'stylesheet', href: `/assets/games/${file}.css`, 'data-game-style': file }));
    }
    modules.set(id, import(`./games/${file}.js`).catch((e) => { console.error(e); return {}; }));
  }
  return modules.get(id);
}

// ---------------------------------------------------------------- any other game

function generic(v) {
  const pre = h('pre', { class: 'json', tabindex: '0' }, JSON.stringify(v, null, 1));
  return { board: null, hand: null, score: pre, reveal: null, log: null };
}

/** The pieces of a view: {board, hand, score, reveal, log, tools, last, label}, drawn by `game`
 *  (a module from `loadGame`). `state` keeps a page's half-made choices (cells clicked so far)
 *  between renders. */
export function render(game, view, ctx, state = {}) {
  let parts;
  try {
    parts = game?.render ? game.render(view || {}, ctx, state, KIT) : generic(view);
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
