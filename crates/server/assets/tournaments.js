// Tournaments: the list and the create form (/t), and a tournament's page (/t/{id}) with its
// rounds, standings and bracket; the host's controls with the admin link (#admin=TOKEN), a
// player's own page with their link (#player=TOKEN), registration with #register=TOKEN.
// Tokens stay in the fragment (never sent in a URL) and go to the API in the Authorization header.
import { h, api, errorText, games, mount, notice, copy } from './common.js';
import { count } from './present.js';

/** A seat in words: "first seat", "second seat" (the values stay p1/p2 in forms and the API). */
const SEAT = { p1: 'first seat', p2: 'second seat' };
/** The registry's games by id, for their names (filled by each page before it draws). */
let gameList = [];
const nameOfGame = (id) => gameList.find((g) => g.id === id)?.name || 'the game';

const FORMATS = {
  swiss: 'Swiss',
  round_robin: 'Round robin',
  single_elimination: 'Single elimination',
  double_elimination: 'Double elimination',
};

// The Swiss pairing rules come with the tournament (`pairing_rules`: colosseum-tournament's
// swiss::RULES, the code's own statement); the standings' order is stated here.
const SWISS_STANDINGS = 'Standings: points, then Buchholz (the sum of the opponents\u2019 points), then Sonneborn-Berger, then head to head; players still equal share a rank (=1).';
const OTHER_RULES = {
  round_robin: ['Everyone plays everyone (twice in a double round robin, seats swapped), by the Berger tables; an odd number of players gives one bye a round.', 'Standings: points, then head to head, then Sonneborn-Berger; players still equal share a rank (=1).'],
  single_elimination: ['A bracket with byes for the top seeds when the count is not a power of two; the loser of a game is out. A drawn game goes to the player holding the advantage (more garnets).'],
  double_elimination: ['A player is out after a second loss: the winners\u2019 bracket\u2019s losers play on in the losers\u2019 bracket; the last player of each meets in the final, played again if the losers\u2019 bracket\u2019s player wins it. A drawn game goes to the player holding the advantage.'],
};

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { admin: params.get('admin'), player: params.get('player'), register: params.get('register') };
}

function formatText(f) {
  if (!f) return '';
  if (f.kind === 'swiss') return `Swiss, ${f.rounds} rounds`;
  if (f.kind === 'round_robin') return f.double ? 'Double round robin' : 'Round robin';
  return FORMATS[f.kind] || f.kind;
}

function resultText(board) {
  if (!board.result) return board.match ? 'playing' : 'starting';
  const how = board.how?.kind === 'no_show' ? ' (no-show)' : board.how?.kind === 'adjudicated' ? ` (adjudicated: ${board.how.reason})` : '';
  if (board.result === 'draw') return `draw${how}`;
  return `${board[board.result].name} won${how}`;
}

/** The code's rules name the seats p1 and p2: in words here. */
function seatWords(text) {
  return String(text).replace(/\bp([12])\b/g, (_, n) => (n === '1' ? 'the first seat' : 'the second seat'));
}

function labelled(id, label, input, hint) {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('small', { class: 'hint' }, hint) : null);
}

// ---------------------------------------------------------------- the list and the form

async function listPage() {
  const list = await games();
  gameList = list;
  const [listed, seasons] = await Promise.all([api('/api/tournaments'), api('/api/seasons')]);
  const out = h('section', { 'aria-live': 'polite' });
  const form = createForm(list, out);
  const rows = (listed.ok ? listed.data.tournaments : []).map((t) =>
    h('li', {}, h('a', { href: t.link }, t.name), ` \u2014 ${formatText(t.format)}, ${count(t.players, 'player')}, ${t.status}`));
  mount(
    h('h1', {}, 'Tournaments'),
    h('section', { class: 'card' }, h('h2', {}, 'Create a tournament'), form),
    out,
    h('section', { class: 'card' }, h('h2', {}, 'Recent tournaments'), rows.length ? h('ul', {}, rows) : h('p', { class: 'muted' }, 'None yet.')),
    seasonsCard(seasons.ok ? seasons.data.seasons : []),
  );
}

