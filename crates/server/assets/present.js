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

/** A seat named in words when nobody typed a name: "Player 1", "Player 2" (never `p1`). */
export function seatWords(seat) {
  return { p1: 'Player 1', p2: 'Player 2' }[seat] || String(seat ?? '');
}

/** A player's name as a person reads it: the server names a bot seat "bot LEVEL" (its
 *  level's id); that reads as the lobby's level name ("Computer: rule of thumb"). An empty name
 *  is the seat in words. */
export function personName(name, seat) {
  const n = String(name ?? '').trim();
  if (!n) return seatWords(seat);
  const bot = /^bot (\S+)$/.exec(n);
  return bot ? botLabel(bot[1]).replace(/ \(.*\)$/, '') : n;
}

/** The names of both seats from a `{p1, p2}` map of typed names (missing ones in words). */
export function namesOf(names) {
  return { p1: personName(names?.p1, 'p1'), p2: personName(names?.p2, 'p2') };
}

/** Replaces the seat ids `p1`/`p2` in a sentence (an engine's reason) with the names
 *  (`{p1, p2}`, as `namesOf` gives them). */
export function seatsToNames(text, names) {
  return String(text ?? '').replace(/\bp([12])\b/g, (seat) => names?.[seat] || seatWords(seat));
}

/** A text that names the seats p1 and p2 (the notation's names, as the rules and the options'
 *  help do) with the seats in words: "the first player", "The second player" at a sentence's
 *  start (`atStart`: whether the text itself starts one). */
export function seatsInWords(text, atStart = true) {
  return String(text)
    .replace(/(^|[.!?]\s+)p([12])\b/g, (all, pre, n) => (pre || atStart ? `${pre}The ${n === '1' ? 'first' : 'second'} player` : all))
    .replace(/\bp([12])\b/g, (_, n) => `the ${n === '1' ? 'first' : 'second'} player`);
}

/** "1 point", "2 points": a count with its noun, singular or plural. */
export function count(n, one, many = `${one}s`) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

/** A sentence whose numbers say "1 points" reads "1 point": a plural noun after a lone 1 (not
 *  11, 2.1 or 1,1) loses its "s"; words that only end in "s" ("1 has", "1 loss") stay. */
const NOT_PLURAL = new Set(['has', 'was', 'is', 'does', 'its', 'this', 'plus', 'minus', 'less', 'bus', 'us', 'as']);
export function singular(text) {
  return String(text ?? '').replace(/(^|[^\d.,])1 ([A-Za-z]*[A-Za-z])s\b/g,
    (all, pre, stem) => (NOT_PLURAL.has(`${stem}s`.toLowerCase()) || /s$/.test(stem) ? all : `${pre}1 ${stem}`));
}

