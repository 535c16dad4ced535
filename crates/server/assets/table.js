// The table page, /m/{id}: a seat when the fragment holds #seat=TOKEN, else a spectator.
// It shows only what the server's state messages hold (built from this viewer's view).
import { h, api, errorText, gameName, mount, notice, clockText, other, endedBy } from './common.js';
import { render } from './boards.js';
// social: the server's move log, the chats, the live Cauldron (movelog.js, chat.js, cauldron.js)
import { moveLog } from './movelog.js';
import { createChat } from './chat.js';
import { createCauldron } from './cauldron.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const token = new URLSearchParams(location.hash.slice(1)).get('seat') || null;

let state = null; // the last state message
let receivedAt = 0; // Date.now() when it came
let socket = null;
let attempts = 0;
let stopped = false;
let lastSteps = -1;
let title = '';
const ui = {}; // half-made choices (cells clicked so far), reset at each new decision
const memory = {}; // what the page has seen and the view no longer holds (Thwart Omega's rounds)

// Persistent parts of the page (built once, so typing is never interrupted by an update).
const el = {
  head: h('div', { class: 'table-head' }),
  conn: h('p', { id: 'connection', class: 'notice info', role: 'status', hidden: true }),
  message: h('p', { id: 'message', class: 'notice', role: 'alert', hidden: true }),
  result: h('section', { id: 'result', hidden: true }),
  join: h('section', { id: 'join', hidden: true }),
  players: h('div', { class: 'players' }),
  board: h('div', { id: 'board', class: 'board-box' }),
  tools: h('div', { id: 'tools' }),
  status: h('p', { id: 'status', class: 'status-line', 'aria-live': 'polite' }),
  legal: h('div', { id: 'legal' }),
  hand: h('section', { id: 'hand', class: 'panel' }),
  score: h('section', { id: 'score', class: 'panel' }),
  reveal: h('section', { id: 'reveal', class: 'panel' }),
  log: h('section', { id: 'log', class: 'panel' }),
  fair: h('section', { id: 'fairness', class: 'panel', 'aria-labelledby': 'fairness-title' }),
  buttons: h('div', { class: 'buttons' }),
  input: h('input', { id: 'notation', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 2000, 'aria-label': 'your move in notation', placeholder: 'type a move, e.g. 7' }),
};
const form = h('form', { id: 'move-form', class: 'notation' },
  h('label', { for: 'notation' }, 'Move'), el.input, h('button', { type: 'submit', class: 'primary' }, 'Submit'));
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = el.input.value.trim();
  submit(text === '' ? 'pass' : text);
});

// social: the live Cauldron's panel (cauldron.js) and the chat (chat.js), built once so that an
// update never interrupts typing.
const cauldron = createCauldron({ send: (msg) => send(msg), now: () => matchNow() });
const chat = createChat({ send: (msg) => send(msg) });

const actions = h('section', { id: 'actions', class: 'panel' }, h('h2', {}, 'Your move'), el.status, el.tools, el.legal, form, el.buttons);

function showMessage(kind, text) {
  el.message.className = `notice ${kind}`;
  el.message.textContent = text;
  el.message.hidden = !text;
}

function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showMessage('error', 'Not connected: your action was not sent. Wait for the connection to come back and try again.');
    return false;
  }
  socket.send(JSON.stringify(msg));
  return true;
}

function submit(text) {
  el.input.value = text;
  if (sealedDecision()) { commit(text); return; }
  showMessage('info', `Sending ${text}\u2026`);
  // The decision this move is for: if it was decided meanwhile, the server refuses the move
  // (stale_decision) instead of taking it for the next one.
  send({ type: 'submit', move: text, decision: state ? state.decision : undefined });
}

// A random client seed for provably fair chance (the player may type their own).
function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

let verified = null; // the verification report of the finished match, once fetched

function short(hex) {
  return hex ? `${hex.slice(0, 12)}…${hex.slice(-6)}` : '';
}

