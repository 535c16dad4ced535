// Pure presentation of a table's state: sentences, labels and numbers, no DOM and no globals, so
// that `node --test tests/browser/present.test.mjs` checks them without a browser.
// Everything here reads only what the caller passes (the state message a viewer was sent).

export const other = (seat) => (seat === 'p1' ? 'p2' : 'p1');

/** A bot level in words ("Computer: easy"), never `mcts:easy`. */
export function botLabel(level) {
  const known = {
    'mcts:easy': 'Computer: easy',
    'mcts:medium': 'Computer: medium',
    'mcts:hard': 'Computer: hard',
    heuristic: 'Computer: rule of thumb (quick, predictable)',
    random: 'Computer: random moves (for trying things out)',
  };
  return known[level] || `Computer: ${String(level).replace(/^mcts:/, '')}`;
}

/** The levels offered first in the lobby, in order: easy, medium, hard, then the rest. */
export function orderedLevels(levels) {
  const rank = (l) => ['mcts:easy', 'mcts:medium', 'mcts:hard', 'heuristic', 'random'].indexOf(l);
  return [...levels].sort((a, b) => (rank(a) < 0 ? 99 : rank(a)) - (rank(b) < 0 ? 99 : rank(b)));
}

/** A seat's name: the typed name, a bot's label, else "p1"/"p2". */
export function seatName(state, seat) {
  const p = state?.match?.seats?.[seat]?.player;
  if (p?.kind === 'bot') return botLabel(p.level).replace(/ \(.*\)$/, '');
  return state?.names?.[seat] || seat;
}

/** "you" for the viewer's own seat, else the seat's name. */
export function who(state, seat) {
  return state?.you === seat ? 'you' : seatName(state, seat);
}

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);

