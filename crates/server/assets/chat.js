// The table's chat (docs/server-api.md, "Chat"): a seat writes in and reads the players' chat,
// a spectator the spectators' chat, under a name of its own. The server sends each role only its
// own channel (`match.chat`); messages are shown as text (textContent), never as HTML.
import { h, clockText } from './common.js';

const MAX = 500;

/** The chat panel. `send(msg)` sends a WebSocket message and says whether it went out. */
export function createChat({ send }) {
  let role = null; // 'seat' or 'spectator', once known
  let shown = ''; // the lines on screen, to redraw only on change
  const title = h('h2', { id: 'chat-title' }, 'Chat');
  const about = h('p', { class: 'hint', id: 'chat-about' });
  const list = h('ol', { class: 'chat-lines', 'data-testid': 'chat-lines', tabindex: '0', 'aria-live': 'polite', 'aria-labelledby': 'chat-title' });
  const nameIn = h('input', { id: 'chat-name', type: 'text', maxlength: 40, autocomplete: 'nickname', placeholder: 'your name', value: localStorage.getItem('colosseum.chat-name') || '' });
  const nameBox = h('label', { class: 'chat-name', for: 'chat-name' }, 'Name ', nameIn);
  const input = h('input', { id: 'chat-text', type: 'text', maxlength: MAX, autocomplete: 'off', 'aria-label': 'chat message', placeholder: 'a message' });
  const feedback = h('p', { id: 'chat-feedback', class: 'notice', role: 'alert', hidden: true });
  const form = h('form', { id: 'chat-form', class: 'notation' }, nameBox, input, h('button', { type: 'submit', id: 'chat-send' }, 'Send'));
  const box = h('section', { id: 'chat', class: 'panel chat', 'aria-labelledby': 'chat-title', hidden: true }, title, about, list, form, feedback);
  let pending = null;

  function say(kind, text) {
    feedback.className = `notice ${kind}`;
    feedback.textContent = text;
    feedback.hidden = !text;
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) { say('error', 'Type a message first.'); return; }
    const msg = { type: 'chat', text };
    if (role === 'spectator') {
      const name = nameIn.value.trim();
      if (!name) { say('error', 'Spectators chat under a name: type one first.'); nameIn.focus(); return; }
      localStorage.setItem('colosseum.chat-name', name);
      msg.name = name;
    }
    if (send(msg)) { pending = text; say('', ''); }
  });

  return {
    box,
    /** Draws the chat from a state message. */
    update(state) {
      const m = state.match;
      // Open from the start and after the end too (a "gg"): only a match nobody has joined yet
      // has no chat.
      const open = state.status === 'live' || state.status === 'finished';
      role = state.you ? 'seat' : 'spectator';
      box.hidden = state.status === 'waiting' && !(m.chat || []).length;
      box.dataset.channel = state.you ? 'players' : 'spectators';
      title.textContent = state.you ? 'Players\u2019 chat' : 'Spectators\u2019 chat';
      about.textContent = (state.you
        ? 'Only you and your opponent read this. Spectators have their own chat, which players do not see.'
        : 'Only spectators read this. The players do not see it, and you do not see theirs.')
        + (m.result ? ' The game is over; the chat stays open.' : '');
      nameBox.hidden = !!state.you;
      form.hidden = !open;
      const lines = m.chat || [];
      const key = JSON.stringify(lines);
      if (key !== shown) {
        shown = key;
        const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
        list.replaceChildren(...(lines.length ? lines.map((l) => h('li', { class: `chat-line${l.seat && l.seat === state.you ? ' mine' : ''}` },
          h('span', { class: 'muted' }, `${clockText(l.at)} `),
          h('strong', { class: 'chat-who' }, l.name),
          ': ',
          h('span', { class: 'chat-text' }, l.text))) : [h('li', { class: 'muted' }, open ? 'No messages yet.' : 'No messages.')]));
        if (stick) list.scrollTop = list.scrollHeight;
      }
    },
    /** The server's answer to a chat message. */
    answered(msg) {
      if (msg.type === 'ok') {
        if (pending !== null && input.value.trim() === pending) input.value = '';
        pending = null;
        say('', '');
      } else {
        pending = null;
        say('error', `Message not sent: ${msg.error?.message || 'unknown error'}`);
      }
    },
  };
}