// The fairness panel: how chance was made, and on a finished match the check anyone can run.
function renderFairness() {
  const f = state.fairness;
  const parts = [h('h2', { id: 'fairness-title' }, 'Fair chance')];
  if (state.practice) {
    parts.push(h('p', { 'data-testid': 'practice' }, 'Practice match: its creator chose the seed, so chance here is not provably fair.'));
  } else if (f) {
    parts.push(h('p', {}, 'Before anyone joined, the server committed to a secret seed: ',
      h('code', { 'data-testid': 'commitment', title: f.commitment }, short(f.commitment)),
      '. Chance comes from that seed mixed with both players\u2019 client seeds, so neither the server nor a player could choose it.'));
    const seeds = ['p1', 'p2'].map((p) => `${state.names?.[p] || p}: ${f.client_seeds?.[p] ?? 'not yet'}`).join(' \u00b7 ');
    parts.push(h('p', { class: 'muted' }, `Client seeds \u2014 ${seeds}`));
    if (f.server_seed) {
      parts.push(h('p', {}, 'Server seed, revealed at the end: ', h('code', { 'data-testid': 'server-seed', title: f.server_seed }, short(f.server_seed))));
      const link = h('a', { href: f.verify, id: 'verify-link', target: '_blank' }, 'Check every chance step');
      parts.push(h('p', {}, link, verified && !verified.pending ? h('span', { 'data-testid': 'verified', class: verified.ok ? 'ok' : 'bad' }, verified.ok ? ' \u2014 verified: every chance step is what the seeds give.' : ` \u2014 NOT verified: ${verified.failure || verified.games?.find((g) => g.failure)?.failure}`) : ''));
      if (!verified) {
        verified = { pending: true };
        fetch(f.verify).then((r) => r.json()).then((v) => { verified = v; renderFairness(); }).catch(() => { verified = null; });
      }
    } else {
      parts.push(h('p', { class: 'muted' }, 'The server seed is revealed when the match ends; then anyone can check every chance step.'));
    }
  } else {
    parts.push(h('p', { class: 'muted' }, 'This match was stored before provably fair chance.'));
  }
  el.fair.replaceChildren(...parts);
}

// ----- sealed matches (docs/server-api.md, "Sealed submissions") -----
// In a simultaneous decision the page sends only a commitment, the SHA-256 of MOVE + "\n" +
// NONCE (a fresh random nonce), and keeps the move and nonce in sessionStorage so that a reload
// can still open. When the state shows that both seats are in (`sealed.phase` = "open"), it
// opens by itself.
const SEALED_WORDS = 'Sealed: your move is locked in as a commitment; the server learns it only when both have committed.';
const sealedKey = () => `colosseum.sealed.${id}.${state?.you}`;
const openingsSent = new Set(); // commitments whose opening went out on this connection