/** Markdown-ish text as plain words: no literal backticks or asterisks. */
export function plain(text) {
  return String(text ?? '').replace(/`([^`]*)`/g, '$1').replace(/\*\*([^*]+)\*\*/g, '$1');
}

/** A refusal addressed to the player: no "p1: not legal here:" prefix, no backticks. */
export function friendlyError(message) {
  let t = plain(message || 'the server gave no reason');
  t = t.replace(/^p[12]:\s*/i, '');
  t = t.replace(/^not legal here:\s*/i, 'That move is not allowed now: ');
  t = t.replace(/^not a move:\s*/i, 'That is not a move in this game: ');
  return cap(t);
}

/** The notation box's placeholder for a game's decision. */
export function placeholderFor(game, decision) {
  const byGame = {
    goofspiel: 'a card, e.g. 7',
    'square-goofspiel': 'a bid, e.g. 3, or pass',
    'all-in-goofspiel': 'cards in order, e.g. 10 9, or pass',
    'thwart-omega': 'B d4 W e5',
    galespiel: decision === 'build' ? 'spots, e.g. b2 d2, or done' : 'a card, e.g. 5',
    'witchs-brew': 'e.g. 2 d, or d4',
  };
  return `or type a move: ${byGame[game] || 'see the rules'}`;
}

// ----- All-In Goofspiel's number rule (docs/rules/all-in-goofspiel.md, "The number rule") -----

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

// ----- The Witch's Brew: cards and conditions in words (docs/rules/witchs-brew.md) -----

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
  if (/^pass$/i.test(t)) return 'pass';
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
    if (!rest) return card;
    if (m[1] === '2') return `${card}: the opponent must play in column ${rest}`;
    if (m[1] === '3') return `${card}: you guess ${wbCard(rest)}`;
    if (m[1] === '6') return `${card}: freeze ${rest.split(/\s+/).join(', ')}`;
    return `${card} ${rest}`;
  }
  return t;
}

/** A legal move's label for a game: words where the notation is a code. */
export function moveLabel(game, move) {
  if (game === 'witchs-brew') return describeWitchsBrew(move);
  return move;
}

// ----- The last reveal of each game, from the view -----

const cellsIn = (text) => (String(text || '').match(/\b[a-m]\d{1,2}\b/gi) || []).map((c) => c.toLowerCase());

/**
 * The last round's reveal: {key, sentence, moves: {p1, p2}, cells: [ids]}, or null before the
 * first. `key` changes exactly when a new round is revealed. `names(seat)` names a seat as the
 * viewer should read it ("you", "Bob").
 */
export function lastReveal(game, view, names) {
  const v = view || {};
  const n = (seat) => names(seat);
  const took = (winner, what) => (winner ? `${cap(n(winner))} ${n(winner) === 'you' ? 'take' : 'takes'} ${what}` : `a tie: nobody takes ${what}`);
  if (game === 'goofspiel') {
    const t = (v.turns || []).at(-1);
    if (!t) return null;
    return { key: `g${v.turns.length}`, moves: { p1: String(t.p1), p2: String(t.p2) }, cells: [],
      sentence: `Prize ${t.prize}: ${n('p1')} played ${t.p1}, ${n('p2')} played ${t.p2}. ${took(t.winner, 'it')}.` };
  }
  if (game === 'square-goofspiel') {
    const a = (v.auctions || []).at(-1);
    if (!a) return null;
    return { key: `s${v.auctions.length}`, moves: { p1: String(a.p1), p2: String(a.p2) }, cells: [a.cell],
      sentence: `Cell ${a.cell}: ${n('p1')} bid ${a.p1}, ${n('p2')} bid ${a.p2}. ${a.winner ? `${cap(n(a.winner))} ${n(a.winner) === 'you' ? 'win' : 'wins'} it` : 'Nobody wins it'}.` };
  }
  if (game === 'all-in-goofspiel') {
    const r = (v.rounds || []).at(-1);
    if (!r) return null;
    const play = (seat) => {
      const cards = r.cards?.[seat] || [];
      return cards.length ? `${cards.join(' ')} = ${r.numbers?.[seat]}` : 'nothing (0)';
    };
    return { key: `a${v.rounds.length}`, moves: { p1: play('p1'), p2: play('p2') }, cells: [],
      sentence: `Round ${r.round} (worth ${r.worth}): ${n('p1')} played ${play('p1')}, ${n('p2')} played ${play('p2')}. ${r.winner ? took(r.winner, `${r.worth} points`) : `Equal numbers: ${r.worth} points split`}.` };
  }
  if (game === 'thwart-omega') {
    const lr = v.last_round;
    if (!lr) return null;
    return { key: `t${v.rounds}`, moves: { p1: lr.p1, p2: lr.p2 }, cells: [...cellsIn(lr.p1), ...cellsIn(lr.p2)],
      sentence: `Round ${v.rounds}: ${n('p1')} played ${lr.p1}, ${n('p2')} played ${lr.p2}.` };
  }
  if (game === 'galespiel') {
    const lr = v.last_round;
    if (!lr) return null;
    const bid = (b) => (b ? `${b.value}${b.aid ? ' with aid' : ''}` : '?');
    const built = lr.built?.length ? ` and ${n(lr.winner) === 'you' ? 'build' : 'builds'} ${lr.built.join(' ')} for ${lr.paid} M` : '';
    return { key: `l${lr.round}:${(lr.built || []).join(',')}`, moves: { p1: bid(lr.bids?.p1), p2: bid(lr.bids?.p2) }, cells: lr.built || [],
      sentence: `Round ${lr.round}, prize ${lr.prize} M: ${n('p1')} bid ${bid(lr.bids?.p1)}, ${n('p2')} bid ${bid(lr.bids?.p2)}. ${lr.winner ? `${cap(n(lr.winner))} ${n(lr.winner) === 'you' ? 'win' : 'wins'}${built}` : 'Nobody wins'}.` };
  }
  if (game === 'witchs-brew') {
    const r = (v.rounds || []).at(-1);
    const cauldron = v.cauldron_rounds || [];
    if (r && typeof r === 'object') {
      const plays = r.plays || [];
      const play = (i) => `${plays[i] !== undefined ? describeWitchsBrew(plays[i]) : '?'}${r.values ? ` (value ${r.values[i]})` : ''}`;
      const placed = (r.placed || []).filter(Boolean);
      const moved = (r.moved || []).filter(Boolean).flat();
      return { key: `w${v.rounds.length}:${cauldron.length}`, moves: { p1: play(0), p2: play(1) }, cells: [...placed, ...moved].map((c) => String(c).toLowerCase()),
        sentence: `Placement round ${r.round}: ${n('p1')} played ${play(0)}, ${n('p2')} played ${play(1)}. ${r.winner ? `${cap(n(r.winner))} ${n(r.winner) === 'you' ? 'win' : 'wins'} the round${r.reason ? ` (${String(r.reason).replace(/_/g, ' ')})` : ''}` : 'Nobody wins the round'}${placed.length ? `; stones on ${placed.join(', ')}` : ''}.` };
    }
    const c = cauldron.at(-1);
    if (!c) return null;
    return { key: `w0:${cauldron.length}`, moves: { p1: '', p2: '' }, cells: [],
      sentence: `Cauldron round ${c.round}: ${c.winner ? `${cap(n(c.winner))} won the race for ${(c.pair || []).join(' or ')}` : 'nobody won the race'}${c.discarded ? ' (discarded)' : ''}.` };
  }
  return null;
}

// ----- the table's sentences -----

/** The result in a heading and a sentence (names, how it ended, the game's reason). */
export function resultText(state) {
  const r = state.match.result;
  const by = { game: 'by the rules of the game', resignation: 'by resignation', time: 'on time', second_draw: 'after a second draw' }[r.by] || r.by;
  const head = r.winner ? (state.you ? (r.winner === state.you ? 'You win' : 'You lose') : `${seatName(state, r.winner)} wins`) : 'A draw';
  return { head, body: `${r.winner ? `${cap(who(state, r.winner))} won` : 'Nobody won'} ${by}: ${plain(r.reason)}` };
}

/** What the host played for a seat at a timeout, in a sentence for the viewer. */
export function timeoutNotice(state, reveal) {
  const late = state.match.timed_out || [];
  if (!late.length) return null;
  const you = state.you;
  const played = (seat) => (reveal?.moves?.[seat] ? `${reveal.moves[seat]} was played` : 'the game\u2019s default move was played');
  if (you && late.includes(you)) {
    return { kind: 'warn', text: `Your time ran out: ${played(you)} for you (what the rules play when a clock runs out).` };
  }
  return { kind: 'info', text: late.map((s) => `${seatName(state, s)}\u2019s time ran out: ${played(s)} for them.`).join(' ') };
}

/** The clock's warning level: 'low' under 10 s or a fifth of the decision's time. */
export function clockLevel(leftMs, perDecisionMs) {
  if (leftMs === null || leftMs === undefined) return '';
  const limit = Math.max(10000, Math.min(30000, (perDecisionMs || 0) / 5));
  return leftMs <= limit ? 'low' : '';
}

/** The status line of a seat (what to do now), from the state and what the page keeps. */
export function statusLine(state, { kept = null, invite = '', sealedWords = '' } = {}) {
  const m = state.match;
  const you = state.you;
  const mine = m.seats[you];
  const opp = other(you);
  const oppName = seatName(state, opp);
  const decision = m.decision && m.decision !== 'move' ? ` (${m.decision})` : '';
  if (state.status === 'waiting') return state.joined[you] ? `Waiting for ${oppName} to join: send them the invite link${invite ? ' below' : ' from the lobby'}.` : 'Join to start.';
  if (m.result) return 'The match is over.';
  if (state.paused) return 'Paused by the host: your move waits until the host resumes the match.';
  if (m.race && !m.race.over) return 'The Cauldron race is on: answer the question above.';
  if (m.sealed?.phase && mine.to_act && mine.committed && !mine.submitted) {
    return `${kept ? `You chose ${kept}. ` : ''}${m.sealed.phase === 'open' ? `Both have committed: opening yours. ${sealedWords}` : `${sealedWords} Waiting for ${oppName} to commit.`}`;
  }
  if (m.sealed?.phase && mine.to_act && mine.opened) return `You opened ${mine.submission}. Waiting for ${oppName} to open.`;
  if (mine.to_act && mine.locked) return `You played ${mine.submission} (locked). Waiting for ${oppName}.`;
  if (mine.to_act && mine.submitted) return `You played ${mine.submission}${mine.by_default ? ' (by default)' : ''}. You may change it until ${oppName} moves too${m.seats[opp].submitted ? '' : ', or lock it'}.`;
  if (mine.to_act && m.sealed?.phase) return `Your move${decision}, sealed: the page sends only a commitment, and the move itself once both have committed.${m.seats[opp].committed ? ` ${oppName} has committed.` : ''}`;
  if (mine.to_act) return `Your move${decision}.${m.seats[opp].to_act ? (m.seats[opp].submitted ? ` ${oppName} has submitted.` : ` ${oppName} is choosing too.`) : ''}`;
  return `Waiting for ${oppName}${m.seats[opp].submitted ? ' (submitted)' : ''}.`;
}

/** What a seat is doing, under its name ("to move", "has submitted", ...). */
export function seatDoing(state, seat) {
  const m = state.match;
  const info = m.seats[seat];
  if (state.status === 'waiting') return state.joined[seat] ? 'joined' : 'not joined yet';
  if (m.result) return '';
  if (m.race && !m.race.over) return 'in the Cauldron race';
  if (!info.to_act) return 'waiting';
  if (m.sealed?.phase && info.committed) return info.opened ? 'has opened (sealed)' : 'has committed (sealed)';
  if (info.submitted) return info.locked ? 'has submitted (locked)' : 'has submitted';
  return seat === state.you ? 'to move' : 'thinking';
}

/** The page title: "Your move" first when this seat must act. */
export function pageTitle(title, { yourMove = false, finished = false } = {}) {
  return `${yourMove ? '\u25cf Your move \u00b7 ' : finished ? 'Finished \u00b7 ' : ''}${title} \u00b7 Colosseum`;
}

/** The body of a rematch: the same game and options, the seats swapped. */
export function rematchBody(match, you) {
  const seats = ['p1', 'p2'].map((seat) => {
    const p = match.seats[seat]?.player;
    return p?.kind === 'bot' ? { kind: 'bot', level: p.level } : { kind: 'human' };
  });
  const body = { game: match.game, options: { ...(match.options || {}) }, seats: [seats[1], seats[0]] };
  if (match.time_control) body.time = match.time_control;
  if (match.sealed) body.sealed = true;
  return { body, seat: other(you) };
}

/** Roving focus on a grid: the cell an arrow key moves to from (r, c), or null. */
export function gridStep(key, r, c, rows, cols) {
  const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -cols], End: [0, cols] }[key];
  if (!d) return null;
  return [Math.min(rows - 1, Math.max(0, r + d[0])), Math.min(cols - 1, Math.max(0, c + d[1]))];
}

/** The contrast ratio of two colours written #rrggbb (WCAG 2's relative luminance). */
export function contrast(a, b) {
  const lum = (hex) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}
