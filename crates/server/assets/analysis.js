// The analysis after the game on the replay page (/replay/{id}, shared as /replay/{id}?analysis):
// the Analyse button (POST /api/matches/{id}/analysis, then GET until done), the evaluation
// graph (SVG: the first player's expected score before each decision; every point a focusable
// button), and a decision's moves beside the engine's choice, with the players' names. See
// docs/analysis.md.
import { h, s, api, errorText } from './common.js';

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

const pct = (v) => `${Math.round(100 * v)}%`;
const num = (v) => (v === null || v === undefined || Number.isNaN(v) ? '\u2014' : v.toFixed(3));
/** A share of a win (0 to 1) in percent with a tenth: a cost of 0.023 is "2.3%". */
const pct1 = (v) => (v === null || v === undefined || Number.isNaN(v) ? '\u2014' : `${(100 * v).toFixed(1)}%`);
const seatOf = (names, seat) => names?.[seat] || { p1: 'Player 1', p2: 'Player 2' }[seat] || seat;
const METHOD = { exact: 'exact', search: 'searched' };

/** A seat's expected score in words: "Ann's expected score: 39%" (a win counts 1, a draw ½:
 *  docs/analysis.md). */
export function expectsText(name, value) {
  return `${name}\u2019s expected score: ${pct(value)}`;
}

/** A one-line summary of a seat's part of a decision, for labels, with the seat's name. */
export function seatSummary(seat, names) {
  const mark = seat.mark ? `, ${seat.mark}` : '';
  return `${seatOf(names, seat.seat)} played ${seat.played} (cost ${pct1(seat.cost)}${mark}); engine: ${seat.best}`;
}

/** A turning point in words: "after decision 3 (+12% for Ann)"; a fall is good for the second
 *  player, so it is said for them. */
export function turningText(t, names) {
  const up = t.swing >= 0;
  return `after decision ${t.decision + 1} (+${pct(Math.abs(t.swing))} for ${seatOf(names, up ? 'p1' : 'p2')})`;
}

/** The graph's points: x, y in the SVG's units for each decision's `p1_expected` (the first
 *  player's expected score). */
export function graphPoints(decisions) {
  const n = Math.max(decisions.length - 1, 1);
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  return decisions.map((d, i) => ({
    x: PAD.left + (decisions.length === 1 ? iw / 2 : (iw * i) / n),
    y: PAD.top + ih * (1 - Math.min(1, Math.max(0, d.p1_expected))),
  }));
}

/**
 * The panel. `goTo(frame)` shows the replay's frame (the position before a decision is the
 * frame of its step); `setGame(i)` follows the replay's game selector. `names` are the players'
 * names by seat; `showBoard()` brings the board into view (the phone's Board tab).
 */