/** Whether this seat's pending decision is sealed (a sealed match, a simultaneous decision). */
function sealedDecision() {
  const m = state?.match;
  return !!(state?.you && m?.sealed?.phase && m.seats[state.you]?.to_act && !m.result);
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function commit(text) {
  if (!globalThis.crypto?.subtle) {
    showMessage('error', 'This sealed match needs the browser\u2019s cryptography, which it gives only to secure pages: open the table over https, or at http://localhost or http://127.0.0.1.');
    return;
  }
  const m = state.match;
  if (m.sealed.phase !== 'commit' || m.seats[state.you].committed) {
    showMessage('error', 'Your commitment is already in: it cannot change in this decision.');
    return;
  }
  const nonce = hex(crypto.getRandomValues(new Uint8Array(32)));
  const hash = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${text}\n${nonce}`)));
  // Kept before sending: if the page reloads right after, it can still open.
  sessionStorage.setItem(sealedKey(), JSON.stringify({ move: text, nonce, hash }));
  showMessage('info', `Sealing ${text}\u2026`);
  send({ type: 'commit', hash, decision: state.decision });
}

/** The move this tab committed to in the pending decision, if it kept it. */
function keptMove() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(sealedKey()) || 'null');
    return kept && kept.hash === state?.match?.seats[state.you]?.commitment ? kept.move : null;
  } catch {
    return null;
  }
}

/** Opens this seat's commitment once both are in, from what sessionStorage kept. */
function openIfDue() {
  const m = state?.match;
  if (!sealedDecision() || m.sealed.phase !== 'open' || socket?.readyState !== WebSocket.OPEN) return;
  const mine = m.seats[state.you];
  if (!mine.committed || mine.submitted || openingsSent.has(mine.commitment)) return;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(sealedKey()) || 'null'); } catch { kept = null; }
  if (!kept || kept.hash !== mine.commitment) {
    showMessage('error', 'This browser does not hold the move and nonce of your commitment (was it made in another tab or browser?), so it cannot open it. Without an opening the game\u2019s timeout rule applies.');
    return;
  }
  if (send({ type: 'open', move: kept.move, nonce: kept.nonce, decision: state.decision })) {
    openingsSent.add(mine.commitment);
    showMessage('info', 'Both have committed: opening your commitment\u2026');
  }
}

function stop(node) {
  stopped = true;
  if (socket) socket.close();
  mount(h('h1', {}, 'Cannot open this table'), node, h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
}

async function check() {
  const res = await api(`/api/matches/${encodeURIComponent(id)}`, { token });
  if (res.status === 404) {
    stop(notice('error', `No such match (${errorText(res)}). The link may be mistyped, or the match is gone.`));
    return false;
  }
  if (res.status === 403) {
    stop(h('div', {}, notice('error', `This seat link is not valid for match ${id}: ${errorText(res)}`),
      h('p', {}, 'You can still ', h('a', { href: `/m/${id}`, onclick: () => setTimeout(() => location.reload(), 0) }, 'watch as a spectator'), '.')));
    return false;
  }
  if (res.ok) {
    onState(res.data);
    return true;
  }
  return true; // a network failure: the socket retries
}

function connect() {
  if (stopped) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  // The seat's token never goes in a URL (proxies log URLs): it rides in a subprotocol, which
  // the server answers with `colosseum`; a token a subprotocol cannot hold is sent as the first
  // message instead (the server refuses it either way if it is no seat's).
  const url = `${proto}://${location.host}/api/matches/${encodeURIComponent(id)}/ws`;
  const inProtocol = token && /^[A-Za-z0-9._~-]+$/.test(token);
  const ws = inProtocol ? new WebSocket(url, ['colosseum', `colosseum.token.${token}`]) : new WebSocket(url);
  socket = ws;
  ws.addEventListener('open', () => {
    if (token && !inProtocol) ws.send(JSON.stringify({ type: 'auth', token }));
    attempts = 0;
    openingsSent.clear();
    openIfDue();
    el.conn.hidden = false;
    el.conn.className = 'notice ok';
    el.conn.textContent = 'Connected.';
    document.body.dataset.connected = 'true';
    setTimeout(() => { if (ws.readyState === WebSocket.OPEN) el.conn.hidden = true; }, 1500);
  });
  ws.addEventListener('message', (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg.type === 'state') onState(msg);
    else if (msg.type === 'ok') {
      if (msg.to === 'submit') showMessage('ok', state?.match?.pending === 'both' ? 'Move accepted. It stays hidden from your opponent until both have moved.' : 'Move accepted.');
      else if (msg.to === 'lock') showMessage('ok', 'Locked: your move can no longer change.');
      else if (msg.to === 'commit') showMessage('ok', SEALED_WORDS);
      else if (msg.to === 'open') showMessage('ok', 'Opened: your move is revealed when both have opened.');
      else if (msg.to === 'join') showMessage('ok', 'You have taken your seat.');
      else if (msg.to === 'resign') showMessage('info', 'You resigned.');
      else if (msg.to === 'answer') cauldron.answered(msg); // social
      else if (msg.to === 'chat') chat.answered(msg); // social
    } else if (msg.type === 'error' && msg.to === 'answer') {
      cauldron.answered(msg); // social
    } else if (msg.type === 'error' && msg.to === 'chat') {
      chat.answered(msg); // social
    } else if (msg.type === 'error') {
      const what = msg.to === 'submit' ? 'Move refused' : msg.to ? `${msg.to[0].toUpperCase()}${msg.to.slice(1)} refused` : 'Refused';
      showMessage('error', `${what}: ${msg.error?.message || 'unknown error'}`);
    }
  });
  ws.addEventListener('close', async () => {
    if (socket !== ws || stopped) return;
    document.body.dataset.connected = 'false';
    attempts += 1;
    const delay = Math.min(10000, 500 * 2 ** Math.min(attempts - 1, 5));
    el.conn.hidden = false;
    el.conn.className = 'notice error';
    el.conn.textContent = `Connection lost. Reconnecting in ${Math.round(delay / 100) / 10} s (attempt ${attempts})\u2026`;
    setTimeout(async () => {
      if (await check()) connect();
    }, delay);
  });
}

