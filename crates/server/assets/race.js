// A live race as an event (GameEntry::races: a game whose chance steps of one kind a trivia race
// between the seats decides), from the state's `match.race` (the open or last race) and
// `match.races` (every finished race, with its winner or nobody and its accepted answers): the
// question with the prize pair on offer, the countdown, each seat's lockout, and a finished state
// for every race, also one that timed out while the next opened at once, or while the server was
// down. The game's module names the race (`races.name`). How long a race lasts and a lockout holds
// come from the state (`race.lasts_ms`, `race.lockout_ms`: the trivia crate's RACE_MS and
// LOCKOUT_MS), never from numbers of the page's own.
import { h, clockText, other } from './common.js';
import { withNames } from './movelog.js';
import { seatName as nameOf } from './present.js';

/** The prizes on offer, in words: "4 or 2A". */
export function prizeText(prizes) {
  return (prizes || []).join(' or ');
}

/** A duration in words: whole minutes as "3 minutes", anything else in seconds ("30 s"). */
export function durationText(ms) {
  const minutes = ms / 60000;
  if (Number.isInteger(minutes) && minutes > 0) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(ms / 1000)} s`;
}

/** The finished race to show beside `race` (the open one): the last finished race before it. */
export function previousRace(race, races) {
  const done = (races || []).filter((f) => f.opened_at !== race?.opened_at);
  return done.length ? done[done.length - 1] : null;
}

/**
 * The race panel. `send(msg)` sends a WebSocket message (true if it went out); `now()` is the
 * match time now (ms since the start); `title()` the race's title (present.js's raceTitle).
 */
export function createRace({ send, now, title = () => 'The live race' }) {
  let state = null;
  const race = {
    box: h('section', { id: 'race', class: 'panel race', hidden: true, 'aria-labelledby': 'race-title' }),
    title: h('h2', { id: 'race-title' }),
    prize: h('p', { id: 'race-prize', class: 'race-prize', 'data-testid': 'race-prize' }),
    category: h('p', { id: 'race-category', class: 'muted' }),
    question: h('p', { id: 'race-question', class: 'race-question' }),
    clock: h('p', { id: 'race-clock', class: 'race-clock' }),
    mine: h('p', { id: 'race-lockout', class: 'race-lockout', 'aria-live': 'polite' }),
    theirs: h('p', { id: 'race-opponent', class: 'race-opponent' }),
    input: h('input', { id: 'race-answer', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 2000, 'aria-label': 'your answer', placeholder: 'your answer' }),
    feedback: h('p', { id: 'race-feedback', class: 'notice', role: 'alert', hidden: true }),
    outcome: h('div', { id: 'race-outcome', 'aria-live': 'polite' }),
    next: h('p', { id: 'race-next', class: 'muted', hidden: true }),
    seen: null, // the opened_at of the race on screen
    sent: null, // the answer this page sent last, until judged
    lockoutShown: false, // whether the feedback is the "wrong: locked out" message
  };
  const form = h('form', { id: 'race-form', class: 'notation' },
    h('label', { for: 'race-answer' }, 'Answer'), race.input, h('button', { type: 'submit', id: 'race-submit', class: 'primary' }, 'Answer'));
  race.box.append(race.title, race.prize, race.category, race.question, race.clock, form, race.mine, race.theirs, race.feedback, race.outcome, race.next);

  const seatName = (seat) => nameOf(state, seat);

  function feedback(kind, text, lockout = false) {
    race.feedback.className = `notice ${kind}`;
    race.feedback.textContent = text;
    race.feedback.hidden = !text;
    race.lockoutShown = lockout && !!text;
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const r = state?.match?.race;
    const text = race.input.value.trim();
    if (!r || r.over) return;
    if (!text) { feedback('error', 'Type an answer first.'); return; }
    if (send({ type: 'answer', text, race: r.opened_at })) feedback('info', `Sending \u201c${text}\u201d\u2026`);
  });

  /** Who won a finished race (or that nobody did), what it was for, and its accepted answers. */
  function outcome(r) {
    const you = state.you;
    const who = r.winner ? (r.winner === you ? 'You' : seatName(r.winner)) : null;
    const answers = r.answers || [];
    const took = r.ended_at != null ? ` after ${clockText(r.ended_at - r.opened_at)}` : '';
    // A finished race in `races` does not carry the limit: the race on screen does.
    const limit = r.lasts_ms ?? state.match.race?.lasts_ms;
    const inTime = limit ? `in ${durationText(limit)}` : 'in time';
    return [
      h('p', { class: `race-winner${r.winner ? (r.winner === you ? ' win' : you ? ' loss' : '') : ''}`, 'data-testid': 'race-winner' },
        r.winner ? `${who} won the round${took}${r.prizes?.length ? `, and ${r.winner === you ? 'pick' : 'picks'} ${prizeText(r.prizes)}` : ''}.`
          : `Nobody answered correctly ${inTime}: nobody wins the round${r.prizes?.length ? `, and nobody gets ${prizeText(r.prizes)}` : ''}.`),
      answers.length ? h('p', { 'data-testid': 'race-answers' }, 'Accepted answers: ', answers.map((a, i) => [i ? ', ' : '', h('strong', {}, a)])) : null,
    ].filter(Boolean);
  }

  function render(s) {
    state = s;
    const m = state.match;
    const r = m.race;
    const you = state.you;
    if (!r || typeof r !== 'object') { race.box.hidden = true; document.body.dataset.race = 'none'; return; }
    race.box.hidden = false;
    const fresh = race.seen !== r.opened_at;
    if (fresh) {
      race.seen = r.opened_at;
      race.input.value = '';
      race.sent = null;
      feedback('', '');
    }
    const open = !r.over && !m.result;
    race.box.classList.toggle('over', !open);
    race.title.textContent = open ? `${title()}, ${r.round}: answer first to win the round` : `${title()}, ${r.round}: the race is over`;
    race.prize.textContent = r.prizes?.length ? `${open ? 'On offer' : 'Was on offer'}: ${prizeText(r.prizes)} (the winner picks one, the other goes to the loser)` : '';
    race.prize.hidden = !r.prizes?.length;
    race.category.textContent = `Category: ${r.category}`;
    race.question.textContent = r.question;
    form.hidden = !open || !you;
    race.clock.hidden = !open;
    race.mine.hidden = !open || !you;
    race.theirs.hidden = !open;
    if (race.sent && you) {
      if (r.over && r.winner === you) feedback('ok', `\u201c${race.sent}\u201d is right.`);
      else if (!r.over && r.seats[you]?.locked_out) feedback('error', `\u201c${race.sent}\u201d is wrong: you are locked out for ${durationText(r.lockout_ms)}.`, true);
      race.sent = null;
    }
    // A lockout message never sits under the result.
    if (!open && race.lockoutShown) feedback('', '');
    if (open) {
      // Races can follow each other at once (a round nobody won in time): the finished
      // one keeps its finished state, from the server's `races`.
      const prev = previousRace(r, m.races);
      race.outcome.replaceChildren(...(prev ? [h('div', { class: 'race-previous', 'data-testid': 'race-previous' },
        h('h3', {}, `Previous round, ${prev.round}`), outcome(prev))] : []));
      if (fresh && you && (document.activeElement === document.body || !document.activeElement)) race.input.focus();
    } else if (r.over) {
      race.outcome.replaceChildren(...outcome(r));
    } else {
      race.outcome.replaceChildren(h('p', { class: 'muted' }, 'The match ended during the race.'));
    }
    // After a race nobody won, the server waits a moment before the next question.
    race.next.hidden = !(r.over && r.next_opens_at != null && !m.result);
    document.body.dataset.race = open ? 'open' : 'over';
    document.body.dataset.raceOpened = String(r.opened_at);
    tick();
  }

  /** The countdowns (the race's time, each seat's lockout), every tick. */
  function tick() {
    const r = state?.match?.race;
    if (!r || typeof r !== 'object' || state.match.result) return;
    const t = now();
    if (r.over) {
      if (r.next_opens_at != null) race.next.textContent = `Next question in ${clockText(r.next_opens_at - t)}.`;
      return;
    }
    const you = state.you;
    race.clock.textContent = `${clockText(r.deadline - t)} left to answer`;
    race.clock.classList.toggle('low', r.deadline - t < 30000);
    const lockLeft = (seat) => {
      const until = r.seats?.[seat]?.lockout_until;
      return until !== null && until !== undefined && until > t ? until - t : 0;
    };
    if (you) {
      const left = lockLeft(you);
      const locked = left > 0;
      if (race.input.disabled !== locked) {
        race.input.disabled = locked;
        form.querySelector('button').disabled = locked;
        if (!locked && document.activeElement === document.body) race.input.focus();
      }
      // The lockout is over: its message goes.
      if (!locked && race.lockoutShown) feedback('', '');
      race.input.placeholder = locked ? 'locked out after a wrong answer' : 'your answer';
      race.mine.className = `race-lockout${locked ? ' locked' : ''}`;
      race.mine.textContent = locked ? `Wrong answer: you are locked out for ${clockText(left)}.` : 'You can answer now.';
      race.mine.dataset.locked = String(locked);
    }
    const seats = you ? [other(you)] : ['p1', 'p2'];
    race.theirs.replaceChildren(...seats.map((seat) => {
      const left = lockLeft(seat);
      return h('span', { class: `race-seat${left ? ' locked' : ''}`, 'data-race-seat': seat },
        left ? `${seatName(seat)} is locked out for ${clockText(left)} after a wrong answer. ` : `${seatName(seat)} can answer. `);
    }));
  }

  return {
    box: race.box,
    render,
    tick,
    /** Whether the answer box can take the `/` shortcut now. */
    focusable: () => !race.box.hidden && !form.hidden && !race.input.disabled,
    focus: () => race.input.focus(),
    input: race.input,
    /** The server's answer to an `answer` message. */
    answered(msg) {
      if (msg.type === 'ok') {
        const text = race.input.value.trim();
        race.input.value = '';
        feedback('info', `Answer \u201c${text}\u201d received.`);
        race.sent = text;
        return;
      }
      const code = msg.error?.code;
      const why = withNames(msg.error?.message || 'unknown error', { p1: seatName('p1'), p2: seatName('p2') });
      if (code === 'stale_race') feedback('error', `Too late: that answer was for a race that has ended, so it was not counted (${why}).`);
      else feedback('error', `Answer refused: ${why}`);
    },
  };
}
