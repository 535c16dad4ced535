// The replay viewer, /replay/{id}: a finished match, frame by frame, as a spectator saw it.
import { h, api, errorText, gameName, mount, notice, endedBy } from './common.js';
import { render } from './boards.js';
import { moveLog } from './movelog.js'; // social: the server's move log, each line a step to jump to

const id = decodeURIComponent(location.pathname.split('/')[2] || '');

function stepText(step) {
  if (!step) return 'the start';
  if (step.chance !== undefined) return `chance: ${step.chance}`;
  return Object.entries(step).map(([k, v]) => `${k}: ${v}`).join(', ');
}

async function main() {
  const res = await api(`/api/matches/${encodeURIComponent(id)}/replay`);
  if (!res.ok) {
    const msg = res.status === 409
      ? h('div', {}, notice('info', `Not yet: ${errorText(res)}.`), h('p', {}, h('a', { href: `/m/${id}` }, 'Watch it live')))
      : notice('error', res.status === 404 ? `No such match: ${errorText(res)}` : `Cannot load the replay: ${errorText(res)}`);
    mount(h('h1', {}, 'Replay'), msg, h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
    return;
  }
  const data = res.data;
  const names = data.names || {};
  let gameIndex = 0;
  const title = await gameName(data.games[0]?.record?.game || '');
  document.title = `Replay: ${title} \u00b7 Colosseum`;
  const slider = h('input', { id: 'slider', type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'step' });
  const label = h('p', { id: 'frame-label', class: 'status-line', 'aria-live': 'polite' });
  const board = h('div', { class: 'board-box' });
  const side = h('div', { class: 'side' });
  const gameSel = data.games.length > 1 ? h('select', { id: 'replay-game' }, data.games.map((g, i) => h('option', { value: i }, `game ${i + 1}${g.outcome?.winner ? `: ${g.outcome.winner} won` : ': drawn'}`))) : null;
  const show = () => {
    const g = data.games[gameIndex];
    const k = Number(slider.value);
    const f = g.frames[k];
    label.textContent = `Step ${k} of ${g.frames.length - 1}: ${stepText(f.step)}`;
    const parts = render(g.record.game, f.view, { you: null, names, legal: null, canAct: false, submission: null, pick() {}, compose() {}, addToBox() {}, rerender: show }, {});
    board.replaceChildren(...[parts.board, parts.legend ? h('p', { class: 'hint legend' }, parts.legend) : null].filter(Boolean));
    side.replaceChildren(...[
      h('section', { class: 'panel' }, h('h2', {}, 'Score'), parts.score || '\u2014'),
      h('section', { class: 'panel' }, h('h2', {}, 'Last reveal'), parts.reveal || h('p', { class: 'muted' }, 'Nothing revealed yet.')),
      parts.hand ? h('section', { class: 'panel' }, h('h2', {}, 'Hands'), parts.hand) : null,
      h('section', { class: 'panel', id: 'log' }, h('h2', {}, 'Moves'),
        (g.moves ? moveLog(g.moves, names, { current: `${gameIndex + 1}.${k - 1}`, onPick: (row) => { slider.value = String(row.step + 1); show(); } }) : parts.log) || '\u2014'),
      h('details', { class: 'panel' }, h('summary', {}, 'As text'), h('pre', { class: 'json' }, f.text || ''))].filter(Boolean));
  };
  const setGame = (i) => {
    gameIndex = i;
    slider.max = String(data.games[i].frames.length - 1);
    slider.value = slider.max;
    show();
  };
  slider.addEventListener('input', show);
  gameSel?.addEventListener('change', () => setGame(Number(gameSel.value)));
  const move = (d) => { slider.value = String(Math.min(Number(slider.max), Math.max(0, Number(slider.value) + d))); show(); };
  const r = data.result;
  const who = (seat) => (names[seat] ? `${names[seat]} (${seat})` : seat);
  mount(
    h('h1', {}, `Replay: ${title}`),
    h('p', { class: 'muted' }, `Match ${data.id}: ${who('p1')} vs ${who('p2')} \u00b7 `, h('a', { href: `/m/${data.id}` }, 'the table')),
    r ? h('div', { class: 'card result', id: 'result' }, h('h2', {}, r.winner ? `${who(r.winner)} won` : 'A draw'), h('p', {}, `${endedBy(r.by)}: ${r.reason}`)) : null,
    gameSel ? h('p', {}, h('label', { for: 'replay-game' }, 'Game '), gameSel) : null,
    h('div', { class: 'replay-controls' },
      h('button', { type: 'button', onclick: () => { slider.value = '0'; show(); } }, '\u00ab start'),
      h('button', { type: 'button', id: 'prev', onclick: () => move(-1) }, '\u25c0 back'),
      slider,
      h('button', { type: 'button', id: 'next', onclick: () => move(1) }, 'next \u25b6'),
      h('button', { type: 'button', onclick: () => { slider.value = slider.max; show(); } }, 'end \u00bb')),
    label,
    h('div', { class: 'table' }, board, side));
  // Open on the deciding game (the last one; earlier ones were drawn and replayed).
  const lastGame = data.games.length - 1;
  if (gameSel) gameSel.value = String(lastGame);
  setGame(lastGame);
}

main();