/** The invite link this browser's lobby made for this match, if any. */
function inviteLink() {
  try {
    const mine = JSON.parse(localStorage.getItem('colosseum.mine') || '[]').find((e) => e.id === id);
    return mine?.invite ? new URL(mine.invite, location.origin).href : '';
  } catch {
    return '';
  }
}

function seatPanel(seat) {
  const m = state.match;
  const info = m.seats[seat];
  const you = state.you;
  const nm = state.names?.[seat] || (info.player?.kind === 'bot' ? `bot ${info.player.level}` : seat);
  let doing = '';
  if (state.status === 'waiting') doing = state.joined[seat] ? 'joined' : 'not joined yet';
  else if (m.result) doing = '';
  else if (m.race && !m.race.over) doing = 'in the Cauldron race';
  else if (info.to_act) {
    if (m.sealed?.phase && info.committed) doing = info.opened ? 'has opened (sealed)' : 'has committed (sealed)';
    else if (info.submitted) doing = info.locked ? 'has submitted (locked)' : 'has submitted';
    else doing = seat === you ? 'to move' : 'thinking';
  } else doing = 'waiting';
  return h('div', { class: `seat-panel ${seat}${info.to_act && !info.submitted ? ' active' : ''}`, 'data-seat': seat },
    h('div', { class: 'seat-name' }, h('span', { class: `swatch ${seat}` }), `${nm}`, h('small', {}, ` ${seat}${seat === you ? ' \u00b7 you' : ''}`)),
    h('div', { class: 'seat-status', 'data-testid': `status-${seat}` }, doing),
    h('div', { class: 'clock', 'data-clock': seat }, ''));
}

function updateClocks() {
  if (!state) return;
  const m = state.match;
  const since = matchNow();
  cauldron.tick(); // social
  for (const seat of ['p1', 'p2']) {
    const node = document.querySelector(`[data-clock="${seat}"]`);
    if (!node) continue;
    const c = m.seats[seat].clock || {};
    if (!m.time_control || m.time_control.kind === 'untimed') { node.textContent = 'untimed'; continue; }
    const bank = c.bank_ms ? ` \u00b7 bank ${clockText(c.bank_ms)}` : '';
    if (m.result || c.deadline === null || c.deadline === undefined || !state.started_at) {
      node.textContent = `\u2014${bank}`;
      node.classList.remove('low');
      continue;
    }
    const turnLeft = c.turn_deadline !== null && c.turn_deadline !== undefined ? c.turn_deadline - since : null;
    const left = c.deadline - since;
    if (turnLeft !== null && turnLeft > 0) node.textContent = `${clockText(turnLeft)}${bank}`;
    else node.textContent = `bank ${clockText(left)}`;
    node.classList.toggle('low', left < 10000);
  }
}

/** Match time now (ms since the start), from the last state and the time since it came. */
function matchNow() {
  const serverNow = state.server_now + (Date.now() - receivedAt);
  return state.started_at ? serverNow - state.started_at : 0;
}

