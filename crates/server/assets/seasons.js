// Seasons: the list and the create form (/s), and a season's page (/s/{id}): the roster, each
// game's Glicko-2 ratings, its tournaments and rated matches. With the host's link
// (#admin=TOKEN): add players, create a tournament of the season, every player's link. With a
// player's link (#player=TOKEN): their rated matches (with their seat) and a form to start one.
// Tokens stay in the fragment and go to the API in the Authorization header.
import { h, api, errorText, games, mount, notice, copy } from './common.js';
import { count } from './present.js';

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { admin: params.get('admin'), player: params.get('player') };
}

function labelled(id, label, input, hint) {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('small', { class: 'hint' }, hint) : null);
}

function linkRow(label, path) {
  const url = new URL(path, location.origin).href;
  return h('li', {}, `${label}: `, h('a', { href: path }, url), ' ',
    h('button', { type: 'button', onclick: async (e) => { e.target.textContent = (await copy(url)) ? 'Copied' : 'Copy failed'; } }, 'Copy'));
}

function lines(text) {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

// ---------------------------------------------------------------- the list and the form

async function listPage() {
  const listed = await api('/api/seasons');
  const out = h('section', { 'aria-live': 'polite' });
  const name = h('input', { type: 'text', maxlength: 80, required: true, value: 'Season 1' });
  const players = h('textarea', { rows: 6, cols: 40, placeholder: 'Ann\nBo\nCy' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create the season');
  const form = h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      submit.disabled = true;
      const res = await api('/api/seasons', { body: { name: name.value, players: lines(players.value) } });
      submit.disabled = false;
      if (!res.ok) { out.replaceChildren(notice('error', errorText(res))); return; }
      const l = res.data.links;
      out.replaceChildren(h('div', { class: 'card' }, h('h2', {}, 'Created'),
        notice('info', 'Keep the admin link: it is the only way to add players and create the season\u2019s tournaments. Give each player their own link: it is who they are all season.'),
        h('ul', { class: 'links' }, linkRow('Admin (host)', l.admin), linkRow('Public page', l.page),
          l.players.map((p) => linkRow(p.name, p.link)))));
    },
  }, labelled('s-name', 'Name', name), labelled('s-players', 'Players, one a line', players, 'More can be added later from the season\u2019s page.'), submit);
  const rows = (listed.ok ? listed.data.seasons : []).map((s) =>
    h('li', {}, h('a', { href: s.link }, s.name), ` \u2014 ${count(s.players, 'player')}, ${count(s.tournaments, 'tournament')}`));
  mount(
    h('h1', {}, 'Seasons'),
    h('p', {}, 'A season keeps a roster of players across tournaments and rated matches, and each player\u2019s Glicko-2 rating in each game. ', h('a', { href: '/t' }, 'Tournaments')),
    h('section', { class: 'card' }, h('h2', {}, 'Create a season'), form),
    out,
    h('section', { class: 'card' }, h('h2', {}, 'Recent seasons'), rows.length ? h('ul', {}, rows) : h('p', { class: 'muted' }, 'None yet.')),
  );
}

// ---------------------------------------------------------------- a season's page

let refresh = null;

async function seasonPage(id) {
  const f = fragment();
  const token = f.admin || f.player || null;
  const [res, list] = await Promise.all([api(`/api/seasons/${encodeURIComponent(id)}`, { token }), games()]);
  if (!res.ok) { mount(h('h1', {}, 'Season'), notice('error', errorText(res))); return; }
  const s = res.data;
  const gameName = (g) => list.find((x) => x.id === g)?.name || g;
  const status = h('div', { 'aria-live': 'polite' });
  mount(
    h('h1', {}, s.name),
    h('p', {}, `Season \u00b7 ${count(s.players.length, 'player')} \u00b7 ${count(s.tournaments.length, 'tournament')} \u00b7 ${count(s.matches.length, 'rated match', 'rated matches')} \u00b7 `, h('a', { href: '/s' }, 'all seasons')),
    status,
    s.you ? youSection(s, token, status, list, gameName) : null,
    s.admin ? hostSection(s, token, status, list) : null,
    ratingsSection(s, gameName),
    rosterSection(s),
    tournamentsSection(s, gameName),
    matchesSection(s, gameName),
  );
  clearTimeout(refresh);
  refresh = setTimeout(function again() {
    const busy = document.activeElement && document.activeElement.closest && document.activeElement.closest('form');
    if (busy) refresh = setTimeout(again, 5000); else seasonPage(id);
  }, 5000);
}

