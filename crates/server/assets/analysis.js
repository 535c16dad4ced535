// The analysis after the game on the replay page (/replay/{id}, shared as /replay/{id}?analysis):
// the Analyse button (POST /api/matches/{id}/analysis, then GET until done), the evaluation
// graph (SVG: p1's expected result before each decision; every point a focusable button), and a
// decision's moves beside the engine's choice. See docs/analysis.md.
import { h, s, api, errorText } from './common.js';

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

const pct = (v) => `${Math.round(100 * v)}%`;
const num = (v) => (v === null || v === undefined || Number.isNaN(v) ? '\u2014' : v.toFixed(3));

/** A one-line summary of a seat's part of a decision, for labels. */
export function seatSummary(seat) {
  const mark = seat.mark ? `, ${seat.mark}` : '';
  return `${seat.seat} played ${seat.played} (cost ${num(seat.cost)}${mark}); engine: ${seat.best}`;
}

/** The graph's points: x, y in the SVG's units for each decision's p1_expected. */
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
 * frame of its step); `setGame(i)` follows the replay's game selector.
 */
export function analysisPanel(id, goTo) {
  const status = h('p', { id: 'analysis-status', 'aria-live': 'polite' });
  const graph = h('div', { id: 'analysis-graph' });
  const detail = h('div', { id: 'analysis-detail' });
  const link = h('p', { id: 'analysis-share', hidden: true }, 'Share this analysis: ',
    h('a', { href: `/replay/${encodeURIComponent(id)}?analysis` }, `/replay/${id}?analysis`));
  let result = null;
  let game = 0;
  let chosen = null;

  const showDetail = (d) => {
    chosen = d.index;
    for (const c of graph.querySelectorAll('.eval-point')) {
      c.classList.toggle('current', Number(c.dataset.decision) === d.index);
      c.setAttribute('aria-pressed', String(Number(c.dataset.decision) === d.index));
    }
    const rows = d.seats.map((seat) => h('tr', { class: seat.mark ? `mark-${seat.mark}` : null },
      h('th', { scope: 'row' }, seat.seat),
      h('td', {}, `${num(seat.expected)}${seat.expected_error != null ? ` \u00b1${num(seat.expected_error)}` : ''}`),
      h('td', { class: 'played' }, `${seat.played} (${num(seat.played_value)})`),
      h('td', { class: 'engine' }, seat.recommended.slice(0, 3).map((c) => `${c.move} ${pct(c.probability)}`).join(', ') || '\u2014'),
      h('td', {}, `${num(seat.cost)}${seat.cost_error != null ? ` \u00b1${num(seat.cost_error)}` : ''}`),
      h('td', {}, seat.mark || '\u2014'),
      h('td', {}, seat.method)));
    detail.replaceChildren(
      h('h3', {}, `Decision ${d.index + 1}: p1 expects ${num(d.p1_expected)}`),
      h('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'the decision, move played beside the engine' },
        h('table', { class: 'analysis-table' },
          h('thead', {}, h('tr', {}, ['seat', 'expects', 'played (value)', "engine's choice", 'cost', 'mark', 'how'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows))));
    goTo(d.step);
  };

  const draw = () => {
    const a = result?.games?.[game];
    if (!a) { graph.replaceChildren(); detail.replaceChildren(); return; }
    const ds = a.decisions;
    const pts = graphPoints(ds);
    const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v);
    const line = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const marked = (d) => d.seats.find((x) => x.mark)?.mark;
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'group', 'aria-label': `evaluation graph: p1's expected result before each of ${ds.length} decisions` },
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
        'aria-label': `Decision ${i + 1}: p1 expects ${pct(d.p1_expected)}; ${d.seats.map(seatSummary).join('; ')}`,
        onclick: () => showDetail(d),
        onkeydown: (e) => {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); showDetail(d); }
        },
      }, s('title', {}, `Decision ${i + 1}: p1 ${pct(d.p1_expected)}`))));
    const turning = a.turning_points.map((t) => `after decision ${t.decision + 1} (${t.swing > 0 ? '+' : ''}${pct(t.swing)} for p1)`);
    graph.replaceChildren(svg,
      h('p', { class: 'muted' }, `Turning points: ${turning.join(', ') || 'none'}. ${a.information}. Exact where the game is solved, else a search of ${result.iterations} iterations, ${result.runs} runs (\u00b1 one standard deviation).`));
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
        status.textContent = 'Analysis done: click or focus a point of the graph to see that decision.';
        document.body.dataset.analysis = 'done';
        link.hidden = false;
        button.hidden = true;
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

  const section = h('section', { class: 'panel', id: 'analysis', 'aria-labelledby': 'analysis-title' },
    h('h2', { id: 'analysis-title' }, 'Analysis'),
    h('p', { class: 'muted' }, 'An engine values every decision from the seat\u2019s own view: the expected result before it, the move played beside the engine\u2019s choice, and marks for inaccuracies, mistakes and blunders.'),
    h('p', {}, button), status, graph, detail, link);
  if (new URLSearchParams(location.search).has('analysis')) start();
  return {
    section,
    setGame(i) { game = i; chosen = null; if (result) draw(); },
  };
}