function resultText(m) {
  const r = m.result;
  const names = state.names || {};
  const who = (seat) => (names[seat] ? `${names[seat]} (${seat})` : seat);
  const head = r.winner ? (state.you ? (r.winner === state.you ? 'You win' : 'You lose') : `${who(r.winner)} wins`) : 'A draw';
  return { head, body: `${r.winner ? `${who(r.winner)} won` : 'Nobody won'} ${endedBy(r.by)}: ${r.reason}` };
}

function renderAll() {
  const m = state.match;
  const you = state.you;
  const canAct = !!you && state.status === 'live' && m.seats[you].to_act && !m.seats[you].locked
    && !(m.sealed?.phase && m.seats[you].committed);
  if (state.steps !== lastSteps) {
    for (const k of Object.keys(ui)) delete ui[k];
    if (lastSteps !== -1) {
      el.input.value = '';
      // A new decision: the last one's "Move accepted" is stale. Say when the clock played.
      const late = m.timed_out || [];
      if (you && late.includes(you)) {
        showMessage('warn', 'Your time ran out: the host made the game\u2019s default move for you. See the last reveal.');
      } else if (late.length) {
        showMessage('info', `${late.map((s) => state.names?.[s] || s).join(' and ')}\u2019s time ran out: the host made the default move. See the last reveal.`);
      } else if (!el.message.classList.contains('error')) {
        showMessage('', '');
      }
    }
    lastSteps = state.steps;
  }
  const ctx = {
    you,
    names: state.names,
    legal: state.legal_moves,
    canAct,
    decision: m.decision,
    submission: you ? m.seats[you].submission ?? null : null,
    pick: submit,
    compose: (text) => { el.input.value = text; },
    addToBox: (t) => { el.input.value = `${el.input.value.trim()} ${t}`.trim(); el.input.focus(); },
    rerender: () => renderAll(),
    memory,
  };
  const parts = render(m.game, m.view, ctx, ui);

  el.head.replaceChildren(
    h('h1', {}, title, ' ', h('span', { class: `badge ${state.status}`, 'data-testid': 'match-status' }, state.status),
      m.sealed ? h('span', { class: 'badge sealed', 'data-testid': 'sealed', title: 'moves are sent as commitments first' }, 'sealed') : null),
    h('p', { class: 'muted' }, `Match ${state.id}`, m.game_number > 1 ? ` \u00b7 game ${m.game_number} (earlier games were drawn)` : '',
      ' \u00b7 ', you ? `you play ${you}` : 'you are watching', ' \u00b7 ', h('a', { href: `/rules/${m.game}`, target: '_blank' }, 'rules')));
  el.players.replaceChildren(seatPanel('p1'), seatPanel('p2'));

  // Join.
  if (you && !state.joined[you] && state.status !== 'finished') {
    el.join.hidden = false;
    if (!el.join.firstChild) {
      const nameIn = h('input', { id: 'join-name', type: 'text', maxlength: 40, value: localStorage.getItem('colosseum.name') || '', placeholder: 'your name', autocomplete: 'nickname' });
      const seedIn = h('input', { id: 'client-seed', type: 'text', maxlength: 64, value: randomSeed(), pattern: '[A-Za-z0-9_.\\-]{1,64}', autocomplete: 'off', spellcheck: 'false' });
      const seedBox = h('details', { class: 'client-seed' }, h('summary', {}, 'Your client seed (optional)'),
        h('p', { class: 'hint' }, 'Chance in this match mixes the server\u2019s committed seed with a seed from each player. One was made at random for you; you may type your own (letters, digits, _ . -).'),
        h('label', { for: 'client-seed' }, 'Client seed '), seedIn);
      const f = h('form', { class: 'card' }, h('h2', {}, 'Take your seat'), h('label', { for: 'join-name' }, 'Your name '), nameIn, ' ', h('button', { type: 'submit', class: 'primary' }, 'Join'), seedBox);
      f.addEventListener('submit', (e) => {
        e.preventDefault();
        const n = nameIn.value.trim();
        if (n) localStorage.setItem('colosseum.name', n);
        const seed = seedIn.value.trim() || randomSeed();
        send(n ? { type: 'join', name: n, client_seed: seed } : { type: 'join', client_seed: seed });
      });
      el.join.replaceChildren(f);
    }
  } else {
    el.join.hidden = true;
    el.join.replaceChildren();
  }

  // Result.
  if (m.result) {
    const r = resultText(m);
    if (!el.message.classList.contains('error')) showMessage('', '');
    el.result.hidden = false;
    el.result.replaceChildren(h('div', { class: `card result ${m.result.winner ? (m.result.winner === you ? 'win' : you ? 'loss' : '') : 'draw'}` },
      h('h2', { 'data-testid': 'result-head' }, r.head), h('p', { 'data-testid': 'result-reason' }, r.body),
      h('p', {}, h('a', { href: `/replay/${state.id}`, class: 'button' }, 'Replay this match'), ' ', h('a', { href: '/', class: 'button' }, 'Lobby'),
        state.fairness?.verify ? [' ', h('a', { href: '#fairness', class: 'button', id: 'fair-link' }, 'Check the chance')] : null)));
  } else {
    el.result.hidden = true;
  }

  el.board.replaceChildren(...[parts.board, parts.legend ? h('p', { class: 'hint legend' }, parts.legend) : null].filter(Boolean));
  el.board.hidden = !parts.board;
  el.hand.replaceChildren(h('h2', {}, 'Hands'), parts.hand || h('p', { class: 'muted' }, '\u2014'));
  el.score.replaceChildren(h('h2', {}, 'Score'), parts.score || h('p', { class: 'muted' }, '\u2014'));
  el.reveal.replaceChildren(h('h2', {}, 'Last reveal'), parts.reveal || h('p', { class: 'muted' }, 'Nothing revealed yet.'));
  // social: the server's complete move log (every step this viewer may know, with names).
  el.log.replaceChildren(h('h2', {}, 'Moves'), (m.moves ? moveLog(m.moves, state.names) : parts.log) || h('p', { class: 'muted' }, '\u2014'));
  const ol = el.log.querySelector('ol.log');
  if (ol) ol.scrollTop = ol.scrollHeight;
  el.tools.replaceChildren(...[parts.tools].filter(Boolean));

  // Actions (seats only).
  actions.hidden = !you || !!m.result;
  if (you) {
    const mine = m.seats[you];
    const opp = other(you);
    const oppName = state.names?.[opp] || opp;
    let line;
    if (state.status === 'waiting') line = state.joined[you] ? `Waiting for ${oppName} to join: send them the invite link${inviteLink() ? ` ${inviteLink()}` : ' from the lobby'}.` : 'Join to start.';
    else if (m.result) line = 'The match is over.';
    else if (m.race && !m.race.over) line = 'The Cauldron race is on: answer the question above.';
    else if (m.sealed?.phase && mine.to_act && mine.committed && !mine.submitted) line = `${keptMove() ? `You chose ${keptMove()}. ` : ''}${m.sealed.phase === 'open' ? `Both have committed: opening yours. ${SEALED_WORDS}` : `${SEALED_WORDS} Waiting for ${oppName} to commit.`}`;
    else if (m.sealed?.phase && mine.to_act && mine.opened) line = `You opened ${mine.submission}. Waiting for ${oppName} to open.`;
    else if (mine.to_act && mine.locked) line = `You played ${mine.submission} (locked). Waiting for ${oppName}.`;
    else if (mine.to_act && mine.submitted) line = `You played ${mine.submission}${mine.by_default ? ' (by default)' : ''}. You may change it until ${oppName} moves too${m.seats[opp].submitted ? '' : ', or lock it'}.`;
    else if (mine.to_act && m.sealed?.phase) line = `Your move${m.decision && m.decision !== 'move' ? ` (${m.decision})` : ''}, sealed: the page sends only a commitment, and the move itself once both have committed.${m.seats[opp].committed ? ` ${oppName} has committed.` : ''}`;
    else if (mine.to_act) line = `Your move${m.decision && m.decision !== 'move' ? ` (${m.decision})` : ''}.${m.seats[opp].to_act ? (m.seats[opp].submitted ? ` ${oppName} has submitted.` : ` ${oppName} is choosing too.`) : ''}`;
    else line = `Waiting for ${oppName}${m.seats[opp].submitted ? ' (submitted)' : ''}.`;
    el.status.textContent = line;
    const legal = canAct && Array.isArray(state.legal_moves) ? state.legal_moves : [];
    el.legal.replaceChildren(...(legal.length ? [h('p', { class: 'hint' }, 'Legal moves:'), h('div', { class: 'legal-list' }, legal.map((mv) => h('button', {
      type: 'button', class: `move${mine.submission === mv ? ' chosen' : ''}`, 'data-move': mv, onclick: () => submit(mv),
    }, mv)))] : canAct && state.legal_moves === null ? [h('p', { class: 'hint' }, 'Too many moves to list: click the board or type one.')] : []));
    form.querySelectorAll('input, button').forEach((x) => { x.disabled = !canAct; });
    const btns = [];
    if (canAct && mine.submitted && !mine.locked && !m.sealed?.phase) btns.push(h('button', { type: 'button', id: 'lock', onclick: () => send({ type: 'lock', decision: state.decision }) }, 'Lock my move'));
    if (state.status === 'live' && !m.result) {
      btns.push(h('button', {
        type: 'button', id: 'resign', class: 'danger', onclick: (e) => {
          const b = e.currentTarget;
          b.replaceWith(h('span', { class: 'confirm' }, 'Resign the match? ',
            h('button', { type: 'button', class: 'danger', id: 'resign-yes', onclick: () => send({ type: 'resign' }) }, 'Yes, resign'), ' ',
            h('button', { type: 'button', onclick: () => renderAll() }, 'No')));
        },
      }, 'Resign'));
    }
    el.buttons.replaceChildren(...btns);
  }
  cauldron.render(state); // social
  chat.update(state); // social
  renderFairness();
  updateClocks();
  document.body.dataset.steps = String(state.steps);
  document.body.dataset.status = state.status;
  document.body.dataset.game = m.game;
}