function ratingsSection(s, gameName) {
  const tables = Object.entries(s.ratings).map(([game, rows]) => h('div', { class: 'ratings-game table-scroll', tabindex: '0', role: 'region', 'aria-label': `${gameName(game)} ratings` },
    h('table', { class: 'standings ratings' },
      h('caption', {}, gameName(game)),
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', 'RD', 'Games', 'W/D/L'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((r) => h('tr', {},
        h('td', { 'data-label': 'Rank' }, r.rank), h('th', { scope: 'row' }, r.name), h('td', { 'data-label': 'Rating' }, r.rating.toFixed(1)), h('td', { 'data-label': 'RD' }, r.deviation.toFixed(1)),
        h('td', { 'data-label': 'Games' }, r.games), h('td', { 'data-label': 'W/D/L' }, `${r.wins}/${r.draws}/${r.losses}`)))))));
  return h('section', { class: 'card', id: 'ratings' }, h('h2', {}, 'Ratings'),
    tables.length ? tables : h('p', { class: 'muted' }, 'No rated game yet: ratings start when a game of the season\u2019s tournaments or a rated match ends.'),
    h('p', { class: 'hint' }, 'Glicko-2, one rating per game. Everyone starts at 1500 with a deviation (RD) of 350; each rated game moves both players at once. A high RD means the rating is still uncertain.'));
}

function rosterSection(s) {
  return h('section', { class: 'card', id: 'roster' }, h('h2', {}, 'Roster'),
    h('ol', { start: 0, class: 'roster' }, s.players.map((p) => h('li', {}, p.name))),
    h('p', { class: 'hint' }, 'Each player\u2019s number is their id in the season (for the API\u2019s season_player).'));
}

function tournamentsSection(s, gameName) {
  return h('section', { class: 'card', id: 'season-tournaments' }, h('h2', {}, 'Tournaments'),
    s.tournaments.length ? h('ul', {}, s.tournaments.map((t) => h('li', {}, h('a', { href: t.link }, t.name),
      t.status ? ` \u2014 ${(t.games || []).map((g) => gameName(g.game)).join(', ')}, ${t.status}` : null)))
      : h('p', { class: 'muted' }, 'None yet.'));
}

function matchesSection(s, gameName) {
  return h('section', { class: 'card', id: 'rated-matches' }, h('h2', {}, 'Rated matches'),
    s.matches.length ? h('ul', {}, s.matches.slice().reverse().map((m) => h('li', {},
      `${gameName(m.game)}: ${m.p1.name} v ${m.p2.name}: ${m.result === 'p1' ? `${m.p1.name} won` : m.result === 'p2' ? `${m.p2.name} won` : m.result === 'draw' ? 'a draw' : m.result || 'playing'} `,
      h('a', { href: m.link }, m.result ? 'replay' : 'watch'))))
      : h('p', { class: 'muted' }, 'None yet.'));
}

function youSection(s, token, status, list, gameName) {
  const game = h('select', {}, list.map((g) => h('option', { value: g.id }, g.name)));
  const opponent = h('select', {}, s.players.filter((p) => p.player !== s.you.player).map((p) => h('option', { value: p.player }, p.name)));
  const seat = h('select', {}, h('option', { value: 'p1' }, 'the first seat (moves first where it matters)'), h('option', { value: 'p2' }, 'the second seat'));
  const mine = s.you.matches.slice().reverse();
  return h('section', { class: 'card', id: 'you' }, h('h2', {}, `Your page, ${s.you.name}`),
    mine.length ? h('ul', { class: 'your-games' }, mine.map((m) => h('li', {},
      `${gameName(m.game)} v ${m.opponent}: ${m.result ? (m.result === 'draw' ? 'a draw' : m.result === m.seat ? 'you won' : (m.result === 'p1' || m.result === 'p2') ? 'you lost' : m.result) : 'playing'} `,
      h('a', { href: m.link, class: m.result ? '' : 'button primary' }, m.result ? 'replay' : 'Go to your table'))))
      : h('p', { class: 'muted' }, 'No rated match yet.'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const res = await api(`/api/seasons/${s.id}/matches`, { token, body: { game: game.value, opponent: Number(opponent.value), seat: seat.value } });
        if (!res.ok) { status.replaceChildren(notice('error', errorText(res))); return; }
        location.href = res.data.link;
      },
    }, h('h3', {}, 'Play a rated match'),
    labelled('r-game', 'Game', game), labelled('r-opponent', 'Opponent', opponent), labelled('r-seat', 'Your seat', seat),
    h('p', { class: 'hint' }, 'Your opponent finds their seat on their own season page.'),
    h('button', { type: 'submit', class: 'primary' }, 'Start the rated match')));
}