// ratings: a season keeps a roster across tournaments, with each player's rating per game.
function seasonsCard(seasons) {
  return h('section', { class: 'card', id: 'seasons' }, h('h2', {}, 'Seasons'),
    h('p', {}, 'A season keeps its players and their Glicko-2 ratings across tournaments and rated matches. ', h('a', { href: '/s' }, 'Create a season'), '; a season’s tournaments are created from its page.'),
    seasons.length ? h('ul', {}, seasons.map((s) => h('li', {}, h('a', { href: s.link }, s.name), ` — ${count(s.players, 'player')}, ${count(s.tournaments, 'tournament')}`))) : null);
}

function createForm(list, out) {
  const name = h('input', { type: 'text', maxlength: 80, required: true, value: 'Death Match Colosseum' });
  const gameBoxes = list.map((g, i) => h('label', { class: 'radio' },
    h('input', { type: 'checkbox', name: 'games', value: g.id, checked: i === 0 }), g.name));
  const pick = h('select', {}, h('option', { value: 'rotate' }, 'in turn'), h('option', { value: 'draw' }, 'drawn at random'), h('option', { value: 'host' }, 'chosen by the host each round'));
  const format = h('select', {}, Object.entries(FORMATS).map(([k, v]) => h('option', { value: k }, v)));
  const rounds = h('input', { type: 'number', min: 1, max: 63, value: 5 });
  const double = h('input', { type: 'checkbox' });
  const time = h('select', {}, h('option', { value: 'default' }, 'each game\u2019s default'), h('option', { value: 'untimed' }, 'untimed'));
  const players = h('textarea', { rows: 6, cols: 40, placeholder: 'Ann\nBo, 3 garnets\nComputer 1, bot random' });
  const registration = h('input', { type: 'checkbox' });
  const cap = h('input', { type: 'number', min: 2, max: 64, value: 16 });
  const noShow = h('input', { type: 'number', min: 0, max: 86400, value: 0 });
  const auto = h('input', { type: 'checkbox', checked: true });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create the tournament');

  const form = h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const chosen = gameBoxes.map((l) => l.querySelector('input')).filter((i) => i.checked).map((i) => ({ game: i.value }));
      if (!chosen.length) { out.replaceChildren(notice('error', 'Choose at least one game.')); return; }
      const entered = [];
      for (const line of players.value.split('\n').map((l) => l.trim()).filter(Boolean)) {
        const [n, ...rest] = line.split(',').map((x) => x.trim());
        const p = { name: n };
        for (const r of rest) {
          const g = /^(-?\d+)\s*garnets?$/i.exec(r);
          const b = /^bot\s+(\S+)$/i.exec(r);
          if (g) p.garnets = Number(g[1]);
          else if (b) p.bot = b[1];
          else { out.replaceChildren(notice('error', `\u201c${r}\u201d in \u201c${line}\u201d: write \u201cN garnets\u201d or \u201cbot LEVEL\u201d after a comma.`)); return; }
        }
        entered.push(p);
      }
      const body = { name: name.value, games: chosen, pick: pick.value, players: entered, auto_rounds: auto.checked };
      body.format = format.value === 'swiss' ? { kind: 'swiss', rounds: Number(rounds.value) }
        : format.value === 'round_robin' ? { kind: 'round_robin', double: double.checked } : { kind: format.value };
      if (time.value === 'untimed') body.time = { kind: 'untimed' };
      if (registration.checked) { body.registration = true; body.cap = Number(cap.value); }
      if (Number(noShow.value) > 0) body.no_show_s = Number(noShow.value);
      submit.disabled = true;
      const res = await api('/api/tournaments', { body });
      submit.disabled = false;
      if (!res.ok) { out.replaceChildren(notice('error', errorText(res))); return; }
      showLinks(out, res.data.links);
    },
  },
  labelled('t-name', 'Name', name),
  h('fieldset', {}, h('legend', {}, 'Games (more than one makes a Colosseum)'), gameBoxes),
  labelled('t-pick', 'Each round\u2019s game is', pick),
  labelled('t-format', 'Format', format),
  labelled('t-rounds', 'Swiss rounds', rounds),
  h('div', { class: 'field' }, h('label', { class: 'radio' }, double, ' Double round robin (seats swapped)')),
  labelled('t-time', 'Time control', time),
  labelled('t-players', 'Players, one a line', players, 'Optionally after a comma: \u201c3 garnets\u201d, or \u201cbot random\u201d for a computer player (for testing).'),
  h('div', { class: 'field' }, h('label', { class: 'radio' }, registration, ' Players may register by a link')),
  labelled('t-cap', 'At most this many players', cap),
  labelled('t-noshow', 'No-show forfeit after (seconds, 0 for never)', noShow),
  h('div', { class: 'field' }, h('label', { class: 'radio' }, auto, ' Start each round when the previous one ends')),
  submit);
  double.id = 't-double';
  registration.id = 't-registration';
  auto.id = 't-auto';
  return form;
}