export function analysisPanel(id, goTo, names = {}, showBoard = null) {
  const status = h('p', { id: 'analysis-status', 'aria-live': 'polite' });
  const graph = h('div', { id: 'analysis-graph' });
  const detail = h('div', { id: 'analysis-detail' });
  const link = h('p', { id: 'analysis-share', hidden: true }, 'Share this analysis: ',
    h('a', { href: `/replay/${encodeURIComponent(id)}?analysis` }, 'the link to this analysis'));
  let result = null;
  let game = 0;
  let chosen = null;

  const showDetail = (d) => {
    chosen = d.index;
    for (const c of graph.querySelectorAll('.eval-point')) {
      c.classList.toggle('current', Number(c.dataset.decision) === d.index);
      c.setAttribute('aria-pressed', String(Number(c.dataset.decision) === d.index));
    }
    const cell = (label, text, cls) => h('td', { class: cls, 'data-label': label }, text);
    const rows = d.seats.map((seat) => h('tr', { class: seat.mark ? `mark-${seat.mark}` : null },
      h('th', { scope: 'row' }, seatOf(names, seat.seat)),
      cell('expects', `${pct(seat.expected)}${seat.expected_error != null ? ` \u00b1${pct1(seat.expected_error)}` : ''}`),
      cell('played', `${seat.played} (${pct(seat.played_value)})`, 'played'),
      cell('engine', seat.recommended.slice(0, 3).map((c) => `${c.move} ${pct(c.probability)}`).join(', ') || '\u2014', 'engine'),
      cell('cost', `${pct1(seat.cost)}${seat.cost_error != null ? ` \u00b1${pct1(seat.cost_error)}` : ''}`),
      cell('mark', seat.mark || '\u2014'),
      cell('how', METHOD[seat.method] || seat.method)));
    detail.replaceChildren(
      h('h3', {}, `Decision ${d.index + 1}: ${expectsText(seatOf(names, 'p1'), d.p1_expected)}`),
      h('p', { class: 'hint' }, 'A win counts 100%, a draw 50%. Each seat\u2019s move and its value beside the engine\u2019s choice (its three likeliest moves); the cost is the expected score the move gave up.'),
      h('div', { role: 'region', 'aria-label': 'the decision, move played beside the engine', class: 'analysis-decision' },
        h('table', { class: 'analysis-table' },
          h('thead', {}, h('tr', {}, ['player', 'expects', 'played (value)', "engine's choice", 'cost', 'mark', 'how'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows))),
      h('p', { class: 'analysis-steps' },
        h('button', { type: 'button', id: 'decision-prev', disabled: d.index === 0, onclick: () => step(-1) }, '\u25c0 previous decision'),
        h('button', { type: 'button', id: 'decision-next', disabled: d.index >= decisions().length - 1, onclick: () => step(1) }, 'next decision \u25b6'),
        showBoard ? h('button', { type: 'button', class: 'show-board', onclick: () => showBoard() }, 'Show this position on the board') : null));
    goTo(d.step);
  };

  const decisions = () => result?.games?.[game]?.decisions || [];
  const step = (d) => {
    const ds = decisions();
    const next = ds[Math.min(ds.length - 1, Math.max(0, (chosen ?? 0) + d))];
    if (next) { showDetail(next); document.getElementById(d < 0 ? 'decision-prev' : 'decision-next')?.focus(); }
  };

  const draw = () => {
    const a = result?.games?.[game];
    if (!a) { graph.replaceChildren(); detail.replaceChildren(); return; }
    const ds = a.decisions;
    const pts = graphPoints(ds);
    const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v);
    const line = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const marked = (d) => d.seats.find((x) => x.mark)?.mark;
    const first = seatOf(names, 'p1');
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'group', 'aria-label': `evaluation graph: ${first}\u2019s expected score before each of ${ds.length} decisions (up is good for ${first}, down for ${seatOf(names, 'p2')})` },
      [0, 0.5, 1].map((v) => [
        s('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: v === 0.5 ? 'eval-mid' : 'eval-grid' }),
        s('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'eval-axis' }, pct(v)),
      ]),
      s('text', { x: PAD.left, y: H - 6, class: 'eval-axis' }, 'decision 1'),
      s('text', { x: W - PAD.right, y: H - 6, 'text-anchor': 'end', class: 'eval-axis' }, `decision ${ds.length}`),
      s('path', { d: line, class: 'eval-line', fill: 'none' }),
      ds.map((d, i) => s('circle', {
        cx: pts[i].x, cy: pts[i].y, r: marked(d) ? 7 : 5,
        class: `eval-point${marked(d) ? ` mark-${marked(d)}` : ''}`,
        tabindex: '0', role: 'button', 'aria-pressed': 'false', 'data-decision': i,
        'aria-label': `Decision ${i + 1}: ${expectsText(first, d.p1_expected)}; ${d.seats.map((x) => seatSummary(x, names)).join('; ')}`,
        onclick: () => showDetail(d),
        onkeydown: (e) => {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); showDetail(d); }
        },
      }, s('title', {}, `Decision ${i + 1}: ${expectsText(first, d.p1_expected)}`))));
    const turning = a.turning_points.map((t) => turningText(t, names));
    graph.replaceChildren(
      h('p', { class: 'hint eval-legend' }, `${first}\u2019s expected score before each decision (a win 100%, a draw 50%): up is good for ${first}, down for ${seatOf(names, 'p2')}. Marked points are inaccuracies (yellow), mistakes (orange) and blunders (red).`),
      svg,
      h('p', { class: 'turning' }, `Turning points: ${turning.join(', ') || 'none'}.`),
      h('details', { class: 'how-computed' }, h('summary', {}, 'How the engine values a decision'),
        h('p', {}, intro),
        h('p', {}, `${a.information[0]?.toUpperCase() || ''}${a.information.slice(1)}. Exact where the game is solved, else a search of ${result.iterations.toLocaleString('en')} iterations, ${result.runs} runs (\u00b1 one standard deviation).`)));
    const again = ds.find((d) => d.index === chosen) || ds.find((d) => d.seats.some((x) => x.mark)) || ds[0];
    if (again) showDetail(again);
  };

  const poll = async () => {
    for (;;) {
      const res = await api(`/api/matches/${encodeURIComponent(id)}/analysis`);
      if (!res.ok) { status.textContent = `The analysis failed: ${errorText(res)}.`; button.disabled = false; return; }
      const v = res.data;
      if (v.status === 'done') {
        result = v;
        status.textContent = 'Analysis done: click a point of the graph (or Tab to it and press Enter) to see that decision.';
        document.body.dataset.analysis = 'done';
        link.hidden = false;
        button.hidden = true;
        about.hidden = true;
        draw();
        return;
      }
      if (v.status === 'failed' || v.status === 'none') {
        status.textContent = v.status === 'failed' ? `The analysis failed: ${v.error}.` : 'Not analysed yet.';
        button.disabled = false;
        return;
      }
      status.textContent = `Analysing: ${v.done} of ${v.total} decisions\u2026`;
      await new Promise((r) => { setTimeout(r, 700); });
    }
  };

  const start = async () => {
    button.disabled = true;
    status.textContent = 'Asking the server to analyse\u2026';
    const res = await api(`/api/matches/${encodeURIComponent(id)}/analysis`, { method: 'POST' });
    if (!res.ok) { status.textContent = `Cannot analyse: ${errorText(res)}.`; button.disabled = false; return; }
    await poll();
  };
  const button = h('button', { type: 'button', id: 'analyse', onclick: start }, 'Analyse');

  const intro = 'An engine values every decision from the seat\u2019s own view: the expected result before it, the move played beside the engine\u2019s choice, and marks for inaccuracies, mistakes and blunders.';
  const about = h('p', { class: 'muted' }, intro);
  const section = h('section', { class: 'panel', id: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h2', { id: 'analysis-title' }, 'Analysis'),
    about,
    h('p', {}, button), status, graph, detail, link);
  if (new URLSearchParams(location.search).has('analysis')) start();
  return {
    section,
    setGame(i) { game = i; chosen = null; if (result) draw(); },
  };
}