function hostSection(s, token, status, list) {
  const names = h('textarea', { rows: 3, cols: 30, placeholder: 'Dee\nEve' });
  const tName = h('input', { type: 'text', maxlength: 80, value: `${s.name}, tournament ${s.tournaments.length + 1}` });
  const tGame = h('select', {}, list.map((g) => h('option', { value: g.id }, g.name)));
  const tFormat = h('select', {}, h('option', { value: 'swiss' }, 'Swiss'), h('option', { value: 'round_robin' }, 'Round robin'),
    h('option', { value: 'single_elimination' }, 'Single elimination'), h('option', { value: 'double_elimination' }, 'Double elimination'));
  const tRounds = h('input', { type: 'number', min: 1, max: 63, value: 3 });
  const boxes = s.players.map((p) => h('label', { class: 'radio' }, h('input', { type: 'checkbox', value: p.player, checked: true }), p.name));
  const tRegistration = h('input', { type: 'checkbox' });
  const tCap = h('input', { type: 'number', min: 2, max: 64, value: 16 });
  return h('section', { class: 'card', id: 'host' }, h('h2', {}, 'Host'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const res = await api(`/api/seasons/${s.id}/players`, { token, body: { names: lines(names.value) } });
        if (!res.ok) { status.replaceChildren(notice('error', errorText(res))); return; }
        status.replaceChildren(notice('ok', `Added ${res.data.players.map((p) => p.name).join(', ')}. Their links are under Links.`));
        names.value = '';
        seasonPage(s.id);
      },
    }, h('h3', {}, 'Add players'), labelled('h-names', 'Names, one a line', names), h('button', { type: 'submit' }, 'Add to the roster')),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const players = boxes.map((l) => l.querySelector('input')).filter((i) => i.checked).map((i) => ({ season_player: Number(i.value) }));
        const format = tFormat.value === 'swiss' ? { kind: 'swiss', rounds: Number(tRounds.value) } : { kind: tFormat.value };
        const body = { name: tName.value, game: tGame.value, format, players, season: s.id };
        if (tRegistration.checked) Object.assign(body, { registration: true, cap: Number(tCap.value) });
        const res = await api('/api/tournaments', { token, body });
        if (!res.ok) { status.replaceChildren(notice('error', errorText(res))); return; }
        const l = res.data.links;
        status.replaceChildren(h('div', { class: 'card' }, h('h3', {}, 'Tournament created'),
          notice('info', 'Keep the tournament\u2019s admin link to run it; each player has their own tournament link.'),
          h('ul', { class: 'links' }, linkRow('Admin (host)', l.admin), linkRow('Public page', l.page), l.register ? linkRow('Registration', l.register) : null,
            l.players.filter((p) => p.link).map((p) => linkRow(p.name, p.link)))));
      },
    }, h('h3', {}, 'New tournament of this season'),
    labelled('h-t-name', 'Name', tName), labelled('h-t-game', 'Game', tGame), labelled('h-t-format', 'Format', tFormat), labelled('h-t-rounds', 'Swiss rounds', tRounds),
    h('fieldset', {}, h('legend', {}, 'Players from the roster'), boxes),
    h('div', { class: 'field' }, h('label', { class: 'radio' }, tRegistration, ' Players may register by a link (newcomers join the roster)')),
    labelled('h-t-cap', 'Most players', tCap),
    h('button', { type: 'submit', class: 'primary' }, 'Create the tournament')),
    h('details', {}, h('summary', {}, 'Links'), h('ul', { class: 'links' }, linkRow('Admin (host)', s.links.admin),
      s.links.players.map((p) => linkRow(p.name, p.link)))));
}

const path = location.pathname.replace(/\/+$/, '');
const m = /^\/s\/([A-Za-z0-9]+)$/.exec(path);
if (m) seasonPage(m[1]); else listPage();
window.addEventListener('hashchange', () => { if (m) seasonPage(m[1]); });
