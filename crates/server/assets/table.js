// The table page, /m/{id}: a seat when the fragment holds #seat=TOKEN, else a spectator.
// It shows only what the server's state messages hold (built from this viewer's view).
import { h, api, errorText, gameName, mount, notice, clockText, other, copy } from './common.js';
import { render, loadGame } from './boards.js';
import { moveLabel, resultText, statusLine, timeoutNotice, clockLevel, friendlyError, placeholderFor, pageTitle, seatDoing, seatName as nameOf, raceName, raceTitle } from './present.js';
// social: the server's move log, the chats, a game's live races (movelog.js, chat.js, race.js)
import { moveLog } from './movelog.js';
import { createChat } from './chat.js';
import { createRace } from './race.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const token = new URLSearchParams(location.hash.slice(1)).get('seat') || null;

// Everything the page keeps between messages, in one object: the functions below read and change
// it, and nothing else at module level changes (the rest are constants and DOM nodes built once).
const page = {
  state: null, // the last state message
  receivedAt: 0, // Date.now() when it came
  socket: null,
  pendingJoin: null, // a join asked for before the socket was open, sent when it opens
  attempts: 0, // reconnections since the last open socket
  stopped: false, // the page gave up (no such match, a bad seat link)
  lastSteps: -1, // the steps of the state last rendered (-1: none yet)
  title: '', // the game's name
  game: {}, // the game's browser module (boards.js's loadGame)
  ui: {}, // half-made choices (the draft move, cells clicked so far), reset at each new decision
  // What the page has shown: the reveal on screen (so a new one is announced once), the last
  // rendered pieces (labels for the preview), the decision the last move was sent for.
  shown: { revealKey: null, parts: null, submittedFor: null },
  memory: {}, // what the page has seen and the view no longer holds (a game's earlier rounds)
  verified: null, // the verification report of the finished match, once fetched
  openingsSent: new Set(), // commitments whose opening went out on this connection
  revealSent: null, // the client seed hash whose reveal went out on this connection
};

// Persistent parts of the page (built once, so typing is never interrupted by an update).
const el = {
  head: h('div', { class: 'table-head' }),
  conn: h('p', { id: 'connection', class: 'notice info', role: 'status', hidden: true }),
  // ratings: the host's pause (a tournament's Host panel), shown to seats and spectators alike.
  paused: h('p', { id: 'paused', class: 'notice warn', role: 'status', hidden: true }, 'Paused by the host: no move is taken and the clocks are stopped until the host resumes the match.'),
  message: h('p', { id: 'message', class: 'notice', role: 'alert', hidden: true }),
  // The result: an overlay where the player is when the match ends (and on loading a finished
  // match), docked at the top of the page once closed.
  result: h('section', { id: 'result', hidden: true, role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'result-title' }),
  offer: h('p', { id: 'rematch-offer', class: 'notice ok', role: 'status', hidden: true }),
  resultScore: h('p', { class: 'result-score', 'data-testid': 'result-score', hidden: true }),
  join: h('section', { id: 'join', hidden: true }),
  players: h('div', { class: 'players' }),
  board: h('div', { id: 'board', class: 'board-box' }),
  tools: h('div', { id: 'tools' }),
  status: h('p', { id: 'status', class: 'status-line', 'aria-live': 'polite' }),
  draft: h('p', { id: 'draft', class: 'draft', 'aria-live': 'polite' }),
  roundResult: h('section', { id: 'reveal', class: 'round-result', 'aria-live': 'polite', 'aria-label': 'the last reveal', hidden: true }),
  share: h('section', { id: 'share', class: 'panel share', hidden: true }),
  legal: h('div', { id: 'legal' }),
  hand: h('section', { id: 'hand', class: 'panel' }),
  score: h('section', { id: 'score', class: 'panel' }),
  reveal: h('section', { id: 'reveal', class: 'panel' }),
  log: h('section', { id: 'log', class: 'panel' }),
  fair: h('section', { id: 'fairness', class: 'panel', 'aria-labelledby': 'fairness-title' }),
  buttons: h('div', { class: 'buttons' }),
  input: h('input', { id: 'notation', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 2000, placeholder: 'or type a move' }),
};
const clearButton = h('button', { type: 'button', id: 'clear-move', onclick: () => clearDraft() }, 'Clear');
const form = h('form', { id: 'move-form', class: 'notation' },
  h('label', { for: 'notation' }, 'Move'), el.input, h('button', { type: 'submit', class: 'primary', id: 'submit-move' }, 'Submit'), clearButton);
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = el.input.value.trim();
  // An empty submission is not a move in any game (RULINGS.md): a pass is said on purpose.
  if (text === '') {
    showMessage('error', 'Nothing to send: choose or type a move first. To pass where the game allows it, type pass (or none, or no submission).');
    return;
  }
  submit(text);
});
// Typing is the other way to build the same move: the preview follows the box.
el.input.addEventListener('input', () => {
  page.ui.draft = el.input.value.trim() || null;
  showDraft();
});

/** Chooses a move on the board or in the hand: previewed, sent only by Submit. */
function pick(text) {
  // The hand and the list are drawn anew: the focus stays on the card or move just chosen
  // (a board keeps its own, renderAll), so that Tab goes on from there to Submit.
  const from = document.activeElement?.closest?.('#hand button, #legal button');
  const key = from && (from.dataset.card !== undefined ? `[data-card="${CSS.escape(from.dataset.card)}"]`
    : from.dataset.move !== undefined ? `[data-move="${CSS.escape(from.dataset.move)}"]` : null);
  const where = from?.closest('#hand') ? el.hand : el.legal;
  page.ui.draft = text || null;
  el.input.value = text || '';
  renderAll();
  if (key) where.querySelector(`button${key}`)?.focus({ preventScroll: true });
}

// Keyboard: with a move chosen, Tab from where it was chosen (the hand, the board, the list of
// moves) goes straight to Submit, and Enter there sends it; Shift+Tab is unchanged. In the hand,
// Left and Right move between its cards (a play built of several cards).
el.hand.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const at = e.target.closest?.('button');
  const row = at ? [...el.hand.querySelectorAll('button:not([disabled])')] : [];
  const next = row[row.indexOf(at) + (e.key === 'ArrowRight' ? 1 : -1)];
  if (!next) return;
  e.preventDefault();
  next.focus();
});
for (const box of [el.hand, el.board, el.legal]) {
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || !page.ui.draft) return;
    const submitButton = form.querySelector('#submit-move');
    if (submitButton.disabled) return;
    e.preventDefault();
    submitButton.focus();
  });
}

function clearDraft() {
  const focus = page.ui.focus;
  for (const k of Object.keys(page.ui)) delete page.ui[k];
  page.ui.focus = focus;
  el.input.value = '';
  renderAll();
}

function showDraft() {
  const parts = page.shown.parts;
  const d = page.ui.draft;
  el.draft.replaceChildren(...(d ? ['Your move: ', h('strong', { 'data-testid': 'draft' }, parts?.label ? parts.label(d) : d), ' \u2014 press Submit to play it, or change it.'] : []));
  el.draft.hidden = !d;
}