function linkRow(label, path) {
  const url = new URL(path, location.origin).href;
  return h('li', {}, `${label}: `, h('a', { href: path }, url), ' ',
    h('button', { type: 'button', onclick: async (e) => { e.target.textContent = (await copy(url)) ? 'Copied' : 'Copy failed'; } }, 'Copy'));
}

function showLinks(out, links) {
  out.replaceChildren(h('div', { class: 'card' },
    h('h2', {}, 'Created'),
    notice('info', 'Keep the admin link: it is the only way to run the tournament. Give each player their own link.'),
    h('ul', { class: 'links' },
      linkRow('Admin (host)', links.admin),
      links.register ? linkRow('Registration', links.register) : null,
      linkRow('Public page', links.page),
      links.players.filter((p) => p.link).map((p) => linkRow(p.name, p.link)))));
}

// ---------------------------------------------------------------- a tournament's page

async function tournamentPage(id) {
  const f = fragment();
  const token = f.admin || f.player || null;
  const [res, list] = await Promise.all([api(`/api/tournaments/${encodeURIComponent(id)}`, { token }), games()]);
  gameList = list;
  if (!res.ok) { mount(h('h1', {}, 'Tournament'), notice('error', errorText(res))); return; }
  const t = res.data;
  const status = h('div', { 'aria-live': 'polite' });
  if (lastOutcome && Date.now() < lastOutcome.until) status.replaceChildren(...lastOutcome.nodes);
  else lastOutcome = null;
  mount(
    h('h1', {}, t.name),
    h('p', {}, `${formatText(t.format)} \u00b7 ${t.games.map((g) => nameOfGame(g.game)).join(', ')} \u00b7 ${count(t.players.length, 'player')} \u00b7 `, h('strong', { class: 'badge' }, t.status)),
    t.status === 'finished' ? winnerSection(t) : null,
    t.season ? h('p', { id: 'season' }, 'Part of the season ', h('a', { href: t.season.link }, t.season.name), ': its players’ games are rated.') : null,
    status,
    f.register && t.registration ? registerForm(id, f.register, status, t.season) : null,
    t.you ? youSection(t) : null,
    t.admin ? hostSection(t, token, status) : null,
    standingsSection(t),
    t.bracket ? bracketSection(t) : null,
    roundsSection(t),
    rulesSection(t),
  );
  clearTimeout(refresh);
  if (t.status !== 'finished') refresh = setTimeout(function again() {
    // Not while the host is typing in a form.
    const busy = (document.activeElement && document.activeElement.closest && document.activeElement.closest('form'))
      || Date.now() - hostTouched < 20000;
    if (busy) refresh = setTimeout(again, 3000); else tournamentPage(id);
  }, 3000);
}

let refresh = null;
/** The host's last successful action, kept over the page's redraws (`hostSection`). */
let lastOutcome = null;
/** When the host last changed a field of the Host panel: the page is not redrawn under them. */
let hostTouched = 0;