/** A seat's name: the typed name, a bot's label, else "Player 1"/"Player 2". */
export function seatName(state, seat) {
  const p = state?.match?.seats?.[seat]?.player;
  if (p?.kind === 'bot') return botLabel(p.level).replace(/ \(.*\)$/, '');
  return personName(state?.names?.[seat], seat);
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

/** A refusal addressed to the player: no "p1: not legal here:" prefix, no backticks. The
 *  server tells the two kinds of refused move apart (`not_a_move`: "`X` is not a move: ...",
 *  the notation's form; `illegal_move`: "not legal here: ...", the rule and the legal moves when
 *  few); each reads as a sentence here. */
export function friendlyError(message) {
  let t = plain(message || 'the server gave no reason');
  t = t.replace(/^p[12]:\s*/i, '');
  t = t.replace(/^not legal here:\s*/i, 'That move is not allowed now: ');
  t = t.replace(/^not a move:\s*/i, 'That is not a move in this game: ');
  t = t.replace(/^(.*?) is not a move:\s*/i, (_, text) => `\u201c${text}\u201d is not a move in this game: `);
  return cap(t);
}

/** The notation box's placeholder for a decision of `game` (its browser module, boards.js's
 *  loadGame). */
export function placeholderFor(game, decision) {
  return `or type a move: ${game?.placeholder?.(decision) || 'see the rules'}`;
}

/** A move's label in `game`: words where the notation is a code, else the move. `kind` is the
 *  decision's kind when known (the move log's lines: a "7" may be a bid in one kind, a card in another). */
export function moveLabel(game, move, kind) {
  return game?.moveLabel ? game.moveLabel(move, kind) : move;
}

/**
 * The last round's reveal in `game`: {key, sentence, moves: {p1, p2}, cells: [ids]}, or null
 * before the first. `key` changes exactly when a new round is revealed. `names(seat)` names a
 * seat as the viewer should read it ("you", "Bob").
 */
export function lastReveal(game, view, names) {
  return game?.lastReveal ? game.lastReveal(view || {}, names) ?? null : null;
}

/** The name of a game's live race ("the X race"), or "live" for a game that does not name it. */
export function raceName(game) {
  return game?.races?.name || 'live';
}

/** The title of a game's live race panel: "The X", or "The live race". */
export function raceTitle(game) {
  return game?.races?.name ? `The ${game.races.name}` : 'The live race';
}

// ----- the table's sentences -----

/** How a match ended, as the start of a sentence about its winner: "won on time". */
const WON_BY = {
  game: 'won',
  resignation: 'won by resignation',
  time: 'won on time',
  second_draw: 'won after a second draw',
  adjudicated: 'won by the host\u2019s decision',
};

/** The result in a heading and a sentence. The sentence is the game's reason with the
 *  players' names for the seat ids ("Bob took more points, 7 to 3."); how the match ended leads
 *  it where that is not the rules of the game ("Ann won on time: Bob ran out of time (move).") or
 *  where the reason names nobody. */
export function resultText(state) {
  const r = state.match.result;
  const names = { p1: seatName(state, 'p1'), p2: seatName(state, 'p2') };
  const head = r.winner ? (state.you ? (r.winner === state.you ? 'You win' : 'You lose') : `${seatName(state, r.winner)} wins`) : 'A draw';
  const reason = singular(seatsToNames(plain(r.reason), names)).trim().replace(/\.$/, '');
  const namesSomebody = /\bp[12]\b/.test(r.reason || '');
  const how = r.winner
    ? `${cap(who(state, r.winner))} ${WON_BY[r.by] || 'won'}`
    : r.by === 'second_draw' ? 'A draw after a second draw' : 'Nobody won';
  const lead = (r.by && r.by !== 'game') || !namesSomebody || !reason;
  const body = !reason ? `${how}.` : lead ? `${how}: ${reason}.` : `${cap(reason)}.`;
  return { head, body };
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
export function statusLine(state, { kept = null, invite = '', sealedWords = '', race = 'live' } = {}) {
  const m = state.match;
  const you = state.you;
  const mine = m.seats[you];
  const opp = other(you);
  const oppName = seatName(state, opp);
  const decision = m.decision && m.decision !== 'move' ? ` (${m.decision})` : '';
  if (state.status === 'waiting') return state.joined[you] ? `Waiting for ${oppName} to join: send them the invite link${invite ? '' : ' from the lobby'}.` : 'Join to start.';
  if (m.result) return 'The match is over.';
  if (state.paused) return 'Paused by the host: your move waits until the host resumes the match.';
  if (m.race && !m.race.over) return `The ${race} race is on: answer the question above.`;
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

/** What a seat is doing, under its name ("to move", "has submitted", ...); `race` names a live
 *  race (raceName). */
export function seatDoing(state, seat, race = 'live') {
  const m = state.match;
  const info = m.seats[seat];
  if (state.status === 'waiting') return state.joined[seat] ? 'joined' : 'not joined yet';
  if (m.result) return '';
  if (m.race && !m.race.over) return `in the ${race} race`;
  if (!info.to_act) return 'waiting';
  if (m.sealed?.phase && info.committed) return info.opened ? 'has opened (sealed)' : 'has committed (sealed)';
  if (info.submitted) return info.locked ? 'has submitted (locked)' : 'has submitted';
  return seat === state.you ? 'to move' : 'thinking';
}

/** The page title: "Your move" first when this seat must act. */
export function pageTitle(title, { yourMove = false, finished = false } = {}) {
  return `${yourMove ? '\u25cf Your move \u00b7 ' : finished ? 'Finished \u00b7 ' : ''}${title} \u00b7 Colosseum`;
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
