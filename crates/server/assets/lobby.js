// The lobby: create a match (against a friend or a bot), copy its links, list matches.
import { h, api, errorText, games, mount, notice } from './common.js';
import { botLabel, orderedLevels, friendlyError, plain, raceName, seatName, seatsToNames, seatsInWords, singular, other } from './present.js';
import { loadGame } from './boards.js';

const MINE = 'colosseum.mine';

// Option names in words come from each game's module (`optionLabels`); the API's names (the
// notation's) show as they are otherwise.

function remember(entry) {
  const list = JSON.parse(localStorage.getItem(MINE) || '[]').filter((e) => e.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(MINE, JSON.stringify(list.slice(0, 20)));
}

function seatText(seat) {
  if (!seat) return 'a seat';
  if (seat.player?.kind === 'bot') return botLabel(seat.player.level).replace(/ \(.*\)$/, '');
  return seat.name || (seat.joined ? 'a player' : 'open seat');
}

/** A finished match's reason with its players' names for the seat ids. */
function reasonText(m) {
  return singular(seatsToNames(plain(m.result.reason), { p1: seatText(m.seats.p1), p2: seatText(m.seats.p2) }));
}

async function main() {
  const list = await games();
  if (!list.length) {
    mount(notice('error', 'The server did not list any game; is it running?'));
    return;
  }
  // Each game's browser module: its option labels and its live races, if any.
  const modules = Object.fromEntries(await Promise.all(list.map(async (g) => [g.id, await loadGame(g.id)])));
  const gameSel = h('select', { id: 'game', name: 'game' }, list.map((g) => h('option', { value: g.id }, g.name)));
  const optionsBox = h('div', { class: 'options' });
  const summary = h('p', { class: 'summary' });
  // Choosing a level chooses the computer as the opponent.
  const levelSel = h('select', { id: 'level', name: 'level', 'aria-label': 'the computer\u2019s level', onchange: () => { form.querySelector('input[name=opponent][value=bot]').checked = true; showTrivia(); } });
  const opp = (v, label, checked, extra) => h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'opponent', value: v, checked, ...extra }), label);
  const seatSel = h('select', { id: 'seat', name: 'seat' }, h('option', { value: 'p1' }, 'the first seat (moves first where it matters)'), h('option', { value: 'p2' }, 'the second seat'));
  // The clock in force is on the form itself (not under Advanced options): against the computer
  // it is "No clock" until the player chooses one (the lobby sends `{"kind": "untimed"}`);
  // against a friend, the game's default, named with its seconds.
  const defaultOpt = h('option', { value: 'default' }, 'the game\u2019s default');
  const timeSel = h('select', { id: 'time', name: 'time' },
    h('option', { value: 'untimed', selected: true }, 'No clock'),
    defaultOpt,
    h('option', { value: 'custom' }, 'my own: seconds a decision'));
  const seconds = h('input', { id: 'seconds', type: 'number', min: 5, max: 86400, value: 60, disabled: true, hidden: true, 'aria-label': 'seconds a decision' });
  const timeInfo = h('p', { class: 'hint', id: 'time-info' });
  // Set once the player picks a clock themselves; until then it follows the opponent.
  let timeChosen = false;
  const sealedIn = h('input', { id: 'sealed', type: 'checkbox', name: 'sealed' });
  const nameIn = h('input', { id: 'name', type: 'text', maxlength: 40, value: localStorage.getItem('colosseum.name') || '', placeholder: 'your name', autocomplete: 'nickname' });
  const rulesLink = h('a', { href: '#' }, 'rules');
  const result = h('section', { id: 'created', 'aria-live': 'polite' });

  function describeTime(tc) {
    if (!tc || tc.kind === 'untimed') return 'no clock';
    let t = `${tc.per_decision_ms / 1000} s a decision`;
    if (tc.per_kind_ms) t += ` (${Object.entries(tc.per_kind_ms).map(([k, v]) => `${k} ${v / 1000} s`).join(', ')})`;
    if (tc.bank_ms) t += `, a ${tc.bank_ms / 60000}-minute bank`;
    return t;
  }

  function showGame() {
    const g = list.find((x) => x.id === gameSel.value);
    summary.textContent = plain(g.summary);
    rulesLink.href = `/rules/${g.id}`;
    rulesLink.textContent = `${g.name} rules`;
    optionsBox.replaceChildren(...g.options.map((o) => {
      // An option with two named values ("simulated or live") is a choice; others are typed.
      const two = /^([\w-]+) or ([\w-]+)$/.exec(o.allowed);
      const inputId = `opt-${o.name}`;
      const help = seatsInWords(plain(o.help));
      // A long default (a whole board) is not shown in the box: it would look like a command.
      const shortDefault = String(o.default).length <= 24 ? String(o.default) : 'the standard one';
      const input = two
        ? h('select', { id: inputId, name: inputId, 'data-option': o.name, onchange: showTrivia },
          h('option', { value: '' }, `${o.default} (default)`),
          [two[1], two[2]].filter((v) => v !== o.default).map((v) => h('option', { value: v }, v)))
        : h('input', { id: inputId, type: 'text', name: inputId, 'data-option': o.name, placeholder: shortDefault, 'aria-describedby': `${inputId}-help` });
      return h('div', { class: 'option' }, h('label', { for: inputId }, modules[g.id]?.optionLabels?.[o.name] || o.name.replace(/_/g, ' ')), input,
        h('small', { id: `${inputId}-help` }, `${help}; default: ${shortDefault}`));
    }));
    const levels = orderedLevels(g.bots);
    levelSel.replaceChildren(...levels.map((b) => h('option', { value: b }, botLabel(b))));
    const d = describeTime(g.time_control);
    defaultOpt.textContent = `${d[0].toUpperCase()}${d.slice(1)} (the game\u2019s default)`;
    showTrivia();
    syncClock();
  }

  /** The clock follows the opponent until the player chooses one: none against the computer,
   *  the game's default against a friend. */
  function syncClock() {
    const opponent = document.querySelector('input[name=opponent]:checked')?.value;
    if (!timeChosen) timeSel.value = opponent === 'bot' ? 'untimed' : 'default';
    seconds.disabled = seconds.hidden = timeSel.value !== 'custom';
    timeInfo.textContent = opponent === 'bot' && timeSel.value === 'untimed'
      ? 'Against the computer there is no clock unless you choose one: take your time.'
      : timeSel.value === 'untimed' ? 'Nobody is timed.' : 'A move not made in time is played for you.';
  }

  // A game with live races (its module's `races.runs(options)`): the question bank, and how a
  // bot opponent answers.
  const bankSel = h('select', { id: 'trivia-bank', name: 'trivia-bank' },
    h('option', { value: 'sample' }, 'the sample bank (the rules of the six games)'),
    h('option', { value: 'toml' }, 'my own questions (TOML)'));
  const bankToml = h('textarea', { id: 'trivia-toml', rows: 6, spellcheck: 'false', 'aria-label': 'question bank in TOML',
    placeholder: '[[question]]\nid = "q1"\nquestion = "..."\nanswers = ["..."]\ncategory = "free"' });
  const num = (id, label, placeholder, unit, attrs = {}) => h('label', { class: 'option' }, h('span', {}, label),
    h('input', { id, type: 'number', min: 0, step: 'any', placeholder, ...attrs }), h('small', {}, unit));
  const botHint = h('p', { class: 'hint' });
  const botBox = h('div', { id: 'race-bot' },
    botHint,
    num('race-accuracy', 'accuracy', '60', 'percent of its answers that are right', { max: 100 }),
    num('race-mean', 'mean time', '25', 'seconds, on average'),
    num('race-min', 'fastest', '8', 'seconds at the least'),
    num('race-max', 'slowest', '60', 'seconds at the most'));
  const triviaLegend = h('legend', {});
  const triviaBox = h('fieldset', { id: 'trivia', hidden: true }, triviaLegend,
    h('div', { class: 'field' }, h('label', { for: 'trivia-bank' }, 'Questions'), bankSel), bankToml, botBox);
  function showTrivia() {
    const game = modules[gameSel.value] || {};
    const chosen = {};
    for (const inp of optionsBox.querySelectorAll('[data-option]')) chosen[inp.dataset.option] = inp.value;
    const live = !!game.races?.runs(chosen);
    triviaBox.hidden = !live;
    const race = raceName(game);
    triviaLegend.textContent = `The live ${race}`;
    botHint.textContent = `How the bot answers the ${race}\u2019s questions (blank = the server\u2019s default):`;
    // social: the options that decide simulated races only (the module's `races.simulatedOnly`);
    // live races are decided by the players' answers, so they are hidden (and sent blank) then.
    for (const n of game.races?.simulatedOnly || []) {
      const inp = optionsBox.querySelector(`[data-option=${n}]`);
      if (!inp) continue;
      inp.closest('.option').hidden = live;
      if (live) inp.value = '';
    }
    bankToml.hidden = bankSel.value !== 'toml';
    const opponent = document.querySelector('input[name=opponent]:checked')?.value;
    botBox.hidden = opponent !== 'bot';
  }
  bankSel.addEventListener('change', showTrivia);
  /** The race_bot setting from the form: null when all blank; an error text when unreadable. */
  function raceBot() {
    const read = (id) => { const v = document.getElementById(id).value.trim(); return v === '' ? null : Number(v); };
    const acc = read('race-accuracy');
    let mean = read('race-mean');
    let min = read('race-min');
    let max = read('race-max');
    if ([acc, mean, min, max].every((v) => v === null)) return null;
    if ([acc, mean, min, max].some((v) => v !== null && !(v >= 0))) return 'the bot\u2019s accuracy and times must be numbers, 0 or more';
    if (acc !== null && acc > 100) return 'the bot\u2019s accuracy is a percentage, at most 100';
    const ms = (x) => Math.round(x * 1000);
    mean = mean === null ? null : ms(mean);
    min = min === null ? null : ms(min);
    max = max === null ? null : ms(max);
    if (mean === null) mean = Math.min(Math.max(25000, min ?? 0), max ?? Infinity);
    if (min === null) min = Math.min(8000, mean);
    if (max === null) max = Math.max(60000, mean);
    if (!(min <= mean && mean <= max)) return 'the bot\u2019s times must be fastest \u2264 mean \u2264 slowest';
    return { accuracy: acc === null ? 0.6 : acc / 100, mean_ms: mean, min_ms: min, max_ms: max };
  }
  gameSel.addEventListener('change', showGame);
  timeSel.addEventListener('change', () => { timeChosen = true; });

  const form = h('form', { id: 'create', class: 'card' },
    h('h1', {}, 'New match'),
    h('div', { class: 'field' }, h('label', { for: 'game' }, 'Game'), gameSel, ' ', rulesLink),
    summary,
    h('fieldset', { class: 'opponent' }, h('legend', {}, 'Opponent'),
      opp('bot', 'the computer', true), levelSel,
      opp('friend', 'a friend (you get an invite link to send)', false)),
    h('div', { class: 'field' }, h('label', { for: 'time' }, 'Clock'), timeSel, ' ', seconds),
    timeInfo,
    h('div', { class: 'field' }, h('label', { for: 'name' }, 'Your name'), nameIn),
    h('details', { id: 'advanced', class: 'advanced' }, h('summary', {}, 'Advanced options'),
      h('fieldset', {}, h('legend', {}, 'Game options (blank = default)'), optionsBox),
      triviaBox,
      h('div', { class: 'field' }, h('label', { for: 'seat' }, 'Your seat'), seatSel),
      h('div', { class: 'field' }, h('label', { class: 'radio', for: 'sealed' }, sealedIn, ' Sealed: moves are sent as commitments, so the server learns a move only when both have committed'))),
    h('button', { type: 'submit', class: 'primary' }, 'Create match and take my seat'));

  form.addEventListener('change', showTrivia);
  form.addEventListener('change', syncClock);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const g = list.find((x) => x.id === gameSel.value);
    const options = {};
    for (const inp of optionsBox.querySelectorAll('[data-option]')) {
      if (inp.value.trim() !== '') options[inp.dataset.option] = inp.value.trim();
    }
    const name = nameIn.value.trim();
    if (name) localStorage.setItem('colosseum.name', name);
    const mySeat = seatSel.value;
    const opponent = form.querySelector('input[name=opponent]:checked').value;
    const me = { kind: 'human', ...(name ? { name } : {}) };
    const them = opponent === 'bot' ? { kind: 'bot', level: levelSel.value } : { kind: 'human' };
    const seats = mySeat === 'p1' ? [me, them] : [them, me];
    const body = { game: g.id, options, seats };
    if (sealedIn.checked) body.sealed = true;
    if (!triviaBox.hidden) {
      if (bankSel.value === 'toml') {
        if (!bankToml.value.trim()) { result.replaceChildren(notice('error', 'Paste your questions (TOML), or choose the sample bank.')); return; }
        body.trivia = { bank: { toml: bankToml.value } };
      } else body.trivia = { bank: 'sample' };
      if (opponent === 'bot') {
        const rb = raceBot();
        if (typeof rb === 'string') { result.replaceChildren(notice('error', `Not created: ${rb}.`)); return; }
        if (rb) body.race_bot = rb;
      }
    }
    if (timeSel.value === 'untimed') body.time = { kind: 'untimed' };
    if (timeSel.value === 'custom') {
      const n = Number(seconds.value);
      if (!(n >= 1)) { result.replaceChildren(notice('error', 'Give a number of seconds (1 or more).')); return; }
      body.time = { kind: 'timed', per_decision_ms: Math.round(n * 1000) };
    }
    const res = await api('/api/matches', { body });
    if (!res.ok) {
      result.replaceChildren(notice('error', `Not created: ${friendlyError(errorText(res))}`));
      result.scrollIntoView({ block: 'nearest' });
      return;
    }
    const { id, links } = res.data;
    const friendSeat = mySeat === 'p1' ? 'p2' : 'p1';
    remember({ id, game: g.name, opponent: opponent === 'bot' ? botLabel(levelSel.value).replace(/ \(.*\)$/, '') : 'a friend', link: links[mySeat], invite: opponent === 'bot' ? null : links[friendSeat] || null, at: Date.now() });
    // Straight to the seat, joined under the typed name (the table reads this once); the table
    // shows the invite and spectator links with Copy buttons.
    sessionStorage.setItem(`colosseum.autojoin.${id}`, name);
    location.assign(links[mySeat]);
  });

  const live = h('section', { id: 'matches' });
  const mine = h('section', { id: 'mine' });
  async function refresh() {
    const res = await api('/api/matches');
    if (!res.ok) { live.replaceChildren(notice('error', `Cannot list matches: ${errorText(res)}`)); return; }
    const name = (id) => list.find((x) => x.id === id)?.name || id;
    const row = (m) => h('li', {},
      h('strong', {}, name(m.game)), m.sealed ? h('span', { class: 'badge sealed' }, 'sealed') : null, m.practice ? h('span', { class: 'badge practice', title: 'its creator chose the seed: chance is not provably fair' }, 'practice') : null, ` \u00b7 ${m.status} \u00b7 `,
      `${seatText(m.seats.p1)} vs ${seatText(m.seats.p2)} `,
      m.result ? h('span', { class: 'muted' }, `(${reasonText(m)}) `) : null,
      h('a', { href: `/m/${m.id}` }, m.status === 'finished' ? 'view' : 'watch'),
      m.status === 'finished' ? [' \u00b7 ', h('a', { href: `/replay/${m.id}` }, 'replay')] : null);
    live.replaceChildren(
      h('h2', {}, 'Open and live matches'),
      res.data.matches.length ? h('ul', { class: 'matches' }, res.data.matches.map(row)) : h('p', { class: 'muted' }, 'None right now.'),
      h('h2', {}, 'Finished'),
      res.data.finished.length ? h('ul', { class: 'matches' }, res.data.finished.slice(0, 15).map(row)) : h('p', { class: 'muted' }, 'None yet.'));
    const my = JSON.parse(localStorage.getItem(MINE) || '[]');
    // The five newest seats say whether it is your move there (asked with the seat's token).
    const states = await Promise.all(my.slice(0, 5).map(async (e) => {
      const token = new URLSearchParams(new URL(e.link, location.origin).hash.slice(1)).get('seat');
      const r = token ? await api(`/api/matches/${encodeURIComponent(e.id)}`, { token }) : null;
      return r?.ok ? r.data : null;
    }));
    const tag = (st) => {
      if (!st) return null;
      const seat = st.you && st.match?.seats?.[st.you];
      if (st.status === 'finished') return h('span', { class: 'muted' }, ' \u00b7 finished');
      if (st.status === 'live' && seat?.to_act && !seat.submitted) return h('strong', { class: 'your-move', 'data-testid': 'your-move' }, ' \u00b7 your move');
      return h('span', { class: 'muted' }, ` \u00b7 ${{ waiting: 'waiting for your opponent', live: 'playing' }[st.status] || st.status}`);
    };
    // Each seat by its game and its opponent (from the match's state where the page asked for
    // it, else as remembered); the match's id stays in the link only.
    const against = (e, st) => {
      if (st?.you) {
        const opp = other(st.you);
        const bot = st.match?.seats?.[opp]?.player?.kind === 'bot';
        return bot || st.names?.[opp] ? seatName(st, opp) : 'a friend';
      }
      return e.opponent || null;
    };
    mine.replaceChildren(...(my.length ? [h('h2', {}, 'Your seats (this browser)'),
      h('ul', { class: 'matches' }, my.map((e, i) => h('li', {}, h('a', { href: e.link }, `${e.game}${against(e, states[i]) ? ` against ${against(e, states[i])}` : ''}`), tag(states[i]))))] : []));
  }

  mount(h('div', { class: 'lobby' }, h('div', {}, form, result, ratedCard(gameSel, list)), h('div', {}, mine, live)));
  showGame();
  refresh();
  setInterval(refresh, 10000);
}

