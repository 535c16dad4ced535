// The Witch's Brew in the browser: the 7x6 grid, cards, victory conditions (the Intermission's
// assignment), score and log from the view; its last reveal; its cards, conditions and moves in
// words; its live races (the Cauldron). Loaded by the server's pages (boards.js) from
// /assets/games/witchs-brew.js; it imports nothing: the shared helpers come in `kit`.

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);

export function placeholder() {
  return 'e.g. 2 d, or d4';
}

export const optionLabels = {
  schedule: 'Cauldron rounds', cauldron: 'The Cauldron', p1_chance: 'First player\u2019s race chance', none_chance: 'Nobody-wins chance',
  advantage: 'Ties go to', discard: 'Discard item', tiebreaker: 'Tiebreaker item',
};

/** Live races (GameEntry::races): the Cauldron, when the `cauldron` option is `live`. `name`
 *  words the race; `simulatedOnly` are the options that decide simulated races alone (the lobby
 *  hides them for a live Cauldron). */
export const races = {
  name: 'Cauldron',
  runs: (options) => String(options?.cauldron ?? '').trim().toLowerCase() === 'live',
  simulatedOnly: ['p1_chance', 'none_chance'],
};

/** The move log's words for this game's decision kinds. */
export const kindWords = { assign: 'assignment', race: 'Cauldron race', pick: 'Cauldron pick', discard: 'Discard' };

// ----- cards and conditions in words (docs/rules/witchs-brew.md) -----

export const WB_CARDS = {
  1: ['Snipe', 'wins the round if the opponent played a Freeze, Shift or Diminish'],
  2: ['Lock', 'name a column: this round the opponent\u2019s stone must go in that column'],
  3: ['Guess', 'name a card: if the opponent played it, win the round'],
  4: ['Copy', 'gain a copy of the opponent\u2019s card into your hand'],
  5: ['Leap', 'after placing, one of your stones may jump to the nearest empty cell up, down, left or right'],
  6: ['Freeze', 'name up to three stones: they can never move again'],
  7: ['Shift', 'after placing, move one of your stones or a neutral one to an empty neighbouring cell'],
  8: ['Diminish', 'your next card\u2019s value is one lower'],
};

export const WB_CONDITIONS = {
  '1A': 'five in a row (diagonals too) of yours or neutral',
  '1B': 'a 3\u00d73 square holding at least five of yours',
  '1C': 'at least six of yours on row 3, or on row 4',
  '1D': 'an inner opponent\u2019s stone whose four diagonal neighbours are yours or neutral',
  '1E': 'four frozen stones in a row (any colours)',
  '1F': 'at least four frozen neutral stones',
  '2A': 'four of yours in a row (diagonals too)',
  '2B': 'a 2\u00d72 square of yours',
  '2C': 'an inner opponent\u2019s stone whose four orthogonal neighbours are yours or neutral',
  '2D': 'more of yours than of the opponent\u2019s on the four corners',
  '2E': 'at least three of yours on column d',
  '2F': 'more frozen stones of the opponent\u2019s colour than of yours',
  '3A': 'a stone of yours, not in a corner, whose orthogonal neighbours are all yours',
  '3B': 'an inner stone of yours whose four diagonal neighbours are yours',
  '3C': 'a 2\u00d72 square of neutral stones',
  '3D': 'a whole column (6 cells) of yours or neutral',
  '3E': 'a whole row (7 cells) of yours or neutral',
  '3F': 'four neutral stones in a row',
};

/** A card as "2 Lock". */
export function wbCard(n) {
  const c = WB_CARDS[Number(n)];
  return c ? `${n} ${c[0]}` : String(n);
}

/** A condition as "2A: four of yours in a row". */
export function wbCondition(code) {
  const k = String(code).toUpperCase();
  return WB_CONDITIONS[k] ? `${k}: ${WB_CONDITIONS[k]}` : k;
}