function registerForm(id, reg, status, season) {
  const name = h('input', { type: 'text', maxlength: 40, required: !season, autocomplete: 'nickname' });
  // A season's tournament: a roster player pastes their season link instead of a name; a
  // newcomer joins the season's roster too.
  const seasonLink = season ? h('input', { type: 'text', placeholder: '/s/…#player=…' }) : null;
  return h('section', { class: 'card' }, h('h2', {}, 'Register'),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const pasted = seasonLink && seasonLink.value.trim();
        const body = pasted ? { season_token: pasted.split('#player=').pop() } : { name: name.value };
        const res = await api(`/api/tournaments/${id}/register`, { token: reg, body });
        if (!res.ok) { status.replaceChildren(notice('error', errorText(res))); return; }
        const joined = res.data.season
          ? h('span', {}, ' You joined the season too; your season link: ', h('a', { href: res.data.season.link }, location.origin + res.data.season.link), ' (keep it).')
          : null;
        // Said over the redraws that follow (a newcomer's season link is shown only here).
        lastOutcome = { nodes: [notice('ok', h('span', {}, 'You are in. Bookmark this page: its link is your own for the whole tournament.', joined))], until: Date.now() + 10 * 60 * 1000 };
        location.hash = `player=${res.data.token}`;
        tournamentPage(id);
      },
    }, labelled('reg-name', season ? 'Your name (new to the season)' : 'Your name', name),
    seasonLink ? labelled('reg-season', 'Or, on the season\u2019s roster: your season link', seasonLink) : null,
    h('button', { type: 'submit', class: 'primary' }, 'Register')));
}

function youSection(t) {
  const c = t.you.current;
  let body;
  if (!c) body = h('p', {}, t.status === 'finished' ? 'The tournament is over.' : 'No match for you now.');
  else if (c.bye) body = h('p', {}, `Round ${c.round + 1}: you have a bye (a point).`);
  else if (c.result) body = h('p', {}, `Round ${c.round + 1} against ${c.opponent}: ${c.result === 'draw' ? 'a draw' : (c.result === c.seat ? 'you won' : 'you lost')}. `, c.link ? h('a', { href: c.link }, 'Replay') : null);
  else body = h('p', {}, `Round ${c.round + 1}: you play ${c.opponent}, from the ${SEAT[c.seat] || 'seat you are given'}. `, c.link ? h('a', { href: c.link, class: 'button primary' }, 'Go to your table') : 'The table is being set.');
  const played = (t.you.games || []).filter((g) => g.result);
  const list = played.length ? h('ul', { class: 'your-games' }, played.map((g) => h('li', {},
    `Round ${g.round + 1} v ${g.opponent}: ${g.result === 'draw' ? 'a draw' : `you ${g.result}`} `,
    g.match ? h('a', { href: `/replay/${g.match}` }, 'replay') : null))) : null;
  return h('section', { class: 'card', id: 'you' }, h('h2', {}, `Your page, ${t.you.name}`), body,
    list ? h('h3', {}, 'Your games') : null, list);
}

// ratings: a season's tournament shows each roster player's rating in its (first) game.
function ratingCell(t, player) {
  if (!t.season) return null;
  const r = t.players[player].ratings?.[t.games[0].game];
  return h('td', { 'data-label': 'Rating' }, r ? `${Math.round(r.rating)} \u00b1${Math.round(r.deviation)}` : '\u2014');
}

function standingsSection(t) {
  // Each cell carries its column's name: on a phone the table reads as one card a player.
  const c = (label, text) => h('td', { 'data-label': label }, text);
  // Only the format's own tie-breaks (a round robin has no Buchholz; a bracket none); a
  // shared rank reads "=1"; a replaced player keeps their line, marked.
  const BREAKS = { buchholz: 'Buchholz', sonneborn_berger: 'Sonneborn-Berger' };
  const breaks = (t.tie_breaks || ['buchholz', 'sonneborn_berger']).filter((k) => BREAKS[k]);
  const rows = t.standings.map((s) => h('tr', {},
    c('Rank', s.rank_label || s.rank), h('th', { scope: 'row' }, s.replaced_by ? `${s.name} (replaced by ${s.replaced_by})` : s.name), c('Points', s.points),
    ...breaks.map((k) => c(BREAKS[k], s[k])),
    c('W/D/L', `${s.wins}/${s.draws}/${s.losses}`), c('Byes', s.byes), c('Garnets', s.garnets ?? t.players[s.player].garnets),
    t.bracket ? c('Out', s.out_in_round ? `round ${s.out_in_round}` : (s.replaced_by ? '\u2014' : 'in')) : null,
    s.replaced_by && t.season ? h('td', { 'data-label': 'Rating' }, '\u2014') : ratingCell(t, s.player)));
  return h('section', { class: 'card', id: 'standings' },
    h('h2', {}, 'Standings'),
    h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Standings table' }, h('table', { class: 'standings stack-phone' },
      h('caption', { class: 'muted' }, 'Points, then the format\u2019s tie-breaks'),
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Points', ...breaks.map((k) => BREAKS[k]), 'W/D/L', 'Byes', 'Garnets'].map((x) => h('th', { scope: 'col' }, x)), t.bracket ? h('th', { scope: 'col' }, 'Out') : null, t.season ? h('th', { scope: 'col' }, 'Rating') : null)),
      h('tbody', {}, rows))),
    h('p', {}, 'Export: ', h('a', { href: `/api/tournaments/${t.id}/standings.csv` }, 'CSV'), ' \u00b7 ', h('a', { href: `/api/tournaments/${t.id}/standings.json` }, 'JSON')));
}

