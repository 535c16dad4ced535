// The move log, from the server's `match.moves` (docs/server-api.md, "The state"): every step
// of the match as this viewer may know it, with the players' names. The server leaves out what
// the viewer may not see (a face-down move, secret chance); this module only words it.
// Pure functions first (tested with `node --test`), then the DOM.
import { h, clockText } from './common.js';
import { personName } from './present.js';

/** The name to show for a seat: its player's name (a bot's level in words: "Computer: easy"),
 *  else the seat in words ("Player 1"), never `p1`/`p2`. */
export function seatName(names, seat) {
  return personName(names && names[seat], seat);
}

/** Replaces the seat ids `p1`/`p2` in a game's sentence with the players' names. */
export function withNames(text, names) {
  return String(text ?? '').replace(/\bp([12])\b/g, (seat) => seatName(names, seat));
}

/** A step's kind in words: the game's own words (its module's `kindWords`), else the kind. */
function kindText(kind, words) {
  if (words && words[kind]) return words[kind];
  if (kind === 'race') return 'live race';
  return kind || 'move';
}

/** One log line's words: "Ann: 7 · Bob: 5", "chance: 3", "live race: Ann won". `words` are the
 *  game's words for its decision kinds (a game module's `kindWords`); `label(move, kind)` words a
 *  move where its notation is a code (a game module's `moveLabel`: "Ann: a stone on d4"). */
export function lineText(line, names, words = {}, label = null) {
  const kind = kindText(line.kind, words);
  const late = new Set(line.by_default || []);
  if (line.kind === 'race') {
    if (line.chance === undefined || line.chance === null) return `${kind}: decided`;
    return line.chance === 'none'
      ? `${kind}: nobody answered correctly`
      : `${kind}: ${withNames(line.chance, names)} won`;
  }
  const parts = [];
  const faceDown = new Set(line.face_down || []);
  for (const seat of ['p1', 'p2']) {
    if (line[seat] !== undefined && line[seat] !== null) {
      const move = label ? label(line[seat], line.kind) : line[seat];
      parts.push(`${seatName(names, seat)}: ${move}${late.has(seat) ? ' (time ran out: played for them)' : ''}`);
    } else if (faceDown.has(seat)) {
      parts.push(`${seatName(names, seat)}: face down until answered`);
    }
  }
  if (line.chance !== undefined && line.chance !== null) {
    parts.push(`${line.kind === 'chance' || line.kind === 'move' ? 'drawn' : kind}: ${line.chance}`);
  } else if (line.hidden && !faceDown.size) {
    parts.push('drawn: secret until the end');
  }
  if (!parts.length) return kind;
  return parts.join(' \u00b7 ');
}

/** The log as {key, at, text} rows, oldest first; a new game's first step says so. */
export function logRows(moves, names, words = {}, label = null) {
  const rows = [];
  let game = 1;
  for (const line of moves || []) {
    if (line.game !== game) {
      game = line.game;
      rows.push({ key: `g${game}`, at: line.at, text: `Game ${game} begins (the earlier game was drawn)`, game, step: -1 });
    }
    rows.push({ key: `${line.game}.${line.step}`, at: line.at, text: lineText(line, names, words, label), game: line.game, step: line.step, hidden: !!line.hidden });
  }
  return rows;
}

/** The log as a list (an `ol.log`), or null when there is nothing yet. (The replay words its
 *  own step list with `lineText`: replay.js.) */
export function moveLog(moves, names, words = {}, label = null) {
  const rows = logRows(moves, names, words, label);
  if (!rows.length) return null;
  return h('ol', { class: 'log movelog', 'data-testid': 'movelog', tabindex: '0', 'aria-label': 'Moves so far' }, rows.map((r) => h('li', { 'data-step': r.key, class: r.hidden ? 'hidden-step' : undefined },
    h('span', { class: 'log-time muted' }, `${clockText(r.at)} `), h('span', {}, r.text))));
}