// ratings: a rated match between two players of a season. The player's season link (its
// #player=TOKEN) says who they are; the opponent finds their seat on their own season page. The
// game is the one chosen above, with its default options.
const SEASON = 'colosseum.season';

function seasonLink(text) {
  try {
    const u = new URL(text.trim(), location.origin);
    const id = /^\/s\/([A-Za-z0-9]+)$/.exec(u.pathname)?.[1];
    const token = new URLSearchParams(u.hash.slice(1)).get('player');
    return id && token ? { id, token } : null;
  } catch { return null; }
}

function ratedCard(gameSel, list) {
  const link = h('input', { id: 'season-link', type: 'url', value: localStorage.getItem(SEASON) || '', placeholder: 'https://\u2026/s/ID#player=TOKEN', autocomplete: 'off' });
  const opponent = h('select', { id: 'season-opponent', disabled: true }, h('option', { value: '' }, 'paste your season link first'));
  const out = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', disabled: true }, 'Start a rated match');
  let season = null;
  async function load() {
    // A change event can come twice for one edit (typed, then the box loses the focus).
    if (season && link.value.trim() === season.text) return;
    const l = seasonLink(link.value);
    season = null;
    submit.disabled = true;
    opponent.disabled = true;
    if (!l) { if (link.value.trim()) out.replaceChildren(notice('error', 'That is not a season player\u2019s link (/s/ID#player=TOKEN): ask the season\u2019s host for yours.')); return; }
    const res = await api(`/api/seasons/${l.id}`, { token: l.token });
    if (!res.ok) { out.replaceChildren(notice('error', errorText(res))); return; }
    localStorage.setItem(SEASON, link.value.trim());
    season = { ...l, data: res.data, text: link.value.trim() };
    opponent.replaceChildren(...res.data.players.filter((p) => p.player !== res.data.you.player).map((p) => h('option', { value: p.player }, p.name)));
    opponent.disabled = false;
    submit.disabled = false;
    out.replaceChildren(h('p', { class: 'hint' }, `You are ${res.data.you.name} in ${res.data.name}. `, h('a', { href: `/s/${l.id}#player=${l.token}` }, 'Your season page')));
  }
  link.addEventListener('change', load);
  if (link.value) load();
  return h('form', {
    id: 'rated', class: 'card',
    onsubmit: async (e) => {
      e.preventDefault();
      if (!season) return;
      const res = await api(`/api/seasons/${season.id}/matches`, { token: season.token, body: { game: gameSel.value, opponent: Number(opponent.value) } });
      if (!res.ok) { out.replaceChildren(notice('error', errorText(res))); return; }
      const name = list.find((g) => g.id === gameSel.value)?.name || gameSel.value;
      remember({ id: res.data.match, game: name, link: res.data.link, invite: null, at: Date.now() });
      location.href = res.data.link;
    },
  }, h('h2', {}, 'Rated match (season)'),
  h('p', { class: 'hint' }, 'Between two players of a season: the result updates both players\u2019 ratings. The game is the one chosen above.'),
  h('div', { class: 'field' }, h('label', { for: 'season-link' }, 'Your season link'), link),
  h('div', { class: 'field' }, h('label', { for: 'season-opponent' }, 'Opponent'), opponent),
  submit, out);
}

main();