function boardLine(b) {
  return h('li', {}, `${b.p1.name} v ${b.p2.name}: ${resultText(b)} `, b.link ? h('a', { href: b.link, 'aria-label': `${b.p1.name} v ${b.p2.name}: ${b.result ? 'replay' : 'watch'}` }, b.result ? 'replay' : 'watch') : null);
}

/** A finished tournament leads with its winner (the first of the final standings; players
 *  tied first are all named) and the final standing. */
function winnerSection(t) {
  const top = t.standings.filter((s) => s.rank === t.standings[0]?.rank);
  if (!top.length) return null;
  const line = (s) => `${s.name}: ${count(s.points, 'point')} (${count(s.wins, 'win')}, ${count(s.draws, 'draw')}, ${count(s.losses, 'loss', 'losses')})`;
  return h('section', { class: 'card winner', id: 'winner', 'aria-labelledby': 'winner-title' },
    h('h2', { id: 'winner-title', class: 'winner-head' }, `${top.length > 1 ? 'Winners' : 'Winner'}: ${top.map((s) => s.name).join(' and ')}`),
    h('p', {}, 'The tournament is over. The final standing:'),
    h('ol', { class: 'final-standing' }, t.standings.slice(0, 8).map((s) => h('li', { value: s.rank }, line(s)))));
}

function bracketSection(t) {
  const names = { main: 'Bracket', winners: 'Winners\u2019 bracket', losers: 'Losers\u2019 bracket', final: 'Final' };
  return h('section', { class: 'card', id: 'bracket' }, h('h2', {}, 'Bracket'),
    t.bracket.map((part) => {
      const byRound = new Map();
      for (const g of part.games) { if (!byRound.has(g.round)) byRound.set(g.round, []); byRound.get(g.round).push(g); }
      return h('div', { class: 'bracket-part' }, h('h3', {}, names[part.bracket] || part.bracket),
        h('div', { class: 'bracket', tabindex: '0' }, [...byRound.entries()].map(([r, gs]) => h('div', { class: 'bracket-round' },
          h('h4', {}, `Round ${r + 1}`),
          h('ol', {}, gs.map((g) => h('li', { class: 'bracket-game' },
            h('span', { class: g.result === 'p1' ? 'won' : '' }, g.p1.name), ' v ', h('span', { class: g.result === 'p2' ? 'won' : '' }, g.p2.name),
            g.link ? [' ', h('a', { href: g.link, 'aria-label': `${g.p1.name} v ${g.p2.name}: ${g.result ? 'replay' : 'watch'}` }, g.result ? 'replay' : 'watch')] : null)))))));
    }));
}

function roundsSection(t) {
  return h('section', { class: 'card', id: 'rounds' }, h('h2', {}, 'Rounds'),
    t.rounds.length ? t.rounds.map((r) => h('div', { class: 'round' },
      h('h3', {}, `Round ${r.round + 1}: ${nameOfGame(r.game)}${r.complete ? '' : ' (playing)'}`),
      h('ul', {}, r.boards.map(boardLine)),
      r.byes.length ? h('p', {}, `Bye: ${r.byes.join(', ')}`) : null,
      r.waiting.length ? h('p', { class: 'muted' }, `Waiting: ${r.waiting.join(', ')}`) : null)).reverse()
      : h('p', { class: 'muted' }, t.status === 'registering' ? 'Registration is open; the host starts the tournament.' : 'The first round is being paired.'));
}

