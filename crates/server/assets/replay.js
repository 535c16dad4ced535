// The replay viewer, /replay/{id}: a finished match, frame by frame, as a spectator saw it.
// With the analysis (analysis.js) beside the board on a laptop (the board on the left; the
// evaluation graph above the move list on the right) and in its own tab on a phone.
import { h, api, errorText, gameName, mount, notice, clockText } from './common.js';
import { render, loadGame } from './boards.js';
import { moveLabel, namesOf, resultText } from './present.js';
import { lineText } from './movelog.js'; // social: the server's move log words each step
import { analysisPanel } from './analysis.js'; // the analysis after the game, its graph

const id = decodeURIComponent(location.pathname.split('/')[2] || '');

function stepText(step, names = {}) {
  if (!step) return 'the start';
  if (step.chance !== undefined) return `drawn: ${step.chance}`;
  return Object.entries(step).map(([k, v]) => `${names[k] || k}: ${v}`).join(', ');
}

/** The phone's two tabs, Board and Analysis (shown at 600 px and less; both panes side by side
 *  above it). `panes` are {board, analysis}; `start` the tab shown first. */
function tabs(panes, start) {
  const buttons = {};
  const choose = (which, focus = false) => {
    for (const [k, b] of Object.entries(buttons)) {
      const on = k === which;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      panes[k].classList.toggle('tab-off', !on);
    }
    document.body.dataset.tab = which;
    if (focus) buttons[which].focus();
  };
  const order = ['board', 'analysis'];
  const bar = h('div', { class: 'replay-tabs', role: 'tablist', 'aria-label': 'the replay or its analysis' },
    order.map((k) => {
      buttons[k] = h('button', {
        type: 'button', role: 'tab', id: `tab-${k}`, 'aria-controls': panes[k].id, 'data-testid': `tab-${k}`,
        onclick: () => choose(k),
        onkeydown: (e) => {
          const d = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
          if (!d) return;
          e.preventDefault();
          e.stopPropagation();
          choose(order[(order.indexOf(k) + d + order.length) % order.length], true);
        },
      }, k === 'board' ? 'Board and moves' : 'Analysis');
      panes[k].setAttribute('aria-labelledby', `tab-${k}`);
      return buttons[k];
    }));
  choose(start);
  return { bar, choose };
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
  const names = namesOf(data.names);
  let gameIndex = 0;
  const [title, game] = await Promise.all([gameName(data.games[0]?.record?.game || ''), loadGame(data.games[0]?.record?.game || '')]);
  document.title = `Replay: ${title} \u00b7 Colosseum`;
  const slider = h('input', { id: 'slider', type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'step of the replay' });
  const moveList = h('ol', { id: 'move-list', class: 'log move-list', 'aria-label': 'every step; click one to go there' });
  const label = h('p', { id: 'frame-label', class: 'status-line', 'aria-live': 'polite' });
  const board = h('div', { class: 'board-box' });
  const under = h('div', { class: 'replay-under' });
  const outcome = (g) => (g.outcome?.winner ? `${names[g.outcome.winner] || g.outcome.winner} won` : 'drawn');
  const gameSel = data.games.length > 1 ? h('select', { id: 'replay-game' }, data.games.map((g, i) => h('option', { value: i }, `game ${i + 1}: ${outcome(g)}`))) : null;
  // Frame k (k >= 1) shows the game after step k - 1: the server's move log words it (names,
  // moves the clock played), else the record's step.
  const lineAt = (g, k) => (k > 0 ? (g.moves || []).find((l) => l.step === k - 1) : null);
  const frameText = (g, k) => {
    if (k === 0) return 'the start';
    const line = lineAt(g, k);
    return line ? lineText(line, data.names || {}, game.kindWords, (mv, kind) => moveLabel(game, mv, kind)) : stepText(g.frames[k].step, names);
  };
  const show = () => {
    const g = data.games[gameIndex];
    const k = Number(slider.value);
    const f = g.frames[k];
    label.textContent = `Step ${k} of ${g.frames.length - 1}: ${frameText(g, k)}`;
    document.body.dataset.frame = String(k);
    for (const b of moveList.querySelectorAll('button')) {
      const at = Number(b.dataset.frame) === k;
      b.classList.toggle('current', at);
      if (at) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    }
    // Scrolls the list only (never the page): the current step in view inside its box.
    const cur = moveList.querySelector('button.current');
    if (cur) {
      const li = cur.closest('li');
      if (li.offsetTop < moveList.scrollTop) moveList.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > moveList.scrollTop + moveList.clientHeight) moveList.scrollTop = li.offsetTop + li.offsetHeight - moveList.clientHeight;
    }
    const parts = render(game, f.view, { you: null, names, legal: null, canAct: false, submission: null, draft: null, pick() {}, compose() {}, addToBox() {}, rerender: show }, {});
    board.replaceChildren(...[parts.board, parts.legend ? h('p', { class: 'hint legend' }, parts.legend) : null].filter(Boolean));
    under.replaceChildren(...[
      h('section', { class: 'panel' }, h('h2', {}, 'Score'), parts.score || h('p', { class: 'muted' }, 'No score yet.')),
      h('section', { class: 'panel' }, h('h2', {}, 'Last reveal'), parts.reveal || h('p', { class: 'muted' }, 'Nothing revealed yet.')),
      parts.hand ? h('section', { class: 'panel' }, h('h2', {}, 'Hands'), parts.hand) : null,
      h('details', { class: 'panel' }, h('summary', {}, 'As text'), h('pre', { class: 'json', tabindex: '0' }, f.text || ''))].filter(Boolean));
  };
  let view = null;
  const analysis = analysisPanel(data.id, (k) => { slider.value = String(k); show(); }, names, () => view?.choose('board'));
  const setGame = (i) => {
    gameIndex = i;
    analysis.setGame(i);
    const g = data.games[i];
    moveList.replaceChildren(...g.frames.map((f, k) => h('li', {},
      lineAt(g, k) ? h('span', { class: 'log-time muted' }, `${clockText(lineAt(g, k).at)} `) : null,
      h('button', {
        type: 'button', class: 'step', 'data-frame': k, onclick: () => { slider.value = String(k); show(); },
      }, frameText(g, k)))));
    slider.max = String(data.games[i].frames.length - 1);
    slider.value = slider.max;
    show();
  };
  slider.addEventListener('input', show);
  gameSel?.addEventListener('change', () => setGame(Number(gameSel.value)));
  const move = (d) => { slider.value = String(Math.min(Number(slider.max), Math.max(0, Number(slider.value) + d))); show(); };
  const r = data.result;
  const said = r ? resultText({ you: null, names: data.names || {}, match: { result: r, seats: {} } }) : null;
  const boardPane = h('div', { class: 'replay-board', id: 'pane-board' },
    h('div', { class: 'replay-controls' },
      h('button', { type: 'button', id: 'start', onclick: () => { slider.value = '0'; show(); } }, '\u00ab start'),
      h('button', { type: 'button', id: 'prev', onclick: () => move(-1) }, '\u25c0 back'),
      slider,
      h('button', { type: 'button', id: 'next', onclick: () => move(1) }, 'next \u25b6'),
      h('button', { type: 'button', id: 'end', onclick: () => { slider.value = slider.max; show(); } }, 'end \u00bb')),
    label,
    board,
    under);
  const movesPane = h('section', { class: 'panel replay-moves', id: 'pane-moves', 'aria-labelledby': 'moves-title' }, h('h2', { id: 'moves-title' }, 'Moves'), moveList);
  const analysisPane = h('div', { class: 'replay-analysis', id: 'pane-analysis' }, analysis.section);
  const layout = h('div', { class: 'replay-layout', 'data-testid': 'replay-layout' }, boardPane, analysisPane, movesPane);
  // The phone's tabs: the Board tab holds the board and the moves; Analysis the graph and a
  // decision's table. A shared analysis link opens on the Analysis tab.
  const boardTab = { id: 'pane-board', classList: { toggle: (c, on) => { boardPane.classList.toggle(c, on); movesPane.classList.toggle(c, on); } }, setAttribute: (k, v) => boardPane.setAttribute(k, v) };
  view = tabs({ board: boardTab, analysis: analysisPane }, new URLSearchParams(location.search).has('analysis') ? 'analysis' : 'board');
  for (const pane of [boardPane, analysisPane]) pane.setAttribute('role', 'tabpanel');
  mount(
    h('h1', {}, `Replay: ${title}`),
    h('p', { class: 'muted' }, `${names.p1} vs ${names.p2} \u00b7 `, h('a', { href: `/m/${data.id}` }, 'the table')),
    said ? h('div', { class: 'card result', id: 'result' }, h('h2', {}, said.head), h('p', {}, said.body)) : null,
    gameSel ? h('p', {}, h('label', { for: 'replay-game' }, 'Game '), gameSel) : null,
    view.bar,
    layout);
  // Open on the deciding game (the last one; earlier ones were drawn and replayed).
  // Arrow keys anywhere on the page (the slider handles its own), Home and End.
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    if (e.target.closest?.('input, select, textarea')) return;
    const d = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (d) { e.preventDefault(); move(d); } else if (e.key === 'Home') { e.preventDefault(); slider.value = '0'; show(); } else if (e.key === 'End') { e.preventDefault(); slider.value = slider.max; show(); }
  });
  const lastGame = data.games.length - 1;
  if (gameSel) gameSel.value = String(lastGame);
  setGame(lastGame);
}

main();