// ----- the "More" menu: Resign (with a confirmation), and the your-move sound and notification -----
// Resign is never beside Submit: it is in this menu, in the title line. The sound and the
// notification are off until the player turns them on (kept in localStorage); the browser asks
// for the notification permission only then.
const PREFS = { sound: 'colosseum.sound', notify: 'colosseum.notify' };
const pref = (k) => { try { return localStorage.getItem(PREFS[k]) === '1'; } catch { return false; } };
const setPref = (k, on) => { try { localStorage.setItem(PREFS[k], on ? '1' : '0'); } catch { /* storage off */ } };
const audio = { ctx: null };
el.resignBox = h('div', { class: 'more-resign' });
el.prefNote = h('p', { class: 'hint', 'aria-live': 'polite' });
const soundBox = h('input', { type: 'checkbox', id: 'opt-sound' });
const notifyBox = h('input', { type: 'checkbox', id: 'opt-notify' });
soundBox.checked = pref('sound');
notifyBox.checked = pref('notify') && globalThis.Notification?.permission === 'granted';
soundBox.addEventListener('change', () => {
  setPref('sound', soundBox.checked);
  if (soundBox.checked) beep(); // a sample, and the click lets the page play sound later
});
notifyBox.addEventListener('change', async () => {
  el.prefNote.textContent = '';
  if (!notifyBox.checked) { setPref('notify', false); return; }
  if (!globalThis.Notification) {
    notifyBox.checked = false;
    el.prefNote.textContent = 'This browser cannot show notifications.';
    return;
  }
  const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  notifyBox.checked = answer === 'granted';
  setPref('notify', notifyBox.checked);
  if (!notifyBox.checked) el.prefNote.textContent = 'Notifications are blocked for this site: allow them in the browser\u2019s site settings to turn this on.';
});
el.more = h('details', { class: 'more', id: 'more' },
  h('summary', { 'aria-label': 'More: resign, sound and notifications' }, '\u22ef More'),
  h('div', { class: 'more-menu' }, el.resignBox,
    h('label', { class: 'toggle', for: 'opt-sound' }, soundBox, ' Sound when it is your move'),
    h('label', { class: 'toggle', for: 'opt-notify' }, notifyBox, ' Notify me when it is my move and this tab is hidden'),
    el.prefNote));
// A click elsewhere closes the menu (the path as dispatched: a button inside may have been
// replaced by its confirmation meanwhile).
document.addEventListener('click', (e) => { if (el.more.open && !e.composedPath().includes(el.more)) el.more.open = false; });
el.more.addEventListener('keydown', (e) => { if (e.key === 'Escape' && el.more.open) { el.more.open = false; el.more.querySelector('summary').focus(); } });

/** A short two-tone beep (WebAudio; no sound file), if the browser lets the page play it. */
function beep() {
  try {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return false;
    audio.ctx ||= new Ctx();
    const ctx = audio.ctx;
    if (ctx.state === 'suspended') ctx.resume();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(ctx.currentTime + i * 0.12);
      o.stop(ctx.currentTime + 0.12 + i * 0.12);
    });
    return true;
  } catch {
    return false;
  }
}

/** It has just become this seat's move: the sound and, in a hidden tab, the notification, each
 *  if the player turned it on. `body.dataset.alerts` counts them (the browser tests read it). */
function yourMoveAlert(text) {
  const done = [];
  if (pref('sound') && beep()) done.push('sound');
  if (pref('notify') && document.hidden && globalThis.Notification?.permission === 'granted') {
    try {
      const n = new Notification(`Your move \u00b7 ${page.title}`, { body: text, tag: `colosseum-${id}` });
      n.onclick = () => { window.focus(); n.close(); };
      done.push('notification');
    } catch { /* a browser that allows notifications from service workers only */ }
  }
  if (done.length) document.body.dataset.alerts = `${Number(document.body.dataset.alerts || 0) + 1}:${done.join(',')}`;
}

/** The Resign button in the menu, then its confirmation. */
function renderResign(canResign) {
  if (!canResign) { el.resignBox.replaceChildren(); return; }
  if (el.resignBox.querySelector('#resign, #resign-yes')) return;
  const ask = () => el.resignBox.replaceChildren(h('p', { class: 'confirm' }, 'Resign the match? ',
    h('button', { type: 'button', class: 'danger', id: 'resign-yes', onclick: () => send({ type: 'resign' }) }, 'Yes, resign'), ' ',
    h('button', { type: 'button', id: 'resign-no', onclick: () => { offer(); el.resignBox.querySelector('#resign')?.focus(); } }, 'No')));
  const offer = () => el.resignBox.replaceChildren(h('button', { type: 'button', id: 'resign', class: 'danger', onclick: () => { ask(); el.resignBox.querySelector('#resign-no')?.focus(); } }, 'Resign\u2026'));
  offer();
}

// social: a live race's panel (race.js) and the chat (chat.js), built once so that an update
// never interrupts typing.
const race = createRace({ send: (msg) => send(msg), now: () => matchNow(), title: () => raceTitle(page.game) });
const chat = createChat({ send: (msg) => send(msg) });

// The action bar (a seat's, while the match runs): fixed at the bottom of the window on every
// screen, as a phone table's is: the prompt line, what you choose with (the hand, the game's
// tools, the list of moves, in a box that scrolls if they are tall), the preview and Submit.
// The page's bottom padding is the bar's height (layout()), so nothing is hidden under it.
el.choice = h('div', { class: 'bar-choice' }, el.tools, el.legal);
const actions = h('section', { id: 'actions', class: 'action-bar', 'aria-labelledby': 'actions-title' },
  h('h2', { id: 'actions-title', class: 'sr-only' }, 'Your move'), el.status, el.choice, el.draft, form, el.buttons);

/** Said when this seat's client seed is revealed; taken down once the match has started. */
const REVEALED_WORDS = 'Your client seed is revealed: the match starts when both are.';

function showMessage(kind, text) {
  el.message.className = `notice ${kind}`;
  el.message.textContent = text;
  el.message.hidden = !text;
}

function send(msg) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) {
    showMessage('error', 'Not connected: your action was not sent. Wait for the connection to come back and try again.');
    return false;
  }
  page.socket.send(JSON.stringify(msg));
  return true;
}

function submit(text) {
  el.input.value = text;
  page.shown.submittedFor = page.state ? page.state.decision : null;
  if (sealedDecision()) { commit(text); return; }
  showMessage('info', `Sending ${text}\u2026`);
  // The decision this move is for: if it was decided meanwhile, the server refuses the move
  // (stale_decision) instead of taking it for the next one.
  send({ type: 'submit', move: text, decision: page.state ? page.state.decision : undefined });
}

// A random client seed for provably fair chance (the player may type their own): 128 bits
// from the browser's secure generator, 32 hex digits.
function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const SEED_FORM = /^[A-Za-z0-9_.-]{16,64}$/;

/** The lowercase hex SHA-256 of `text` (UTF-8): the browser's cryptography where the page is
 *  secure, else the same function in script (a table served over plain http on a LAN). */