function onState(msg) {
  if (state && msg.server_now < state.server_now) return; // an older answer
  state = msg;
  receivedAt = Date.now();
  renderAll();
  openIfDue();
}

async function main() {
  if (!id) { stop(notice('error', 'No match id in the address.')); return; }
  const res = await api(`/api/matches/${encodeURIComponent(id)}`, { token });
  if (res.status === 404 || res.status === 403) {
    await check();
    return;
  }
  if (!res.ok) {
    mount(notice('error', `Cannot load the table: ${errorText(res)}. Trying again in 3 s\u2026`));
    setTimeout(main, 3000);
    return;
  }
  title = await gameName(res.data.match.game);
  document.title = `${title} \u00b7 Colosseum`;
  const side = h('div', { class: 'side' }, actions, el.hand, el.score, el.reveal, el.log, chat.box, el.fair);
  mount(el.head, el.conn, el.message, el.result, el.join, el.players, cauldron.box,
    h('div', { class: 'table' }, el.board, side),
    token ? null : h('p', { class: 'muted' }, 'You are watching. Moves stay hidden until both players have moved.'));
  onState(res.data);
  connect();
  setInterval(updateClocks, 250);
  setInterval(() => { if (socket?.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}'); }, 25000);
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || document.activeElement === el.input || document.activeElement === cauldron.input
      || document.activeElement?.closest?.('#chat')) return;
    e.preventDefault();
    if (cauldron.focusable()) cauldron.focus();
    else el.input.focus();
  });
}

main();