/** A Witch's Brew move in words. */
export function describeWitchsBrew(move) {
  const t = String(move).trim();
  let m;
  if ((m = /^dup\s+(.*)$/i.exec(t))) return `Duplicard, then ${describeWitchsBrew(m[1])}`;
  if (/^keep$/i.test(t)) return 'keep the card';
  if (/^discard$/i.test(t)) return 'discard the card';
  // The pass words every game shares (RULINGS.md): pass, none, no submission.
  if (/^(pass|none|no\s*submission)$/i.test(t)) return 'pass';
  if (t.includes('/')) {
    const groups = t.split('/').map((g) => g.trim());
    return groups.map((g, i) => `round ${[6, 9, 12][i]}: ${g === '-' ? 'none' : g}`).join('; ');
  }
  if ((m = /^([123][a-f])(?:\s+([123][a-f]))?$/i.exec(t))) return [m[1], m[2]].filter(Boolean).map(wbCondition).join(' and ');
  if ((m = /^([a-g]\d)$/i.exec(t))) return `a stone on ${m[1]}`;
  if ((m = /^([a-g]\d)\s+(up|down|left|right|u|d|l|r)$/i.exec(t))) {
    const dir = { u: 'up', d: 'down', l: 'left', r: 'right' }[m[2].toLowerCase()] || m[2].toLowerCase();
    return `leap the stone on ${m[1]} ${dir}`;
  }
  if ((m = /^([a-g]\d)\s+([a-g]\d)$/i.exec(t))) return `shift the stone on ${m[1]} to ${m[2]}`;
  if ((m = /^([1-8])(?:\s+(.*))?$/.exec(t))) {
    const card = wbCard(m[1]);
    const rest = m[2];
    if (!rest && m[1] === '2') return `${card} (choose the column)`;
    if (!rest && m[1] === '3') return `${card} (choose the card you guess)`;
    if (!rest) return card;
    if (m[1] === '2') return `${card}: the opponent must play in column ${rest}`;
    if (m[1] === '3') return `${card}: you guess ${wbCard(rest)}`;
    if (m[1] === '6') return `${card}: freeze ${rest.split(/\s+/).join(', ')}`;
    return `${card} ${rest}`;
  }
  return t;
}

/** A legal move's label: words where the notation is a code. */
export function moveLabel(move) {
  return describeWitchsBrew(move);
}

/** Why a Placement round went to its winner, in words (the view's `reason`). */
export const WB_REASONS = {
  snipe: 'a Snipe that hit',
  guess: 'a right Guess',
  higher_value: 'the higher value',
  tie_lost_previous: 'a tie: it goes to the loser of the previous round',
  tie_advantage: 'a tie in round 1: it goes to the advantage holder',
};

const reasonWords = (r) => WB_REASONS[r] || String(r).replace(/_/g, ' ');

export function lastReveal(v, n) {
  const r = (v.rounds || []).at(-1);
  const cauldron = v.cauldron_rounds || [];
  if (r && typeof r === 'object') {
    const plays = r.plays || [];
    const play = (i) => `${plays[i] !== undefined ? describeWitchsBrew(plays[i]) : '?'}${r.values ? ` (value ${r.values[i]})` : ''}`;
    const placed = (r.placed || []).filter(Boolean);
    const moved = (r.moved || []).filter(Boolean).flat();
    return { key: `w${v.rounds.length}:${cauldron.length}`, moves: { p1: play(0), p2: play(1) }, cells: [...placed, ...moved].map((c) => String(c).toLowerCase()),
      sentence: `Placement round ${r.round}: ${n('p1')} played ${play(0)}, ${n('p2')} played ${play(1)}. ${r.winner ? `${cap(n(r.winner))} ${n(r.winner) === 'you' ? 'win' : 'wins'} the round${r.reason ? ` (${reasonWords(r.reason)})` : ''}` : 'Nobody wins the round'}${placed.length ? `; stones on ${placed.join(', ')}` : ''}.` };
  }
  const c = cauldron.at(-1);
  if (!c) return null;
  return { key: `w0:${cauldron.length}`, moves: { p1: '', p2: '' }, cells: [],
    sentence: `Cauldron round ${c.round}: ${c.winner ? `${cap(n(c.winner))} won the race for ${(c.pair || []).join(' or ')}` : 'nobody won the race'}${c.discarded ? ' (discarded)' : ''}.` };
}