function rulesSection(t) {
  const swiss = t.format.kind === 'swiss';
  const rules = swiss ? [SWISS_STANDINGS] : OTHER_RULES[t.format.kind] || [];
  // The Swiss rules refer to each other by number ("rule 3"): an ordered list.
  return h('section', { class: 'card', id: 'rules' }, h('h2', {}, 'How pairing works'),
    swiss ? h('p', {}, 'Swiss rounds are paired by the FIDE (Dutch) System:') : null,
    swiss ? h('ol', { class: 'pairing-rules' }, (t.pairing_rules || []).map((r) => h('li', {}, seatWords(r)))) : null,
    h('ul', {}, rules.map((r) => h('li', {}, r)),
      h('li', {}, 'In each game the player with more garnets holds the game\u2019s DM advantage (equal garnets: the player in the first seat).')));
}

function hostSection(t, token, status) {
  const act = async (action, body) => {
    status.replaceChildren();
    lastOutcome = null;
    const res = await api(`/api/tournaments/${t.id}/${action}`, { token, body: body || {} });
    if (!res.ok) { status.replaceChildren(notice('error', errorText(res))); return; }
    // The page is drawn again with the new state, and says what the host just did (for a while,
    // over the periodic redraws): the notice appears once the page is up to date.
    const said = [notice('ok', 'Done.')];
    if (res.data.link) said.push(h('p', {}, 'The new player\u2019s link: ', h('a', { href: res.data.link }, res.data.link)));
    lastOutcome = { nodes: said, until: Date.now() + 15000 };
    hostTouched = 0;
    await tournamentPage(t.id);
  };
  const playerSel = (id) => { const s = h('select', {}, t.players.map((p) => h('option', { value: p.player }, p.name))); s.id = id; return s; };
  const last = t.rounds.length ? t.rounds[t.rounds.length - 1] : null;
  const boardSel = (id) => { const s = h('select', {}, (last ? last.boards : []).map((b) => h('option', { value: b.board }, `${b.p1.name} v ${b.p2.name}`))); s.id = id; return s; };
  const gameSel = h('select', {}, h('option', { value: '' }, 'as set'), t.games.map((g) => h('option', { value: g.game }, nameOfGame(g.game))));
  const gPlayer = playerSel('h-g-player');
  const garnets = h('input', { type: 'number', value: 0 });
  const aBoard = boardSel('h-a-board');
  // The result and the seat are chosen by the players' names of the chosen game (the values
  // stay p1/p2).
  const boardOf = (sel) => (last ? last.boards.find((b) => String(b.board) === sel.value) || last.boards[0] : null);
  const aResult = h('select', {}, h('option', { value: 'p1' }, 'the first seat wins'), h('option', { value: 'p2' }, 'the second seat wins'), t.bracket ? null : h('option', { value: 'draw' }, 'a draw'));
  const reason = h('input', { type: 'text', maxlength: 200 });
  const uBoard = boardSel('h-u-board');
  const rPlayer = playerSel('h-r-player');
  const rName = h('input', { type: 'text', maxlength: 40 });
  const round = last ? last.round : 0;
  const pBoard = boardSel('h-p-board');
  const pAction = h('select', {}, h('option', { value: 'pause' }, 'pause the match'), h('option', { value: 'resume' }, 'resume the match'), h('option', { value: 'give_time' }, 'give a seat time'));
  const pSeat = h('select', {}, h('option', { value: 'p1' }, 'first seat'), h('option', { value: 'p2' }, 'second seat'));
  const named = () => {
    const a = boardOf(aBoard);
    if (a) { aResult.options[0].textContent = `${a.p1.name} wins`; aResult.options[1].textContent = `${a.p2.name} wins`; }
    const p = boardOf(pBoard);
    if (p) { pSeat.options[0].textContent = p.p1.name; pSeat.options[1].textContent = p.p2.name; }
  };
  aBoard.addEventListener('change', named);
  pBoard.addEventListener('change', named);
  named();
  // Host controls only while the tournament runs: once it is over, the links and the log.
  const running = t.status !== 'finished';
  const pSeconds = h('input', { type: 'number', min: 1, max: 86400, value: 60 });
  const touched = () => { hostTouched = Date.now(); };
  return h('section', { class: 'card', id: 'host', oninput: touched, onchange: touched }, h('h2', {}, 'Host'),
    running ? null : h('p', { class: 'hint' }, 'The tournament is over: there is nothing left to start, adjudicate or pause. The players\u2019 links and the log stay here.'),
    t.status !== 'finished' ? h('form', { onsubmit: (e) => { e.preventDefault(); act('start', gameSel.value ? { game: { game: gameSel.value } } : {}); } },
      labelled('h-game', 'Game of the next round', gameSel), h('button', { type: 'submit', class: 'primary' }, t.status === 'registering' ? 'Start the tournament' : 'Start the next round')) : null,
    running ? h('form', { onsubmit: (e) => { e.preventDefault(); act('garnets', { player: Number(gPlayer.value), garnets: Number(garnets.value) }); } },
      h('h3', {}, 'Garnets'), labelled('h-g-player', 'Player', gPlayer), labelled('h-garnets', 'Garnets', garnets), h('button', { type: 'submit' }, 'Set garnets')) : null,
    running && last ? h('form', { onsubmit: (e) => { e.preventDefault(); act('adjudicate', { round, board: Number(aBoard.value), result: aResult.value, reason: reason.value }); } },
      h('h3', {}, 'Adjudicate a game of this round'), labelled('h-a-board', 'Game', aBoard), labelled('h-a-result', 'Result', aResult), labelled('h-a-reason', 'Reason (logged)', reason), h('button', { type: 'submit' }, 'Adjudicate')) : null,
    running && last ? h('form', { onsubmit: (e) => { e.preventDefault(); act('undo_forfeit', { round, board: Number(uBoard.value) }); } },
      h('h3', {}, 'Undo a no-show forfeit'), labelled('h-u-board', 'Game', uBoard), h('button', { type: 'submit' }, 'Undo the forfeit')) : null,
    running && last ? h('form', { onsubmit: (e) => {
      e.preventDefault();
      const body = { round, board: Number(pBoard.value) };
      if (pAction.value === 'give_time') Object.assign(body, { seat: pSeat.value, seconds: Number(pSeconds.value) });
      act(pAction.value, body);
    } },
    h('h3', {}, 'Pause, resume or give time'), labelled('h-p-board', 'Game', pBoard), labelled('h-p-action', 'Action', pAction),
    labelled('h-p-seat', 'Player (for time)', pSeat), labelled('h-p-seconds', 'Seconds (for time)', pSeconds),
    h('button', { type: 'submit' }, 'Apply')) : null,
    running ? h('form', { onsubmit: (e) => { e.preventDefault(); act('replace', { player: Number(rPlayer.value), name: rName.value }); } },
      h('h3', {}, 'Replace a player who dropped out'), labelled('h-r-player', 'Player', rPlayer), labelled('h-r-name', 'New player\u2019s name', rName), h('button', { type: 'submit' }, 'Replace')) : null,
    h('details', {}, h('summary', {}, 'Links'), h('ul', { class: 'links' },
      t.links.register ? linkRow('Registration', t.links.register) : null,
      t.links.players.filter((p) => p.link).map((p) => linkRow(p.name, p.link)))),
    h('details', {}, h('summary', {}, `Log (${count(t.log.length, 'event')})`), h('ol', { class: 'log', tabindex: '0' }, t.log.map((e) => h('li', {}, `${new Date(e.at).toLocaleTimeString()} ${e.type.replace(/_/g, ' ')}${e.how?.reason ? `: ${e.how.reason}` : ''}${e.type === 'replaced' ? `: ${e.was} by ${e.by?.name}, from the next game` : ''}${e.type === 'round_withdrawn' ? `: round ${e.round + 1}, to be paired again` : ''}`)))));
}

const path = location.pathname.replace(/\/+$/, '');
const m = /^\/t\/([A-Za-z0-9]+)$/.exec(path);
if (m) tournamentPage(m[1]); else listPage();
window.addEventListener('hashchange', () => { if (m) tournamentPage(m[1]); });
