// A game's rules page, /rules/{game}: the rules text from GET /api/games/{game}.
import { h, api, errorText, games, mount, notice, markdown } from './common.js';

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
    h('tbody', {}, g.options.map((o) => h('tr', {}, h('td', {}, h('code', {}, o.name)), h('td', {}, o.default), h('td', {}, o.allowed), h('td', {}, o.help)))))) : null;
  mount(nav, h('article', { class: 'rules' }, foldTechnical(markdown(g.rules))), h('section', { class: 'card' }, h('h2', {}, 'Options in the lobby'), opts || h('p', {}, 'None.'), h('p', {}, h('a', { href: '/', class: 'button primary' }, `Play ${g.name}`))));
}

main();