/** A seat's name, never its id. */
const who = (ctx, seat) => ctx?.names?.[seat] || (seat === 'p1' ? 'Player 1' : 'Player 2');
/** "1 card", "5 cards". */
const count = (n, one, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

/** A Cauldron round's name in words: "MM1" is "Main Match 1". */
export function cauldronRound(code) {
  const m = /^(MM|DM|FM)(\d+)$/i.exec(String(code ?? ''));
  return m ? `${{ MM: 'Main Match', DM: 'Death Match', FM: 'Final Match' }[m[1].toUpperCase()]} ${m[2]}` : String(code ?? '');
}

/** The headline score beside each player's name: victory points (VP) scored so far. */
export function headline(v) {
  return { p1: `${v.players?.p1?.points ?? 0} VP`, p2: `${v.players?.p2?.points ?? 0} VP` };
}

/** The game's words, explained where they first appear (the table shows them as a legend):
 *  VP, the Cauldron's round names (MM1, DM1, FM1) and, with live races, a question's category. */
export function glossary(v) {
  return [
    ['VP', 'victory points: a condition met when its round (6, 9 or 12) is checked scores its digit (1A: 1 VP, 3F: 3 VP)'],
    ['MM1, DM1, FM1', 'the Cauldron\u2019s rounds, each about a match of the season (Main, Death or Final Match): MM and FM rounds offer cards, DM rounds victory conditions'],
    ...(v?.cauldron_mode === 'live' ? [['Category', 'the kind of match a Cauldron question is about: MM, DM or FM, or free (any round)']] : []),
  ];
}

/** A prize of the Cauldron in words: "2 Lock", "1A (five in a row ...)". */
const prizeWords = (x) => (/^[123][a-f]$/i.test(String(x)) ? wbCondition(x) : wbCard(x));

/** The action bar's sentence when `ctx.you` can act: what is being decided, with the numbers
 *  that matter (the race won and its pair, the conditions to assign, the round and the cards,
 *  the stone to place). */
export function prompt(v, ctx) {
  if (!ctx?.canAct || !ctx.you) return null;
  const you = ctx.you;
  const other = you === 'p1' ? 'p2' : 'p1';
  const stage = v.stage?.stage;
  const me = v.players?.[you] || {};
  const round = v.placement_round || 1;
  const said = waitingWords(v.waiting_for, (seat) => (seat === you ? 'you' : who(ctx, seat)));
  switch (stage) {
    case 'pick': {
      const pair = v.prize_pair || [];
      return `You won the Cauldron race of ${v.cauldron} (${cauldronRound(v.cauldron)}): pick ${pair.map(prizeWords).join(' or ')}; ${who(ctx, other)} gets the other. Then Submit.`;
    }
    case 'discard': {
      const last = (v.cauldron_rounds || []).at(-1);
      return `Your Discard: throw away both conditions just handed out${last?.pair ? ` (${last.pair.join(' and ')})` : ''}, or keep them; then Submit.`;
    }
    case 'assign':
      return `Intermission: assign each of your ${count((me.conditions || []).length, 'victory condition')} to round 6, 9 or 12 (at most three a round), then Submit.`;
    case 'play_cards':
      return `Placement round ${round} of 12: play ${(me.hand || []).length === 1 ? `your last card, ${wbCard(me.hand[0])}` : `one of your ${count((me.hand || []).length, 'card')}`} (the higher value wins the round; every card\u2019s effect happens either way), then Submit.`;
    case 'winner_stone':
      return `You won placement round ${round}: place ${said}: click the cell, then Submit.`;
    case 'loser_stone':
      return `You lost placement round ${round}: place ${said}: click the cell, then Submit.`;
    case 'gray_stone':
      return 'Place the gray (neutral) stone on an empty cell: click it, then Submit.';
    case 'winner_move':
    case 'loser_move':
      return /Leap/.test(v.waiting_for || '')
        ? 'Your Leap: choose one of your stones and a direction (it jumps to the nearest empty cell that way), or pass; then Submit.'
        : 'Your Shift: move one of your stones or a gray one to an empty neighbouring cell, or pass; then Submit.';
    default:
      return said ? `Your move: ${said}.` : null;
  }
}

/** The view's `waiting_for` (written for the terminal: notation examples in backticks) in a
 *  page's words: no examples, no backticks, names for seats ("your stone", "Bob's Leap"). `n`
 *  names a seat ("you" for the viewer's). */
export function waitingWords(text, n) {
  return String(text ?? '')
    .replace(/,? such as `[^`]*`(, `[^`]*`)*/g, '')
    .replace(/ \(`[^`]*`\)/g, '')
    .replace(/`/g, '')
    .replace(/\bp([12])'s\b/g, (_, k) => (n(`p${k}`) === 'you' ? 'your' : `${n(`p${k}`)}\u2019s`))
    .replace(/\bp([12])\b/g, (_, k) => n(`p${k}`))
    .replace(/'/g, '\u2019');
}

/** A card move being built, "dup 6 c3 d4", as {dup, card, rest}; null if the text is none. */
export function parseCardMove(text) {
  const m = /^(dup\s+)?([1-8])(?:\s+(.*))?$/i.exec(String(text ?? '').trim());
  return m ? { dup: !!m[1], card: Number(m[2]), rest: (m[3] || '').trim() } : null;
}

/** The card move for `card` with the Duplicard (`dup`) and a choice (`rest`): "dup 2 d". */
export function cardMove(card, dup, rest = '') {
  return `${dup ? 'dup ' : ''}${card}${rest ? ` ${rest}` : ''}`;
}

/** Freeze's stones after a click on `cell`: taken back if chosen, else added (at most three). */
export function toggleFreeze(rest, cell) {
  const cells = String(rest || '').split(/\s+/).filter(Boolean);
  const at = cells.indexOf(cell);
  if (at >= 0) cells.splice(at, 1);
  else if (cells.length < 3) cells.push(cell);
  return cells.join(' ');
}

export function render(v, ctx, state, { h, s, grid, table, list, name, col }) {
  const gridRows = v.grid || [];
  const you = ctx.you;
  const stage = v.stage?.stage;
  const cellMove = ctx.canAct && ctx.legal && ctx.legal.some((m) => /^[a-g]\d$/.test(m));
  // Playing a card: chosen in the hand (with the Duplicard if toggled), its choice below the
  // hand (Lock's column, Guess's card) or on the board (Freeze's stones, Lock's column).
  const playing = !!(ctx.canAct && you && stage === 'play_cards');
  const legal = ctx.legal || [];
  const drafted = playing ? parseCardMove(ctx.draft) : null;
  // The card marked in the hand: the one being chosen, else the one already submitted.
  const shown = drafted || (playing ? parseCardMove(ctx.submission) : null);
  const dup = drafted ? drafted.dup : !!state.wbDup;
  const needs = (n) => !legal.includes(cardMove(n, dup)) && legal.some((m) => m.startsWith(`${cardMove(n, dup)} `));
  const playable = (n) => !ctx.legal || legal.some((m) => m === cardMove(n, dup) || m.startsWith(`${cardMove(n, dup)} `));
  const chooseCard = (n) => {
    if (drafted && drafted.card === n) { ctx.pick(null); return; }
    ctx.pick(cardMove(n, dup));
  };
  const freezing = playing && drafted?.card === 6;
  const locking = playing && drafted?.card === 2;
  const board = grid(gridRows.length, gridRows[0]?.length || 7, (r, c) => {
    const cell = gridRows[r][c];
    const id = `${col(c)}${r + 1}`;
    const st = cell.stone;
    const fill = cell.frozen ? 'var(--frozen)' : 'var(--cell)';
    const clickable = ctx.canAct && (cellMove ? ctx.legal.includes(id) : freezing ? !!st && !cell.frozen : locking ? legal.includes(cardMove(2, dup, col(c))) : !playing);
    const frozenPick = freezing && drafted.rest.split(/\s+/).includes(id);
    const owner = st === 'p1' || st === 'p2' ? `${name(ctx, st)}\u2019s stone` : st ? 'a neutral (gray) stone' : 'empty';
    return {
      fill,
      rectClass: cell.frozen ? 'frozen' : undefined,
      cls: `${v.lock_column === col(c) ? 'locked-col' : ''}${ctx.draft === id || frozenPick || (locking && drafted.rest === col(c)) ? ' drafted' : ''}`.trim() || undefined,
      stone: st ? (x, y, size) => s('circle', { cx: x, cy: y, r: size * 0.34, class: `stone ${st}` })
        : ctx.draft === id ? (x, y, size) => s('circle', { cx: x, cy: y, r: size * 0.3, class: 'stone ghost' }) : null,
      label: cell.frozen ? '\u2744' : undefined,
      labelClass: 'frozen-mark',
      title: `${owner}${cell.frozen ? ', frozen' : ''}`,
      click: !clickable ? undefined
        : cellMove ? () => ctx.pick(ctx.draft === id ? null : id)
          : freezing ? () => ctx.pick(cardMove(6, dup, toggleFreeze(drafted.rest, id)))
            : locking ? () => ctx.pick(cardMove(2, dup, drafted.rest === col(c) ? '' : col(c)))
              : () => ctx.addToBox(id),
    };
  }, { ctx, label: 'the 7 by 6 grid' });
  // Before the Placement Phase the grid is empty: it says what happens now and when it fills.
  if (!v.placement_round && stage && stage !== 'over' && board.append) {
    const schedule = String(v.schedule || '').split(/\s+/).filter(Boolean);
    const w = (gridRows[0]?.length || 7) * 44 + 44;
    const y = ((gridRows.length || 6) * 44 + 44) / 2;
    board.append(s('g', { class: 'wb-phase-note', 'data-testid': 'wb-phase-note' },
      s('rect', { x: 30, y: y - 40, width: w - 60, height: 80, rx: 8 }),
      s('text', { x: w / 2, y: y - 8 }, stage === 'assign' ? 'Intermission: assign your conditions'
        : `Cauldron round ${(v.cauldron_rounds || []).length + 1}${schedule.length ? ` of ${schedule.length}` : ''}${v.cauldron ? ` (${v.cauldron})` : ''}`),
      s('text', { x: w / 2, y: y + 18, class: 'sub' }, 'The grid fills in the Placement Phase')));
  }
  const pl = v.players || {};
  // The Cauldron Phase: which round, what it is about, and the pair on offer (the grid is still
  // empty then, so this is the game's news).
  const schedule = String(v.schedule || '').split(/\s+/).filter(Boolean);
  const cauldronLine = v.cauldron && ['draw_pair', 'race', 'pick', 'discard'].includes(stage)
    ? h('p', { class: 'wb-cauldron', 'data-testid': 'wb-cauldron' }, `Cauldron round ${(v.cauldron_rounds || []).length + 1}${schedule.length ? ` of ${schedule.length}` : ''}: `,
      h('abbr', { title: cauldronRound(v.cauldron) }, v.cauldron), ` (${cauldronRound(v.cauldron)})`,
      v.prize_pair ? `; on offer: ${v.prize_pair.map(prizeWords).join(' or ')}.` : '.')
    : null;
  const hand = h('div', {},
    cauldronLine,
    v.waiting_for && stage !== 'over' ? h('p', { class: 'waiting-for', 'data-testid': 'waiting-for' }, `Waiting for ${waitingWords(v.waiting_for, (seat) => (seat === you ? 'you' : name(ctx, seat)))}.`) : null,
    playing ? h('p', { class: 'hint', 'data-testid': 'wb-hint' }, drafted
      ? `${wbCard(drafted.card)}${drafted.dup ? ' with the Duplicard' : ''} chosen: ${WB_CARDS[drafted.card]?.[1] ?? ''}. Click another card to change it, or Clear.`
      : shown ? `You played ${describeWitchsBrew(ctx.submission)}; click a card to change it before the reveal.`
        : 'Click a card of yours to play it (its effect is written on it), then Submit.') : null,
    ['p1', 'p2'].map((seat) => h('div', { class: 'hand-row' },
      h('span', { class: 'who' }, seat === you ? 'Your cards' : `${name(ctx, seat)}\u2019s cards`),
      seat === you && playing
        // One button a card (a second copy is counted on it): a click chooses it.
        ? [...new Set(pl[seat]?.hand || [])].map((c) => h('button', {
          type: 'button', class: `pcard wb-card with-detail${shown?.card === Number(c) ? ' chosen' : ''}`, 'data-card': c,
          'aria-pressed': String(shown?.card === Number(c)), disabled: !playable(Number(c)),
          onclick: () => chooseCard(Number(c)),
        }, wbCard(c), pl[seat].hand.filter((x) => x === c).length > 1 ? ` \u00d7${pl[seat].hand.filter((x) => x === c).length}` : '',
        WB_CARDS[c] ? h('small', { class: 'card-detail' }, WB_CARDS[c][1]) : null))
        : (pl[seat]?.hand || []).map((c) => h('span', { class: 'pcard mini wb-card' }, wbCard(c), WB_CARDS[c] ? h('small', { class: 'card-detail' }, WB_CARDS[c][1]) : null)),
      (pl[seat]?.hand || []).length ? null : h('span', { class: 'muted' }, 'no cards'),
      pl[seat]?.duplicard && seat === you && playing && legal.some((m) => m.startsWith('dup '))
        ? h('button', {
          type: 'button', class: `pcard wb-dup${dup ? ' chosen' : ''}`, 'aria-pressed': String(dup), 'data-testid': 'duplicard',
          title: 'play the Duplicard as a copy of the card you choose (the card stays in your hand)',
          onclick: () => {
            state.wbDup = !dup;
            if (drafted) ctx.pick(legal.some((m) => m === cardMove(drafted.card, !dup, drafted.rest) || m.startsWith(`${cardMove(drafted.card, !dup)} `)) ? cardMove(drafted.card, !dup, drafted.rest) : null);
            else ctx.rerender();
          },
        }, `Duplicard${dup ? ': on' : ''}`, h('small', { class: 'card-detail' }, 'play it as a copy of the card you choose; the card stays in your hand'))
        : pl[seat]?.duplicard ? h('span', { class: 'tag' }, 'Duplicard') : null,
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
  // A chosen card's choice: Lock's column, Guess's card (buttons), Freeze's stones (the board).
  if (playing && drafted && (needs(drafted.card) || drafted.card === 6)) {
    const options = legal.filter((m) => m.startsWith(`${cardMove(drafted.card, dup)} `)).map((m) => m.slice(cardMove(drafted.card, dup).length + 1));
    const words = { 2: 'Lock: choose the column your opponent must play in (or click it on the grid)', 3: 'Guess: choose the card you think your opponent plays', 6: 'Freeze: click up to three stones on the grid (none is allowed too)' }[drafted.card];
    tools = h('div', { class: 'wb-choice', 'data-testid': 'wb-choice' }, h('p', {}, words),
      drafted.card === 6 ? h('p', { class: 'hint' }, drafted.rest ? `Stones to freeze: ${drafted.rest.split(/\s+/).join(', ')}.` : 'No stone chosen yet.')
        : h('div', { class: 'legal-list' }, options.map((o) => h('button', {
          type: 'button', class: `move${drafted.rest === o ? ' chosen' : ''}`, 'data-choice': o, 'aria-pressed': String(drafted.rest === o),
          onclick: () => ctx.pick(cardMove(drafted.card, dup, drafted.rest === o ? '' : o)),
        }, drafted.card === 2 ? `column ${o}` : wbCard(o)))));
  }
  const condTable = (seat) => {
    const cs = pl[seat]?.conditions || [];
    if (!cs.length) return null;
    return h('div', { class: 'scroll', tabindex: '0' }, h('table', { class: 'score conditions' },
      h('caption', {}, `${name(ctx, seat)}\u2019s victory conditions`),
      h('thead', {}, h('tr', {}, ['', 'condition', 'pts', 'round', 'now'].map((x) => h('th', {}, x)))),
      h('tbody', {}, cs.map((c) => h('tr', { class: c.scored ? 'scored' : c.met_now && !c.checked ? 'met' : '' },
        h('td', {}, c.condition), h('td', {}, c.text), h('td', {}, c.points), h('td', {}, c.round ?? 'not yet'),
        h('td', {}, c.scored ? 'scored' : c.checked ? 'missed' : c.met_now ? 'met now' : 'not met'))))));
  };
  const rounds = v.rounds || [];
  const cauldron = v.cauldron_rounds || [];
  const describe = (r) => {
    if (!r || typeof r !== 'object') return String(r ?? '');
    const plays = r.plays || [];
    const parts = [`round ${r.round}: ${name(ctx, 'p1')} played ${plays[0] ?? '?'}${r.values ? ` (${r.values[0]})` : ''}, ${name(ctx, 'p2')} played ${plays[1] ?? '?'}${r.values ? ` (${r.values[1]})` : ''}`];
    parts.push(r.winner ? `${name(ctx, r.winner)} won${r.reason ? ` (${reasonWords(r.reason)})` : ''}` : 'nobody won');
    if (r.placed?.length) parts.push(`stones ${r.placed.map((x) => x ?? '\u2013').join(', ')} (winner, loser, gray)`);
    ['p1', 'p2'].forEach((seat, i) => {
      if (r.moved?.[i]) parts.push(`${name(ctx, seat)} moved ${r.moved[i].join(' \u2192 ')}`);
      if (r.copied?.[i]) parts.push(`${name(ctx, seat)} copied ${r.copied[i]}`);
    });
    return parts.join('; ');
  };
  return {
    board,
    builds: cellMove || stage === 'assign' || playing,
    // The legend explains the game's words where they first appear (a visible line, for touch).
    legend: h('span', { 'data-testid': 'glossary' }, `Blue stones: ${name(ctx, 'p1')}; red: ${name(ctx, 'p2')}; gray: neutral. Frozen cells are blue with a thick border and \u2744.`,
      glossary(v).map(([term, text]) => [' ', h('b', { class: 'term' }, term), `: ${text}.`])),
    hand,
    tools,
    score: h('div', {},
      table(['', name(ctx, 'p1'), name(ctx, 'p2')], [['points', pl.p1?.points ?? 0, pl.p2?.points ?? 0], ['Diminish penalty', pl.p1?.diminish_penalty ?? 0, pl.p2?.diminish_penalty ?? 0]]),
      h('p', {}, (v.scoring_rounds_to_come || []).length
        ? `Conditions are checked after placement round${v.scoring_rounds_to_come.length > 1 ? 's' : ''} ${v.scoring_rounds_to_come.join(', ')}; ${v.placement_round ? `placement round ${v.placement_round} of 12` : 'the Placement Phase has not begun'}.`
        : 'Every condition has been checked.'),
      condTable('p1'), condTable('p2')),
    reveal: null, // boards.js writes it from lastReveal
    headline: headline(v),
    prompt: prompt(v, ctx),
    log: list([
      ...cauldron.map((c) => `${c.round} (${cauldronRound(c.round)}): ${c.pair.join(' / ')} \u2192 ${c.winner ? name(ctx, c.winner) : 'nobody'}${c.discarded ? ' (discarded)' : ''}`),
      ...rounds.map((r) => `placement ${describe(r)}`)]),
  };
}
