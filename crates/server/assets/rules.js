// A game's rules page, /rules/{game}: the rules text from GET /api/games/{game}.
import { h, api, errorText, games, mount, notice, markdown } from './common.js';
import { botLabel, count, seatsInWords } from './present.js';

const SEAT = { p1: 'the first seat', p2: 'the second seat' };

const game = decodeURIComponent(location.pathname.split('/')[2] || '');

// Notes for bot authors and developers (terminal commands, the project's files, JSON records)
// are folded away in place, so that a player reads the rules without them.
const TECHNICAL = /\bcolosseum (play|replay|serve|exploit|verify|games|bot|arena)\b|\bcrates\/|\.rs\b|--json|--seed|--vs\b|\bscore\.returns\b/;

function foldTechnical(nodes) {
  const out = [];
  for (const node of nodes) {
    const prev = out[out.length - 1];
    const technical = TECHNICAL.test(node.textContent);
    // A block right after a note (its example output) belongs to the note.
    if (prev?.classList?.contains('technical') && (technical || node.tagName === 'PRE')) {
      prev.append(node);
    } else if (technical) {
      out.push(h('details', { class: 'technical' }, h('summary', {}, 'Technical note (for bot authors)'), node));
    } else {
      out.push(node);
    }
  }
  return out;
}

/** Whether a node starts a sentence: first in its block, or after a full stop. */
function startsSentence(node) {
  const prev = node.previousSibling;
  if (!prev) return !['CODE', 'EM', 'STRONG', 'A'].includes(node.parentElement?.tagName);
  return /[.!?]\s*$/.test(prev.textContent || '');
}

function wordSeats(root) {
  // Code (`p1`) is notation a player types or reads in a record: it stays as written.
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest('pre, code, details.technical') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const n of nodes) if (/\bp[12]\b/.test(n.data)) n.data = seatsInWords(n.data, startsSentence(n));
}

async function main() {
  const [res, all] = await Promise.all([api(`/api/games/${encodeURIComponent(game)}`), games()]);
  const nav = h('nav', { class: 'game-tabs', 'aria-label': 'games' }, all.map((g) => h('a', { href: `/rules/${g.id}`, 'aria-current': g.id === game ? 'page' : undefined }, g.name)));
  if (!res.ok) {
    mount(nav, h('h1', {}, 'Rules'), notice('error', errorText(res)));
    return;
  }
  const g = res.data;
  document.title = `${g.name} rules \u00b7 Colosseum`;
  const opts = g.options.length ? h('div', { class: 'scroll', tabindex: '0' }, h('table', {}, h('thead', {}, h('tr', {}, ['option', 'default', 'allowed', 'meaning'].map((x) => h('th', {}, x)))),
    h('tbody', {}, g.options.map((o) => h('tr', {}, h('td', {}, h('code', {}, o.name)), h('td', {}, h('code', {}, o.default)), h('td', {}, h('code', {}, o.allowed)), h('td', {}, seatsInWords(o.help, true))))))) : null;
  const article = h('article', { class: 'rules' }, foldTechnical(markdown(g.rules)));
  wordSeats(article);
  mount(nav, article, h('section', { class: 'card' }, h('h2', {}, 'Options in the lobby'), opts || h('p', {}, 'None.'), h('p', {}, h('a', { href: '/', class: 'button primary' }, `Play ${g.name}`))));
  showBalance(g);
}

// The game's latest balance report (GET /api/games/{game}/balance, from `colosseum balance
// --out` under the server's --balance-dir), after the options; nothing when there is none (the
// server answers 200 with "report": null then, so the page logs no error).
async function showBalance(g) {
  const res = await api(`/api/games/${encodeURIComponent(g.id)}/balance`);
  if (!res.ok || !res.data?.report) return;
  document.getElementById('app').append(balanceSection(g, res.data));
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
/** The engine of a report in words: a level's name ("Computer: hard" reads "hard"), a search
 *  of N iterations otherwise. */
const engineName = (spec) => {
  const iters = /iters=(\d+)/.exec(String(spec))?.[1];
  if (iters) return `a search of ${Number(iters).toLocaleString('en')} iterations`;
  return botLabel(spec).replace(/^Computer: /, '').replace(/ \(.*\)$/, '');
};
const interval = (i) => (i ? `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]` : '\u2014');
const optionText = (o) => Object.entries(o || {}).map(([k, v]) => `${k}=${v}`).join(' ') || 'defaults';

/** The report as a section: what was played, a table of the numbers with their 95% intervals
 * (one row per option value), the endings and the plots. */
export function balanceSection(g, data) {
  const r = data.report;
  const games = r.points.reduce((n, p) => n + p.games, 0);
  const when = data.produced_at ? new Date(data.produced_at).toISOString().slice(0, 10) : '';
  const rows = r.points.map((p) => h('tr', {},
    h('td', {}, r.sweep ? `${r.sweep}=${p.value}` : optionText(p.options)),
    h('td', {}, String(p.games)),
    h('td', {}, interval(p.first_seat_wins)),
    h('td', {}, interval(p.first_seat_score)),
    h('td', {}, p.advantage_holder ? `${SEAT[p.advantage_holder] || p.advantage_holder}: ${interval(p.advantage_wins)}` : '\u2014'),
    h('td', {}, interval(p.draw_rate)),
    h('td', {}, `${p.length.estimate.toFixed(1)} (${p.length_min}\u2013${p.length_max})`)));
  const table = h('div', { class: 'scroll', tabindex: '0' }, h('table', { 'data-testid': 'balance-table' },
    h('thead', {}, h('tr', {}, [r.sweep ? 'setting' : 'options', 'games', "first seat's wins", "first seat's score", "advantage holder's wins", 'draws', 'decisions (shortest\u2013longest)'].map((x) => h('th', {}, x)))),
    h('tbody', {}, rows)));
  const endings = r.points.map((p) => h('li', {}, `${r.sweep ? `${r.sweep}=${p.value}: ` : ''}`,
    Object.entries(p.endings).map(([kind, [n, i]]) => `${kind}: ${n} (${interval(i)})`).join('; ')));
  const titles = { shares: 'Wins, score and draws', endings: 'How games end', length: 'Game length' };
  const plots = ['shares', 'endings', 'length'].filter((name) => data.plots?.[name]).map((name) => [name, data.plots[name]]).map(([name, src]) => h('figure', { class: 'balance-plot' },
    h('img', { src, alt: `${titles[name] || name} (the numbers are in the table above)`, loading: 'lazy', 'data-testid': `balance-plot-${name}` }),
    h('figcaption', {}, titles[name] || name)));
  return h('section', { class: 'card', 'data-testid': 'balance' },
    h('h2', {}, 'Balance'),
    h('p', {}, `The computer (${engineName(r.engine)}) played ${g.name} against itself: ${count(games, 'game')}${when ? `, report of ${when}` : ''}, seats swapped every other game. Shares with their 95% intervals; a fair game gives the first seat a score of 50%.`),
    table,
    h('h3', {}, 'How the games ended'),
    h('ul', {}, endings),
    plots);
}

main();