async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    return hex(await crypto.subtle.digest('SHA-256', data));
  }
  const K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];
  const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const len = data.length;
  const padded = new Uint8Array(Math.ceil((len + 9) / 64) * 64);
  padded.set(data);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  view.setUint32(padded.length - 4, (len * 8) >>> 0);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  const w = new Uint32Array(64);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i += 1) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = H;
    for (let i = 0; i < 64; i += 1) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, k].forEach((v, i) => { H[i] = (H[i] + v) >>> 0; });
  }
  return H.map((v) => v.toString(16).padStart(8, '0')).join('');
}

// ----- client seeds (docs/server-api.md, "Provably fair chance") -----
// A seat joins with only the SHA-256 of its client seed, keeps the seed in localStorage (so a
// reload, or the browser reopened, can still reveal it), and reveals it by itself once the
// state says both seats have committed (`fairness.reveal_due`).
const seedKey = (seat) => `colosseum.clientseed.${id}.${seat}`;

/** The join message for this seat: its name if given and its client seed's hash; the seed is
 *  kept for the reveal. */
async function joinMessage(name, seed) {
  try { localStorage.setItem(seedKey(page.state.you), seed); } catch { /* storage off: the reveal will say so */ }
  const msg = { type: 'join', client_seed_hash: await sha256Hex(seed) };
  if (name) msg.name = name;
  return msg;
}

/** Reveals this seat's client seed once both seats have committed to theirs. */
async function revealIfDue() {
  const f = page.state?.fairness;
  const you = page.state?.you;
  if (!f?.reveal_due || !you || page.socket?.readyState !== WebSocket.OPEN) return;
  const committed = f.client_seed_hashes?.[you];
  if (!committed || f.client_seeds?.[you] || page.revealSent === committed) return;
  let seed = null;
  try { seed = localStorage.getItem(seedKey(you)); } catch { seed = null; }
  if (!seed || (await sha256Hex(seed)) !== committed) {
    showMessage('error', 'This browser does not hold the client seed you joined with (did you join in another browser?), so it cannot reveal it, and the match starts only once it is revealed. Open your seat in the browser you joined from.');
    return;
  }
  if (page.revealSent === committed) return;
  page.revealSent = committed;
  if (send({ type: 'reveal', client_seed: seed })) showMessage('info', 'Both players are in: revealing your client seed\u2026');
}

/** The match's public setup in words, as committed at creation. */
function setupWords(setup) {
  // People are named as they joined (before a join: which seat), never by a seat id.
  const seat = (p) => {
    const s = setup[p];
    const order = p === 'p1' ? 'the first seat' : 'the second seat';
    if (s.kind !== 'bot') return `${page.state.names?.[p] || order}: a person`;
    return `the bot ${s.bot}${s.time_budget ? ' (thinks for a time: its moves cannot be re-checked)' : ''}`;
  };
  const time = setup.time?.kind === 'untimed' ? 'untimed' : `${Math.round((setup.time?.per_decision_ms || 0) / 1000)} s a decision`;
  return [seat('p1'), seat('p2'), time, setup.sealed ? 'sealed' : null].filter(Boolean).join(' \u00b7 ');
}

function short(hex) {
  return hex ? `${hex.slice(0, 12)}…${hex.slice(-6)}` : '';
}

// The fairness panel: how chance was made, and on a finished match the check anyone can run.
function renderFairness() {
  const f = page.state.fairness;
  const parts = [h('h2', { id: 'fairness-title' }, 'Fair chance')];
  if (page.state.practice) {
    parts.push(h('p', { 'data-testid': 'practice' }, 'Practice match: its creator chose the seed, so chance here is not provably fair.'));
  } else if (f) {
    parts.push(h('p', {}, f.setup ? 'Before anyone joined, the server committed to this match\u2019s setup and a secret seed: ' : 'Before anyone joined, the server committed to a secret seed: ',
      h('code', { 'data-testid': 'commitment', title: f.commitment }, short(f.commitment)),
      '. Chance comes from that seed mixed with both players\u2019 client seeds, each committed to before any was shown, so neither the server nor a player could choose it.'));
    if (f.setup) parts.push(h('p', { class: 'muted', 'data-testid': 'setup', title: f.setup_text || '' }, `Setup \u2014 ${setupWords(f.setup)}`));
    const seedWord = (p) => {
      if (f.setup?.[p]?.kind === 'bot') return 'none (a bot)';
      if (f.client_seeds?.[p]) return f.client_seeds[p];
      if (f.client_seed_hashes?.[p]) return f.reveal_due ? 'committed, not revealed yet' : 'committed';
      return 'not yet';
    };
    const seeds = ['p1', 'p2'].map((p) => `${seatName(p)}: ${seedWord(p)}`).join(' \u00b7 ');
    parts.push(h('p', { class: 'muted', 'data-testid': 'client-seeds' }, `Client seeds \u2014 ${seeds}`));
    if (f.reveal_due) parts.push(h('p', { class: 'muted', 'data-testid': 'reveal-due' }, 'Both players have committed to their client seeds: the match starts when both are revealed (your page reveals yours by itself).'));
    if (f.server_seed) {
      parts.push(h('p', {}, 'Server seed, revealed at the end: ', h('code', { 'data-testid': 'server-seed', title: f.server_seed }, short(f.server_seed))));
      const link = h('a', { href: f.verify, id: 'verify-link', target: '_blank' }, 'Check every chance step');
      parts.push(h('p', {}, link, page.verified && !page.verified.pending ? h('span', { 'data-testid': 'verified', class: page.verified.ok ? 'ok' : 'bad' }, page.verified.ok ? ' \u2014 verified: every chance step is what the seeds give.' : ` \u2014 NOT verified: ${page.verified.failure || page.verified.games?.find((g) => g.failure)?.failure}`) : ''));
      if (!page.verified) {
        page.verified = { pending: true };
        // The check runs in the server's bot pool: 202 (being computed) or 503 (busy) say
        // when to ask again (Retry-After); the panel shows "checking" meanwhile.
        const ask = () => fetch(f.verify).then(async (r) => {
          if (r.status === 202 || r.status === 503) {
            setTimeout(ask, Math.min(60, Number(r.headers.get('retry-after')) || 5) * 1000);
            return;
          }
          page.verified = await r.json();
          renderFairness();
        }).catch(() => { page.verified = null; });
        ask();
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
// In a simultaneous decision the page sends only a commitment, the SHA-256 of
// "colosseum-seal-v1", the match id, the decision, the seat, MOVE and NONCE (a fresh random
// 256-bit nonce), one a line, and keeps the move and nonce in sessionStorage so that a reload
// can still open. When the state shows that both seats are in (`sealed.phase` = "open"), it
// opens by itself.
const SEALED_WORDS = 'Sealed: your move is locked in as a commitment; the server learns it only when both have committed.';
const sealedKey = () => `colosseum.sealed.${id}.${page.state?.you}`;

/** Whether this seat's pending decision is sealed (a sealed match, a simultaneous decision). */
function sealedDecision() {
  const m = page.state?.match;
  return !!(page.state?.you && m?.sealed?.phase && m.seats[page.state.you]?.to_act && !m.result);
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function commit(text) {
  if (!globalThis.crypto?.subtle) {
    showMessage('error', 'This sealed match needs the browser\u2019s cryptography, which it gives only to secure pages: open the table over https, or at http://localhost or http://127.0.0.1.');
    return;
  }
  const m = page.state.match;
  if (m.sealed.phase !== 'commit' || m.seats[page.state.you].committed) {
    showMessage('error', 'Your commitment is already in: it cannot change in this decision.');
    return;
  }
  const nonce = hex(crypto.getRandomValues(new Uint8Array(32)));
  // Bound to this match, decision and seat, so the commitment opens nowhere else
  // (docs/server-api.md, "Sealed submissions").
  const decision = page.state.decision;
  const preimage = ['colosseum-seal-v1', id, decision, page.state.you, text, nonce].join('\n');
  const hash = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(preimage)));
  // Kept before sending: if the page reloads right after, it can still open.
  sessionStorage.setItem(sealedKey(), JSON.stringify({ move: text, nonce, hash }));
  showMessage('info', `Sealing ${text}\u2026`);
  send({ type: 'commit', hash, decision });
}

/** The move this tab committed to in the pending decision, if it kept it. */
function keptMove() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(sealedKey()) || 'null');
    return kept && kept.hash === page.state?.match?.seats[page.state.you]?.commitment ? kept.move : null;
  } catch {
    return null;
  }
}

