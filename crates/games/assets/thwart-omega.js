// Thwart Omega in the browser: the board (a black and a white stone chosen by clicking), the
// groups and the rounds from the view, its last reveal and its words. Loaded by the server's
// pages (boards.js) from /assets/games/thwart-omega.js; it imports nothing: the shared helpers
// come in `kit`.

export function placeholder() {
  return 'B d4 W e5';
}

export const optionLabels = { size: 'Board size', advantage: 'Ties go to' };

/** A seat's name, never its id. */
const who = (ctx, seat) => ctx?.names?.[seat] || (seat === 'p1' ? 'Player 1' : 'Player 2');
/** The colour whose groups score for `seat` (black is p1's unless the view says otherwise). */
const colourOf = (v, seat) => (['black', 'white'].find((c) => v[c]?.seat === seat) || (seat === 'p1' ? 'black' : 'white'));

/** The headline score beside each player's name: the product of that player's colour's group
 *  weights. */
export function headline(v) {
  const of = (seat) => `score ${v[colourOf(v, seat)]?.product ?? 0}`;
  return { p1: of('p1'), p2: of('p2') };
}

/** The action bar's sentence when `ctx.you` can act: the round, the empty cells, the two stones
 *  to place and which colour scores for you. */
export function prompt(v, ctx) {
  if (!ctx?.canAct || !ctx.you) return null;
  const empty = v.empty ?? (v.rows || []).join('').split('').filter((c) => c === '.').length;
  return `Round ${(v.rounds ?? 0) + 1}, ${empty} ${empty === 1 ? 'cell' : 'cells'} empty: click a cell for a black stone, then one for a white stone, then Submit (your score is ${colourOf(v, ctx.you)}\u2019s groups multiplied).`;
}

const cellsIn = (text) => (String(text || '').match(/\b[a-m]\d{1,2}\b/gi) || []).map((c) => c.toLowerCase());

export function lastReveal(v, n) {
  const lr = v.last_round;
  if (!lr) return null;
  return { key: `t${v.rounds}`, moves: { p1: lr.p1, p2: lr.p2 }, cells: [...cellsIn(lr.p1), ...cellsIn(lr.p2)],
    sentence: `Round ${v.rounds}: ${n('p1')} played ${lr.p1}, ${n('p2')} played ${lr.p2}.` };
}

export function render(v, ctx, state, { h, s, grid, table, list, name, col }) {
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
    log: h('div', {}, h('p', {}, `${v.rounds ?? 0} ${v.rounds === 1 ? 'round' : 'rounds'} played, ${v.empty ?? 0} ${v.empty === 1 ? 'cell' : 'cells'} empty.`),
      seen.length ? list(seen.map(([n, r]) => `round ${n}: ${who(ctx, 'p1')} ${r.p1}; ${who(ctx, 'p2')} ${r.p2}`)) : null,
      v.rounds > seen.length ? h('p', { class: 'hint' }, v.pending === 'over' ? 'Every round is in the replay.' : 'Earlier rounds are in the replay once the match ends.') : null),
    headline: headline(v),
    prompt: prompt(v, ctx),
  };
}
