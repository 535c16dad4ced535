// Shared helpers of the Colosseum pages: DOM building, the JSON API, a small Markdown reader.
// Everything shown comes from the server's answers; text is always set as text, never as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k === 'class') el.setAttribute('class', v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h('button', {class: 'x', onclick: f}, 'text', child...). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Calls the JSON API: {ok, status, data}. A network failure is status 0. */
export async function api(path, { token, method, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(path, {
      method: method || (body !== undefined ? 'POST' : 'GET'),
      headers,
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    return { ok: res.ok, status: res.status, data };
  } catch (e) {
    return { ok: false, status: 0, data: { error: { code: 'network', message: `cannot reach the server (${e.message})` } } };
  }
}

/** The message of an API error answer. */
export function errorText(res) {
  return res?.data?.error?.message || `the server answered ${res?.status}`;
}

let gamesPromise = null;
/** The registry of games, from GET /api/games (fetched once). */
export function games() {
  if (!gamesPromise) gamesPromise = api('/api/games').then((r) => (r.ok ? r.data.games : []));
  return gamesPromise;
}

export async function gameName(id) {
  const g = (await games()).find((x) => x.id === id);
  return g ? g.name : id;
}

/** Replaces the page's main content. */
export function mount(...nodes) {
  const app = document.getElementById('app');
  app.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
  return app;
}

/** A plain notice: kind is 'error', 'info' or 'ok'. */
export function notice(kind, text) {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** m:ss (or h:mm:ss) for a duration in ms, never negative. */
export function clockText(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(t / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** A seat's label: its player's name, else the seat in words ("Player 1"), never `p1`. */
export function seatLabel(seat, names) {
  return names?.[seat] || { p1: 'Player 1', p2: 'Player 2' }[seat] || String(seat ?? '');
}

export function other(seat) {
  return seat === 'p1' ? 'p2' : 'p1';
}

/** Copies text, with a fallback for pages without the clipboard API. */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const t = h('textarea', {}, text);
    document.body.append(t);
    t.select();
    const ok = document.execCommand && document.execCommand('copy');
    t.remove();
    return !!ok;
  }
}

// ----- a small Markdown reader for the rules pages (headings, lists, tables, code, emphasis) -----

function inline(text) {
  const out = [];
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith('`')) out.push(h('code', {}, t.slice(1, -1)));
    else if (t.startsWith('**')) out.push(h('strong', {}, inline(t.slice(2, -2))));
    else if (t.startsWith('[')) {
      const mm = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(t);
      const href = mm[2];
      const safe = /^(https?:|\/|#)/.test(href) ? href : null;
      out.push(safe ? h('a', { href: safe }, mm[1]) : mm[1]);
    } else out.push(h('em', {}, inline(t.slice(1, -1))));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Markdown text to DOM nodes. */
export function markdown(src) {
  const lines = src.replace(/\r/g, '').split('\n');
  const out = [];
  let i = 0;
  const cells = (l) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const body = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) body.push(lines[i++]);
      i++;
      out.push(h('pre', { tabindex: '0' }, h('code', {}, body.join('\n'))));
    } else if (/^#{1,6} /.test(line)) {
      const level = line.match(/^#+/)[0].length;
      out.push(h(`h${Math.min(level + 1, 6)}`, {}, inline(line.replace(/^#+ /, ''))));
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      const head = cells(rows[0]);
      const body = rows.slice(1).filter((r) => !/^\s*\|[\s:|-]+\|?\s*$/.test(r));
      out.push(h('div', { class: 'scroll', tabindex: '0' }, h('table', {},
        h('thead', {}, h('tr', {}, head.map((c) => h('th', {}, inline(c))))),
        h('tbody', {}, body.map((r) => h('tr', {}, cells(r).map((c) => h('td', {}, inline(c)))))))));
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim() !== '' && !/^#/.test(lines[i]) && !/^```/.test(lines[i])) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i]) && !/^\s{4,}/.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ''));
        else items[items.length - 1] += ' ' + lines[i].trim();
        i++;
      }
      out.push(h(ordered ? 'ol' : 'ul', {}, items.map((t) => h('li', {}, inline(t)))));
    } else if (line.trim() === '') {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== '' && !/^(#|```|\s*\||\s*([-*]|\d+\.) )/.test(lines[i])) para.push(lines[i++].trim());
      out.push(h('p', {}, inline(para.join(' '))));
    }
  }
  return out;
}

/** How a match ended, in words (the result's `by`). */
export function endedBy(by) {
  return { game: 'by the rules of the game', resignation: 'by resignation', time: 'on time', second_draw: 'after a second draw', adjudicated: 'by the host\u2019s decision' }[by] || by;
}