/** Opens this seat's commitment once both are in, from what sessionStorage kept. */
function openIfDue() {
  const m = page.state?.match;
  if (!sealedDecision() || m.sealed.phase !== 'open' || page.socket?.readyState !== WebSocket.OPEN) return;
  const mine = m.seats[page.state.you];
  if (!mine.committed || mine.submitted || page.openingsSent.has(mine.commitment)) return;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(sealedKey()) || 'null'); } catch { kept = null; }
  if (!kept || kept.hash !== mine.commitment) {
    showMessage('error', 'This browser does not hold the move and nonce of your commitment (was it made in another tab or browser?), so it cannot open it. Without an opening the game\u2019s timeout rule applies.');
    return;
  }
  if (send({ type: 'open', move: kept.move, nonce: kept.nonce, decision: page.state.decision })) {
    page.openingsSent.add(mine.commitment);
    showMessage('info', 'Both have committed: opening your commitment\u2026');
  }
}

function stop(node) {
  page.stopped = true;
  if (page.socket) page.socket.close();
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
  if (page.stopped) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  // The seat's token never goes in a URL (proxies log URLs): it rides in a subprotocol, which
  // the server answers with `colosseum`; a token a subprotocol cannot hold is sent as the first
  // message instead (the server refuses it either way if it is no seat's).
  const url = `${proto}://${location.host}/api/matches/${encodeURIComponent(id)}/ws`;
  const inProtocol = token && /^[A-Za-z0-9._~-]+$/.test(token);
  const ws = inProtocol ? new WebSocket(url, ['colosseum', `colosseum.token.${token}`]) : new WebSocket(url);
  page.socket = ws;
  ws.addEventListener('open', () => {
    if (token && !inProtocol) ws.send(JSON.stringify({ type: 'auth', token }));
    page.attempts = 0;
    page.openingsSent.clear();
    page.revealSent = null;
    openIfDue();
    autoJoin();
    revealIfDue();
    if (page.pendingJoin) {
      ws.send(JSON.stringify(page.pendingJoin));
      page.pendingJoin = null;
    }
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
      if (msg.to === 'submit') {
        // Said only while that decision is still pending: after the reveal it would be stale.
        if (page.state && page.state.decision === page.shown.submittedFor && !page.state.match.result) showMessage('ok', 'Move accepted. It stays hidden from your opponent until both have moved.');
        // Sent: the status line says what was played; the chosen card stays marked from it.
        page.ui.draft = null;
        if (page.state) renderAll();
      }
      else if (msg.to === 'lock') showMessage('ok', 'Locked: your move can no longer change.');
      else if (msg.to === 'commit') {
        showMessage('ok', SEALED_WORDS);
        page.ui.draft = null; // committed: the status line says what was chosen
        if (page.state) renderAll();
      }
      else if (msg.to === 'open') showMessage('ok', 'Opened: your move is revealed when both have opened.');
      else if (msg.to === 'join') showMessage('ok', 'You have taken your seat.');
      else if (msg.to === 'reveal' && (!page.state || page.state.status === 'waiting')) showMessage('ok', REVEALED_WORDS);
      else if (msg.to === 'resign') showMessage('info', 'You resigned.');
      else if (msg.to === 'answer') race.answered(msg); // social
      else if (msg.to === 'chat') chat.answered(msg); // social
    } else if (msg.type === 'error' && msg.to === 'answer') {
      race.answered(msg); // social
    } else if (msg.type === 'error' && msg.to === 'chat') {
      chat.answered(msg); // social
    } else if (msg.type === 'error') {
      const what = msg.to === 'submit' ? 'Move refused' : msg.to ? `${msg.to[0].toUpperCase()}${msg.to.slice(1)} refused` : 'Refused';
      showMessage('error', `${what}. ${friendlyError(msg.error?.message)}`);
    }
  });
  ws.addEventListener('close', async () => {
    if (page.socket !== ws || page.stopped) return;
    document.body.dataset.connected = 'false';
    page.attempts += 1;
    const delay = Math.min(10000, 500 * 2 ** Math.min(page.attempts - 1, 5));
    el.conn.hidden = false;
    el.conn.className = 'notice error';
    el.conn.textContent = `Connection lost. Reconnecting in ${Math.round(delay / 100) / 10} s (attempt ${page.attempts})\u2026`;
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

/** "Ada (you) vs Computer: random moves", or "Ann vs Bob" for a spectator: names, never seats. */
function whoPlays() {
  const you = page.state.you;
  if (!you) return `${seatName('p1')} vs ${seatName('p2')} \u00b7 you are watching`;
  return `${seatName(you)} (you) vs ${seatName(other(you))}`;
}

/** A seat's box at the top: its colour, name ("you" for this browser's seat) and the game's
 *  headline score (the module's `headline`), what it is doing, its clock. */
function seatPanel(seat, parts) {
  const m = page.state.match;
  const info = m.seats[seat];
  const you = page.state.you;
  const nm = nameOf(page.state, seat);
  const doing = seatDoing(page.state, seat, raceName(page.game));
  const score = parts?.headline?.[seat];
  return h('div', { class: `seat-panel ${seat}${info.to_act && !info.submitted ? ' active' : ''}`, 'data-seat': seat },
    h('div', { class: 'seat-name' }, h('span', { class: `swatch ${seat}`, 'aria-hidden': 'true' }), `${nm}`, seat === you ? h('small', {}, ' (you)') : null),
    h('div', { class: 'seat-line' },
      score !== undefined && score !== null ? h('strong', { class: 'seat-score', 'data-testid': `score-${seat}` }, String(score)) : null,
      h('span', { class: 'seat-status', 'data-testid': `status-${seat}` }, doing)),
    h('div', { class: 'clock', 'data-clock': seat, role: 'timer', 'aria-label': `${nm}\u2019s clock` }, ''),
    h('div', { class: 'clock-warning', 'data-clock-warning': seat, 'aria-live': 'assertive' }, ''));
}

/** Closes the result overlay: the result stays, docked at the top of the page. */
function dockResult(focus = true) {
  if (!el.result.classList.contains('overlay')) return;
  el.result.classList.remove('overlay');
  el.result.setAttribute('role', 'region');
  if (focus) el.result.querySelector('[data-testid=result-head]')?.focus({ preventScroll: true });
  layout();
}

/** The page's measures after a render or a resize: the bottom padding is the action bar's
 *  height (or the result overlay's), and the board is capped to the window's height left
 *  between its top and the bar, so that its cells are never under the bar. */
function layout() {
  const root = document.documentElement;
  const phone = window.matchMedia('(max-width: 760px)').matches;
  const sheet = el.result.classList.contains('overlay') && !el.result.hidden ? el.result.getBoundingClientRect().height : 0;
  const top = el.board.getBoundingClientRect().top + window.scrollY;
  if (phone) {
    // Fixed at the bottom: the page is padded by its height, the board fits above it.
    const bar = actions.hidden ? 0 : actions.getBoundingClientRect().height;
    root.style.setProperty('--bar-h', `${Math.ceil(Math.max(bar, sheet))}px`);
    root.style.removeProperty('--bar-max');
    // The board's frame (padding, legend) is about 40 px; what is left is the picture's.
    root.style.setProperty('--board-room', `${Math.max(260, Math.floor(window.innerHeight - bar - top - 40))}px`);
    root.style.setProperty('--sticky-h', `${Math.ceil(el.players.getBoundingClientRect().height + 8)}px`);
  } else {
    root.style.removeProperty('--sticky-h');
    // Beside the board: the bar ends within the first viewport, its choices scrolling inside.
    root.style.setProperty('--bar-h', `${Math.ceil(sheet)}px`);
    const barTop = actions.hidden ? 0 : actions.getBoundingClientRect().top + window.scrollY;
    root.style.setProperty('--bar-max', `${Math.max(260, Math.floor(window.innerHeight - barTop - 8))}px`);
    root.style.setProperty('--board-room', `${Math.max(320, Math.floor(window.innerHeight - top - 24))}px`);
  }
}

function updateClocks() {
  if (!page.state) return;
  const m = page.state.match;
  const since = matchNow();
  race.tick(); // social
  for (const seat of ['p1', 'p2']) {
    const node = document.querySelector(`[data-clock="${seat}"]`);
    const warn = document.querySelector(`[data-clock-warning="${seat}"]`);
    if (!node) continue;
    const c = m.seats[seat].clock || {};
    const setWarn = (text) => { if (warn && warn.textContent !== text) warn.textContent = text; };
    const untimed = !m.time_control || m.time_control.kind === 'untimed';
    node.classList.toggle('untimed', untimed); // a phone leaves the word out
    if (untimed) { node.textContent = 'untimed'; setWarn(''); continue; }
    const bank = c.bank_ms ? ` \u00b7 bank ${clockText(c.bank_ms)}` : '';
    if (m.result || c.deadline === null || c.deadline === undefined || !page.state.started_at) {
      node.textContent = `\u2014${bank}`;
      node.classList.remove('low');
      setWarn('');
      continue;
    }
    const turnLeft = c.turn_deadline !== null && c.turn_deadline !== undefined ? c.turn_deadline - since : null;
    const left = c.deadline - since;
    if (turnLeft !== null && turnLeft > 0) node.textContent = `${clockText(turnLeft)}${bank}`;
    else node.textContent = `bank ${clockText(left)}`;
    const low = clockLevel(left, m.time_control.per_decision_ms) === 'low' && !m.seats[seat].submitted;
    node.classList.toggle('low', low);
    setWarn(low ? (seat === page.state.you ? `Hurry: ${clockText(left)} left, then the rules move for you.` : `${clockText(left)} left`) : '');
  }
}

/** Match time now (ms since the start), from the last state and the time since it came. */
function matchNow() {
  const serverNow = page.state.server_now + (Date.now() - page.receivedAt);
  return page.state.started_at ? serverNow - page.state.started_at : 0;
}

function seatName(seat) {
  return nameOf(page.state, seat);
}

/** The shareable links: the invite (this browser's lobby made it) and the spectators'. */
function renderShare() {
  const waiting = page.state.status === 'waiting';
  const invite = inviteLink();
  if (el.share.dataset.for === `${waiting}:${invite}`) return;
  el.share.dataset.for = `${waiting}:${invite}`;
  const row = (label, url, testid) => {
    const status = h('span', { class: 'copied', 'aria-live': 'polite' });
    const inputId = `link-${testid}`;
    return h('div', { class: 'link-row' },
      h('label', { for: inputId }, label),
      h('input', { id: inputId, type: 'text', readonly: true, value: url, 'data-testid': testid, onfocus: (e) => e.target.select() }),
      h('button', { type: 'button', 'data-copy': testid, onclick: async () => { status.textContent = (await copy(url)) ? 'Copied.' : 'Select the link and copy it.'; } }, 'Copy'),
      status);
  };
  const spectate = new URL(`/m/${id}`, location.origin).href;
  // replaceChildren is the DOM's (not h): it would write a null as the text "null".
  // Waiting for a friend: the panel is at the top of the table (above the board) with the
  // invite link, Copy, the system's share sheet where there is one, and a QR code to scan;
  // once the match runs it is the side column's Share panel (the spectators' link).
  const inviting = waiting && !!invite;
  const share = inviting && typeof navigator.share === 'function'
    ? h('button', { type: 'button', id: 'share-invite', class: 'primary', onclick: () => navigator.share({ title: page.title, text: `Play ${page.title} with me`, url: invite }).catch(() => {}) }, 'Share\u2026')
    : null;
  const qr = inviting ? h('img', { class: 'qr', 'data-testid': 'invite-qr', alt: 'QR code of the invite link: scan it with the other phone', width: 168, height: 168, hidden: true }) : null;
  el.share.replaceChildren(...[h('h2', {}, inviting ? 'Invite your opponent' : 'Share'),
    inviting ? h('p', { class: 'status-line' }, 'Waiting for your friend to join: the match starts when they open this link.') : null,
    inviting ? row('Invite link: send it to your friend', invite, 'invite-link') : null,
    share,
    qr,
    row('Spectators (anyone may watch)', spectate, 'spectator-link')].filter(Boolean));
  el.share.classList.toggle('inviting', inviting);
  const home = inviting ? el.top : el.side;
  if (home && el.share.parentNode !== home) home.insertBefore(el.share, home === el.side ? el.fair : null);
  el.share.hidden = false;
  if (qr) {
    fetch('/api/qr', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: invite }) })
      .then(async (r) => {
        if (!r.ok) return;
        qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await r.text())}`;
        qr.hidden = false;
      })
      .catch(() => {});
  }
}

/** The reveal as an event: both moves side by side and the round's result, above the board. */
function renderRoundResult(last, live) {
  const box = el.roundResult;
  if (!last) { box.hidden = true; box.replaceChildren(); page.shown.revealKey = null; return; }
  if (page.shown.revealKey === last.key && box.firstChild) return;
  // A reveal that happens while the page is open (not the one found on loading it).
  const fresh = live && page.shown.revealKey !== last.key;
  page.shown.revealKey = last.key;
  const you = page.state.you;
  const chip = (seat) => (last.moves?.[seat] ? h('div', { class: `reveal-move ${seat}`, 'data-seat': seat },
    h('span', { class: 'reveal-who' }, h('span', { class: `swatch ${seat}`, 'aria-hidden': 'true' }), seat === you ? 'You' : seatName(seat)),
    h('strong', { class: 'reveal-play' }, last.moves[seat])) : null);
  const seats = you === 'p2' ? ['p2', 'p1'] : ['p1', 'p2'];
  box.replaceChildren(
    h('div', { class: 'reveal-moves' }, seats.map(chip)),
    h('p', { class: 'reveal-sentence', 'data-testid': 'reveal-sentence' }, last.sentence));
  box.hidden = false;
  box.dataset.key = last.key;
  // A short flash for a reveal that happens while the page is open (not on load); CSS drops it
  // under prefers-reduced-motion.
  box.classList.remove('fresh');
  if (fresh) {
    void box.offsetWidth;
    box.classList.add('fresh');
  }
}

function renderAll() {
  const m = page.state.match;
  const you = page.state.you;
  const canAct = !!you && page.state.status === 'live' && m.seats[you].to_act && !m.seats[you].locked
    && !(m.sealed?.phase && m.seats[you].committed);
  const names = (seat) => nameOf(page.state, seat);
  const live = page.lastSteps !== -1; // the page had rendered a state before this one
  if (page.state.steps !== page.lastSteps) {
    const focus = page.ui.focus;
    for (const k of Object.keys(page.ui)) delete page.ui[k];
    if (focus) page.ui.focus = focus;
    if (page.lastSteps !== -1) el.input.value = '';
  }
  const focusedCell = document.activeElement?.closest?.('#board [data-cell]')?.dataset.cell;
  const ctx = {
    you,
    names: { p1: names('p1'), p2: names('p2') },
    legal: page.state.legal_moves,
    canAct,
    decision: m.decision,
    submission: you ? m.seats[you].submission ?? null : null,
    draft: page.ui.draft ?? null,
    pick,
    compose: (text) => { el.input.value = text; },
    addToBox: (t) => { pick(`${el.input.value.trim()} ${t}`.trim()); },
    rerender: () => renderAll(),
    get focus() { return page.ui.focus; },
    set focus(v) { page.ui.focus = v; },
    memory: page.memory,
  };
  const parts = render(page.game, m.view, ctx, page.ui);
  page.shown.parts = parts;

  if (page.state.steps !== page.lastSteps) {
    if (page.lastSteps !== -1) {
      // A new decision: the last one's "Move accepted" is stale. Say when the clock played.
      const late = timeoutNotice(page.state, parts.last);
      if (late) showMessage(late.kind, late.text);
      else if (!el.message.classList.contains('error') || m.result) showMessage('', '');
    }
    page.lastSteps = page.state.steps;
  }
  renderRoundResult(parts.last, live);

  // replaceChildren is the DOM's (not h): a null would read "null", hence the filter.
  el.head.replaceChildren(...[h('div', { class: 'head-text' },
    h('h1', {}, page.title, ' ', h('span', { class: `badge ${page.state.status}`, 'data-testid': 'match-status' }, page.state.status),
      m.sealed ? h('span', { class: 'badge sealed', 'data-testid': 'sealed', title: 'moves are sent as commitments first' }, 'sealed') : null),
    h('p', { class: 'muted', 'data-testid': 'table-who' }, m.game_number > 1 ? `Game ${m.game_number} (earlier games were drawn) \u00b7 ` : '',
      whoPlays(), ' \u00b7 ', h('a', { href: `/rules/${m.game}`, target: '_blank' }, 'rules'))),
    you && !m.result ? el.more : null].filter(Boolean));
  renderResign(!!you && page.state.status === 'live' && !m.result);
  el.players.replaceChildren(seatPanel('p1', parts), seatPanel('p2', parts));

  // Join: a seat that came from the lobby's Create is joined under the name typed there.
  if (you && !page.state.joined[you] && page.state.status !== 'finished') {
    el.join.hidden = false;
    if (!el.join.firstChild) {
      const nameIn = h('input', { id: 'join-name', type: 'text', maxlength: 40, value: localStorage.getItem('colosseum.name') || '', placeholder: 'your name', autocomplete: 'nickname' });
      const seedIn = h('input', { id: 'client-seed', type: 'text', maxlength: 64, value: randomSeed(), pattern: '[A-Za-z0-9_.\\-]{16,64}', autocomplete: 'off', spellcheck: 'false' });
      const seedBox = h('details', { class: 'client-seed' }, h('summary', {}, 'Your client seed (optional)'),
        h('p', { class: 'hint' }, 'Chance in this match mixes the server\u2019s committed seed with a seed from each player. One was made at random for you; you may type your own (16 to 64 letters, digits, _ . -, hard to guess). Only its hash is sent when you join; the seed itself once both players are in.'),
        h('label', { for: 'client-seed' }, 'Client seed '), seedIn);
      const f = h('form', { class: 'card' }, h('h2', {}, 'Take your seat'), h('label', { for: 'join-name' }, 'Your name '), nameIn, ' ', h('button', { type: 'submit', class: 'primary' }, 'Join'), seedBox);
      f.addEventListener('submit', (e) => {
        e.preventDefault();
        const n = nameIn.value.trim();
        if (n) localStorage.setItem('colosseum.name', n);
        const seed = seedIn.value.trim() || randomSeed();
        if (!SEED_FORM.test(seed)) {
          showMessage('error', 'A client seed is 16 to 64 letters, digits, _ . or -: type another, or leave the one made for you.');
          return;
        }
        joinMessage(n, seed).then((msg) => {
          // The form can be shown from the HTTP state before the socket is open: the join then
          // waits for the connection instead of being dropped.
          if (page.socket?.readyState === WebSocket.OPEN) send(msg);
          else {
            page.pendingJoin = msg;
            showMessage('info', 'Connecting: you take your seat as soon as the connection is open.');
          }
        });
      });
      el.join.replaceChildren(f);
    }
  } else {
    el.join.hidden = true;
    el.join.replaceChildren();
  }

  // Result.
  if (m.result) {
    const r = resultText(page.state);
    if (!el.message.classList.contains('error')) showMessage('', '');
    if (!el.result.firstChild || el.result.dataset.for !== page.state.id) {
      el.result.dataset.for = page.state.id;
      const rematchNote = h('span', { class: 'rematch-note', 'aria-live': 'polite' });
      const rematch = you ? h('button', { type: 'button', id: 'rematch', class: 'button primary', onclick: () => startRematch(rematchNote) }, 'Rematch (seats swapped)') : null;
      const close = h('button', { type: 'button', id: 'result-close', class: 'result-close', 'aria-label': 'Close the result', onclick: () => dockResult() }, '\u2715');
      const head = h('h2', { id: 'result-title', 'data-testid': 'result-head', tabindex: '-1' }, r.head);
      const replay = `/replay/${page.state.id}`;
      el.result.replaceChildren(h('div', { class: `card result ${m.result.winner ? (m.result.winner === you ? 'win' : you ? 'loss' : '') : 'draw'}` },
        close, head, h('p', { 'data-testid': 'result-reason' }, r.body),
        el.resultScore,
        el.offer,
        h('p', { class: 'buttons' }, rematch, h('a', { href: `${replay}?analysis`, class: 'button', id: 'analyse-link' }, 'Analyse'),
          h('a', { href: replay, class: 'button', id: 'replay-link' }, 'Replay'), h('a', { href: '/', class: 'button' }, 'Lobby'),
          page.state.fairness?.verify ? h('a', { href: '#fairness', class: 'button', id: 'fair-link', onclick: () => dockResult(false) }, 'Check the chance') : null, rematchNote)));
      // The end happens where the player is: the result opens over the page (wherever it was
      // scrolled), the focus in it; Escape or Close docks it at the top of the page.
      el.result.classList.add('overlay');
      el.result.setAttribute('role', 'dialog');
      el.result.hidden = false;
      head.focus({ preventScroll: true });
    }
    el.resultScore.replaceChildren(...(parts.headline ? [h('span', {}, 'Score: '), ...['p1', 'p2'].map((p, i) => h('span', { class: 'result-score-seat', 'data-testid': `result-score-${p}` },
      i ? ' \u00b7 ' : '', h('span', { class: `swatch ${p}`, 'aria-hidden': 'true' }), `${seatName(p)} ${parts.headline[p]}`))] : []));
    el.resultScore.hidden = !parts.headline;
    renderOffer();
    el.result.hidden = false;
  } else {
    el.result.hidden = true;
    el.result.classList.remove('overlay');
  }

  el.paused.hidden = !(page.state.paused && !m.result);
  el.board.replaceChildren(...[parts.board, parts.legend ? h('p', { class: 'hint legend' }, parts.legend) : null].filter(Boolean));
  el.board.hidden = !parts.board;
  if (focusedCell) el.board.querySelector(`[data-cell="${focusedCell}"]`)?.focus();
  // A game that shows no hand to this viewer (a spectator of a board game) has no Hands panel.
  el.hand.replaceChildren(...(parts.hand ? [h('h2', {}, 'Hands'), parts.hand] : []));
  el.hand.hidden = !parts.hand;
  el.score.replaceChildren(h('h2', {}, 'Score'), parts.score || h('p', { class: 'muted' }, '\u2014'));
  // social: the server's complete move log (every step this viewer may know, with names).
  el.log.replaceChildren(h('h2', {}, 'Moves'), (m.moves ? moveLog(m.moves, { p1: seatName('p1'), p2: seatName('p2') }, page.game.kindWords, (mv, kind) => moveLabel(page.game, mv, kind)) : parts.log) || h('p', { class: 'muted' }, '\u2014'));
  const ol = el.log.querySelector('ol.log');
  if (ol) ol.scrollTop = ol.scrollHeight;
  el.tools.replaceChildren(...[parts.tools].filter(Boolean));

  // Actions (seats only): the bar at the bottom while the match runs, the seat's hand in it.
  actions.hidden = !you || !!m.result || page.state.status === 'waiting';
  // The hand is in the bar when it is what the seat chooses with (a card it can click now);
  // otherwise (a board game's stones, a spectator, the end) it is a panel of the side column.
  const handChooses = !actions.hidden && !!el.hand.querySelector('button:not([disabled])');
  const handHome = handChooses ? el.choice : el.side;
  if (el.hand.parentNode !== handHome) handHome?.insertBefore(el.hand, handChooses ? el.tools : el.score);
  // On a phone the bar keeps only the rows of the hand you can play from (style.css); both
  // hands stay readable in the side column, as a still copy.
  el.handsCopy.hidden = !handChooses;
  if (handChooses) {
    const still = el.hand.cloneNode(true);
    still.querySelectorAll('[id], [data-testid]').forEach((x) => { x.removeAttribute('id'); x.removeAttribute('data-testid'); });
    still.querySelectorAll('button').forEach((b) => { b.disabled = true; b.removeAttribute('aria-pressed'); });
    still.querySelector('h2')?.remove();
    el.handsCopy.replaceChildren(h('h2', {}, 'Hands'), ...still.childNodes);
  } else {
    el.handsCopy.replaceChildren();
  }
  if (you) {
    const mine = m.seats[you];
    const line = statusLine(page.state, { kept: keptMove(), invite: inviteLink(), sealedWords: SEALED_WORDS, race: raceName(page.game) });
    // The game's own prompt (what to do, with the numbers that matter) when the seat can act.
    const yourMove = canAct && !mine.submitted && !page.state.paused && !(m.race && !m.race.over);
    el.status.textContent = (yourMove && typeof parts.prompt === 'string' && parts.prompt) || line;
    // A new decision for this seat (after a reveal the next one comes at once) alerts once; the
    // one found on loading the page does not.
    const decisionKey = `${m.game_number || 1}:${page.state.decision}`;
    if (yourMove && live && page.shown.alertedFor !== decisionKey) yourMoveAlert(el.status.textContent);
    if (yourMove) page.shown.alertedFor = decisionKey;
    const legal = canAct && Array.isArray(page.state.legal_moves) && parts.listLegal !== false ? page.state.legal_moves : [];
    const label = parts.label || ((mv) => mv);
    const buttons = () => h('div', { class: 'legal-list' }, legal.map((mv) => h('button', {
      type: 'button', class: `move${(page.ui.draft ?? mine.submission) === mv ? ' chosen' : ''}`, 'data-move': mv,
      'aria-pressed': String(page.ui.draft === mv), onclick: () => pick(page.ui.draft === mv ? null : mv),
    }, label(mv))));
    let legalParts = [];
    if (legal.length && parts.builds) {
      const open = el.legal.querySelector('details')?.open;
      legalParts = [h('details', { class: 'legal', open: open || undefined }, h('summary', {}, `Or choose from the list of moves (${legal.length})`), buttons())];
    } else if (legal.length) {
      legalParts = [h('p', { class: 'hint' }, 'Choose a move, then Submit:'), buttons()];
    } else if (canAct && page.state.legal_moves === null) {
      legalParts = [h('p', { class: 'hint' }, 'Too many moves to list: build it on the board or type it.')];
    }
    el.legal.replaceChildren(...legalParts);
    el.input.placeholder = placeholderFor(page.game, m.decision);
    el.input.setAttribute('aria-label', `your move, typed (${placeholderFor(page.game, m.decision).replace(/^or type a move: /, 'for example ')})`);
    form.querySelectorAll('input, button').forEach((x) => { x.disabled = !canAct; });
    clearButton.hidden = !page.ui.draft && !el.input.value;
    showDraft();
    if (!canAct) el.draft.hidden = true;
    const btns = [];
    if (canAct && mine.submitted && !mine.locked && !m.sealed?.phase) btns.push(h('button', { type: 'button', id: 'lock', onclick: () => send({ type: 'lock', decision: page.state.decision }) }, 'Lock my move'));
    el.buttons.replaceChildren(...btns);
    el.buttons.hidden = !btns.length;
    renderShare();
  } else {
    el.share.hidden = true;
  }
  layout();
  document.title = pageTitle(page.title, { yourMove: canAct && !m.seats[you]?.submitted, finished: !!m.result });
  race.render(page.state); // social
  chat.update(page.state); // social
  renderFairness();
  updateClocks();
  document.body.dataset.steps = String(page.state.steps);
  document.body.dataset.status = page.state.status;
  document.body.dataset.game = m.game;
  document.body.dataset.canAct = String(canAct && !m.seats[you]?.submitted);
}

/** A rematch: the same game and options, seats swapped (`POST /api/matches/{id}/rematch`, made
 *  once: the other seat's page is told and offers its seat). This browser goes to its new seat,
 *  joined under its name. */
async function startRematch(note) {
  const res = await api(`/api/matches/${encodeURIComponent(id)}/rematch`, { token, method: 'POST' });
  if (!res.ok) { note.textContent = ` Rematch not created: ${friendlyError(errorText(res))}`; return; }
  const seat = res.data.seat;
  rememberSeat(res.data.id, res.data.links[seat], res.data.links[other(seat)]);
  takeSeat(res.data.id, res.data.link);
}

/** Goes to a seat of the rematch `matchId`, joined at once under this seat's name. */
function takeSeat(matchId, link) {
  const n = page.state.names?.[page.state.you];
  sessionStorage.setItem(`colosseum.autojoin.${matchId}`, n || localStorage.getItem('colosseum.name') || '');
  location.assign(link);
}

/** The rematch a seat offered (the state's `rematch`), in the result card: the other player is
 *  told and given their seat; the one who offered it, and spectators, get a link too. */
function renderOffer() {
  const offer = page.state.rematch;
  const you = page.state.you;
  if (!offer) { el.offer.hidden = true; el.offer.replaceChildren(); return; }
  if (el.offer.dataset.for === `${offer.id}:${you}` && el.offer.firstChild) { el.offer.hidden = false; return; }
  el.offer.dataset.for = `${offer.id}:${you}`;
  const by = offer.by === you ? 'You' : seatName(offer.by);
  let parts;
  if (!you) {
    parts = [`${by} offered a rematch (seats swapped). `, h('a', { href: offer.link, id: 'rematch-watch' }, 'Watch it')];
  } else if (offer.by === you) {
    const bot = page.state.match.seats[other(you)]?.player?.kind === 'bot';
    parts = [bot ? 'You started a rematch (seats swapped). ' : `You offered a rematch (seats swapped); ${seatName(other(you))}’s table shows it. `,
      h('a', { href: offer.link, id: 'rematch-go', class: 'button', onclick: (e) => { e.preventDefault(); takeSeat(offer.id, offer.link); } }, 'Go to your seat')];
  } else {
    parts = [h('strong', {}, `${by} offers a rematch`), ' (seats swapped) \u2014 ',
      h('a', { href: offer.link, id: 'rematch-take', class: 'button primary', onclick: (e) => { e.preventDefault(); takeSeat(offer.id, offer.link); } }, 'Take your seat')];
  }
  el.offer.replaceChildren(...parts);
  el.offer.hidden = false;
}

/** Remembers a seat this browser made, as the lobby does (its "Your seats" list). */
function rememberSeat(matchId, link, invite) {
  try {
    const list = JSON.parse(localStorage.getItem('colosseum.mine') || '[]').filter((e) => e.id !== matchId);
    list.unshift({ id: matchId, game: page.title, link, invite: page.state.match.seats[other(page.state.you)]?.player?.kind === 'bot' ? null : invite, at: Date.now() });
    localStorage.setItem('colosseum.mine', JSON.stringify(list.slice(0, 20)));
  } catch { /* storage full or off: the link still works */ }
}

/** Joins at once when the lobby (or a rematch) sent this browser here with a name. */
function autoJoin() {
  const key = `colosseum.autojoin.${id}`;
  const n = sessionStorage.getItem(key);
  if (n === null || !page.state?.you || page.state.joined[page.state.you] || page.socket?.readyState !== WebSocket.OPEN) return;
  sessionStorage.removeItem(key);
  joinMessage(n, randomSeed()).then((msg) => send(msg));
}

function onState(msg) {
  if (page.state && msg.server_now < page.state.server_now) return; // an older answer
  page.state = msg;
  page.receivedAt = Date.now();
  // "The match starts when both are" is stale once it has started.
  if (msg.status !== 'waiting' && el.message.textContent === REVEALED_WORDS) showMessage('', '');
  renderAll();
  openIfDue();
  autoJoin();
  revealIfDue();
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
  [page.title, page.game] = await Promise.all([gameName(res.data.match.game), loadGame(res.data.match.game)]);
  document.title = pageTitle(page.title);
  el.players.classList.add('players');
  // The side column: the move log (movelog.js) and the chat (chat.js) between the score and the
  // share links; the reveal banner (el.roundResult) and a live race stay above the board.
  el.handsCopy = h('section', { class: 'panel hands-copy', id: 'hands-copy', inert: true, hidden: true });
  el.side = h('div', { class: 'side' }, actions, el.hand, el.handsCopy, el.score, el.log, chat.box, el.share, el.fair);
  // el.top: the invite panel while this seat waits for a friend (renderShare moves it there).
  el.top = h('div', { class: 'table-top' });
  mount(el.head, el.conn, el.paused, el.message, el.result, el.top, el.join, el.roundResult, race.box,
    h('div', { class: 'table' }, el.players, el.board, el.side),
    token ? null : h('p', { class: 'muted' }, 'You are watching. Moves stay hidden until both players have moved.'));
  document.body.classList.add('has-bar');
  window.addEventListener('resize', () => { if (page.state) layout(); });
  // Whatever moves the bar or the board (a notice going, the reveal banner, the bar's own
  // contents) lays the page out again.
  if (globalThis.ResizeObserver) {
    const watch = new ResizeObserver(() => { if (page.state) layout(); });
    for (const node of [document.querySelector('main'), actions, el.head, el.top, el.join, el.roundResult, race.box, el.paused, el.message, el.conn, el.players, el.result].filter(Boolean)) watch.observe(node);
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && el.result.classList.contains('overlay') && !el.result.hidden) dockResult();
  });
  onState(res.data);
  connect();
  setInterval(updateClocks, 250);
  setInterval(() => { if (page.socket?.readyState === WebSocket.OPEN) page.socket.send('{"type":"ping"}'); }, 25000);
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || document.activeElement === el.input || document.activeElement === race.input
      || document.activeElement?.closest?.('#chat')) return;
    e.preventDefault();
    if (race.focusable()) race.focus();
    else el.input.focus();
  });
}

main();
