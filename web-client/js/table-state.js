// A live table's state, and how it changes: one pure reducer (no DOM, no socket, no clock, no
// global). `reduce(state, event)` returns a new state and the effects the table must carry out
// (send a frame, run the engine, toast, sound); the old state is never changed. The controller
// (table.js) performs the effects and feeds their results back in as events; the renderers draw
// the state. The server is the authority: a refused command is shown, and the view asked for
// again (`sync`).
//
// Events: from the transport `frame` ({frame}: welcome, state, ack, error, over, rematch),
// `link` ({link: "connecting" | "open" | "closed", hello, final}); from the page `meta`, `gone`,
// `engine_ready`, `worked` (a view's engine work done), `checked` (a verdict), `select`,
// `toggle`, `clear`, `hint`, `send` (a move of mine, checked), `dispatch` (a command sent as it
// is: 托管, 继续), `pass`, `reading`, `retry_due`, `talk`, `sat`, `sort`, `ordered`, `tracker`,
// `call_pick`, `dismiss_sheet`, `rematch_offer`, `rematch_declined`.
//
// Effects: `send` {frame}, `toast` {error, refused}, `work` {view, previous, handChanged,
// announce}, `check` {seq, cards, reading?, play?}, `retry` {id, attempt, retryAfter}, `gone`
// {error}, `refresh_meta`, `offer_rematch` {id}, `order` {cards}, `store` {key, value},
// `announce` {news, previous, view, wasMyTurn}.

import { nextHandNote } from "./handchange.js";
import { playOf } from "./moves.js";
import { whatHappened } from "./table-news.js";
import { indicesOf, isMyTurn, selectedCodes, spokenOf } from "./table-queries.js";

// docs/services.md: resend with the same id, backing off (overloaded: not before its retry_after)
export const RETRY = new Set(["unavailable", "overloaded", "conflict"]);
export const MAX_RESENDS = 3;
// the table no longer exists (it expired, nobody having filled it; or it was deleted): the page
// says so and stops reconnecting (docs/services.md, "Open tables expire")
export const GONE = new Set(["table_expired", "table_not_found"]);

/** @typedef {{type: string, [field: string]: any}} Event */
/** @typedef {{type: string, [field: string]: any}} Effect */
/** @typedef {{kind: "info" | "error" | "ok", key: string, error?: any, code?: string, resynced?: boolean, keep?: boolean}} Message */
/**
 * @typedef {object} TableState
 * @property {string} idPrefix  the page's command ids: `${idPrefix}-${n}`
 * @property {number} commands  commands framed so far (the next id's n)
 * @property {any} meta  the table's entry (seats, status, clock); null until fetched
 * @property {any} config  {game, variant, players, options}; null until the entry is fetched
 * @property {{seat: number, token: string} | null} token  this browser's seat token
 * @property {number | null} seat  my seat, once welcomed (null: watching)
 * @property {boolean} hello  a hello is on its way: public frames are not shown until welcomed
 * @property {"connecting" | "open" | "closed"} link  the transport, as the head shows it
 * @property {boolean} connected  a command can be sent
 * @property {number} frames  frames received
 * @property {any} view  the latest view shown
 * @property {any[] | null} serverMoves  the frame's legal moves (on a settled state)
 * @property {boolean} settled  the state is at rest between commands: act only then
 * @property {number | null} deadline  the pending deadline (epoch ms), and its seat (null: the next deal)
 * @property {number | null} deadlineSeat
 * @property {number[] | null} online  the seats whose players have a socket
 * @property {number} turnSince  when the turn last moved (ms, from the events' `at`)
 * @property {any} handNote  what happened to my hand that I did not do (handchange.js)
 * @property {boolean} working  the view's engine work is under way: its turn is not mine to act on yet
 * @property {boolean} wasMyTurn  my turn as last shown (the turn sound plays as it becomes mine)
 * @property {boolean} engineReady
 * @property {any[]} moves  my legal moves: the engine's, or the server's until it is ready
 * @property {string[]} hand  my hand in display order
 * @property {any[] | null} openHands  every hand, ordered, when the view opens them
 * @property {any} tracker  the 记牌器's counts
 * @property {any} passCheck  the engine's verdict on a pass
 * @property {string[]} passless  phases in which the engine knows no pass
 * @property {boolean} ordered  my hand has been put in the game's order by the engine
 * @property {string} orderedFor  the hand number and phase it was ordered in
 * @property {number[]} selected  indices into `hand`, ascending
 * @property {number} hintIndex  the hint last shown
 * @property {any} check  the engine's verdict on the selection
 * @property {number} checkSeq  the latest check asked for (older verdicts are stale)
 * @property {string | null} callPick  a card picked to call, before it is confirmed
 * @property {string | null} pending  the id of a command awaiting the server's answer
 * @property {any} sentFrame  the pending command's frame, resent with the same id
 * @property {number} resends
 * @property {boolean} resyncing  a refusal asked for the view again
 * @property {Message | null} message  the line under the controls
 * @property {string[]} bigKinds  combination kinds seen beating a play of another kind
 * @property {any} over  the match is over (the `over` frame)
 * @property {any} rematchOffer  another player's 再来一局 put to me
 * @property {number | null} dismissedHand  the hand whose sheet a spectator closed
 * @property {boolean} gone  the table no longer exists
 * @property {"rank" | "count"} sortMode
 * @property {boolean} trackerOn
 */

/** A table page's first state.
 * @param {{idPrefix: string, token?: any, sortMode?: string, trackerOn?: boolean, engineReady?: boolean, now?: number}} init
 * @returns {TableState} */
export function initialState({ idPrefix, token = null, sortMode = "rank", trackerOn = false, engineReady = false, now = 0 }) {
  return {
    idPrefix, commands: 0, meta: null, config: null, token, seat: null, hello: false,
    link: "connecting", connected: false, frames: 0,
    view: null, serverMoves: null, settled: true, deadline: null, deadlineSeat: null, online: null,
    turnSince: now, handNote: null, working: false, wasMyTurn: false, engineReady,
    moves: [], hand: [], openHands: null, tracker: null, passCheck: null, passless: [], ordered: false, orderedFor: "",
    selected: [], hintIndex: -1, check: null, checkSeq: 0, callPick: null,
    pending: null, sentFrame: null, resends: 0, resyncing: false, message: null,
    bigKinds: [], over: null, rematchOffer: null, dismissedHand: null, gone: false,
    sortMode: sortMode === "count" ? "count" : "rank", trackerOn,
  };
}

// --- the reducer -------------------------------------------------------------------------------

/** @typedef {{state: TableState, effects: Effect[]}} Step */

// a view's engine work is under way: until the engine has answered for it, no moves of mine
const WORKING = { working: true, moves: [], passCheck: null };

/** @param {TableState} state @param {Effect[]} [effects] @returns {Step} */
const step = (state, effects = []) => ({ state, effects });

/** The next state and its effects after `event`.
 * @param {TableState} state @param {Event} event @returns {Step} */
export function reduce(state, event) {
  const handler = EVENTS[event.type];
  return handler ? handler(state, event) : step(state);
}

/** @type {Record<string, (s: TableState, e: Event) => Step>} */
const EVENTS = {
  frame: (s, e) => onFrame({ ...s, frames: s.frames + 1 }, e.frame, e.at ?? 0),
  link: (s, e) => {
    if (e.link === "open") return step({ ...s, link: "open", connected: true, hello: !!e.hello });
    if (e.link === "connecting") return step({ ...s, link: "connecting" });
    // a finished table closes quietly, a gone one stays closed; else nothing can be sent until
    // the transport is back: the buttons and the clocks say so
    if (e.final) return step({ ...s, connected: false });
    return step({ ...s, link: "closed", connected: false, pending: null });
  },
  meta: (s, e) => {
    const meta = e.meta;
    const config = s.config ?? { game: meta.game, variant: meta.variant, players: meta.players, options: meta.options };
    return step({ ...s, meta, config });
  },
  gone: (s, e) => (s.gone ? step(s) : step({ ...s, gone: true }, [{ type: "gone", error: e.error }])),
  engine_ready: (s) => {
    const next = { ...s, engineReady: true };
    // the engine became ready after the first frames: the latest view goes through it now
    if (!s.view || s.ordered) return step(next);
    return step({ ...next, ...WORKING }, [{ type: "work", view: s.view, previous: null, handChanged: true, announce: false }]);
  },
  worked,
  checked: (s, e) => {
    if (e.seq !== s.checkSeq) return step(s); // a newer selection is being checked
    if (e.play && e.result.ok) return sendMove(s, e.result.command);
    return step({ ...s, check: e.result });
  },
  select: (s, e) => validate({ ...s, selected: [...e.selected].sort((a, b) => a - b), hintIndex: -1 }),
  toggle: (s, e) => {
    const on = s.selected.includes(e.index);
    const selected = on ? s.selected.filter((i) => i !== e.index) : [...s.selected, e.index].sort((a, b) => a - b);
    return validate({ ...s, selected });
  },
  clear: (s) => validate({ ...s, selected: [], hintIndex: -1 }),
  hint: (s) => {
    const plays = s.moves.filter((m) => m.type === "play");
    if (!plays.length) return step({ ...s, message: { kind: "info", key: "noPlays" } });
    const hintIndex = (s.hintIndex + 1) % plays.length;
    return validate({ ...s, hintIndex, selected: indicesOf(s.hand, plays[hintIndex].cards), message: null });
  },
  send: (s, e) => sendMove(s, e.command),
  dispatch: (s, e) => dispatch(s, e.command),
  pass: (s) => {
    const sent = sendMove(s, { type: "pass", seat: s.seat });
    // a pass leaves the hand as it was: the next turn starts afresh
    return sent.state === s ? sent : { ...sent, state: { ...sent.state, selected: [], hintIndex: -1 } };
  },
  reading: (s, e) => {
    const seq = s.checkSeq + 1;
    return step({ ...s, checkSeq: seq }, [{ type: "check", seq, cards: selectedCodes(s), reading: e.reading, play: true }]);
  },
  retry_due: (s, e) => (s.pending === e.id ? step(s, [{ type: "send", frame: s.sentFrame }]) : step(s)),
  talk: (s, e) => {
    if (!s.connected || s.seat === null) return step(s);
    const [next, id] = newId(s);
    return step(next, [{ type: "send", frame: { type: "command", id, command: { type: "talk", seat: s.seat, talk: e.word } } }]);
  },
  sat: (s, e) => {
    const token = { seat: e.seat, token: e.token };
    return step({ ...s, token, hello: s.connected }, s.connected ? [{ type: "send", frame: { type: "hello", token: e.token } }] : []);
  },
  sort: (s) => {
    const sortMode = s.sortMode === "rank" ? "count" : "rank";
    return step({ ...s, sortMode }, [{ type: "store", key: "paiju.sort", value: sortMode }, { type: "order", cards: s.view?.hand ?? [] }]);
  },
  ordered: (s, e) => step({ ...s, hand: e.hand, selected: indicesOf(e.hand, selectedCodes(s)) }),
  tracker: (s) => step({ ...s, trackerOn: !s.trackerOn }, [{ type: "store", key: "paiju.tracker", value: s.trackerOn ? "0" : "1" }]),
  call_pick: (s, e) => step({ ...s, callPick: e.card }),
  dismiss_sheet: (s, e) => step({ ...s, dismissedHand: e.handNo }),
  rematch_offer: (s, e) => {
    if (s.seat === null || !s.token) return step(s);
    const meta = s.meta ? { ...s.meta, rematch: e.table.id } : s.meta;
    return step({ ...s, meta, rematchOffer: { table: e.table, seat: s.seat, declined: false } });
  },
  rematch_declined: (s) => step({ ...s, rematchOffer: s.rematchOffer && { ...s.rematchOffer, declined: true } }),
};

/** @param {TableState} s @param {any} frame @param {number} at @returns {Step} */
function onFrame(s, frame, at) {
  switch (frame.type) {
    case "welcome":
      // a socket starts as a spectator; after our hello the server welcomes us to our seat
      if (s.hello && frame.seat === null) return step(s);
      return step({ ...s, hello: false, seat: frame.seat });
    case "state":
      return s.hello ? step(s) : onState(s, frame, at); // before my seat's view, the public one
    case "ack":
      return step(frame.id === s.pending ? { ...s, pending: null } : s);
    case "error":
      return onError(s, frame);
    case "over":
      return step({ ...s, over: frame }, s.meta?.rematch ? offer(s, s.meta.rematch) : []); // pressed before this page heard
    case "rematch": // another player pressed 再来一局: the sheet asks me at once
      return step(s, offer(s, frame.rematch));
    default:
      return step(s);
  }
}

/** @param {TableState} s @param {string} id @returns {Effect[]} */
const offer = (s, id) => (s.seat !== null && s.token && s.rematchOffer?.table.id !== id ? [{ type: "offer_rematch", id }] : []);

/** @param {TableState} s @param {any} frame @returns {Step} */
function onError(s, frame) {
  /** @type {Effect[]} */
  const effects = [];
  let next = s;
  if (!frame.id && s.hello) {
    next = { ...next, hello: false }; // the hello was refused: the public view, as a spectator sees it
    effects.push({ type: "send", frame: { type: "sync" } });
  }
  if (!frame.id && GONE.has(frame.code)) return next.gone ? step(next, effects) : step({ ...next, gone: true }, [...effects, { type: "gone", error: frame }]);
  if (frame.id && frame.id === s.pending && RETRY.has(frame.code) && s.resends < MAX_RESENDS) {
    // the table was busy: the same command with the same id is appended at most once
    effects.push({ type: "retry", id: frame.id, attempt: s.resends, retryAfter: frame.retry_after ?? 0 });
    return step({ ...next, resends: s.resends + 1 }, effects);
  }
  if (frame.id && frame.id === s.pending) {
    const message = { kind: /** @type {const} */ ("error"), key: "refused", error: frame, code: frame.code };
    effects.push({ type: "toast", error: frame, refused: true }, { type: "send", frame: { type: "sync" } }); // the server's view wins
    return step({ ...next, pending: null, message, resyncing: true }, effects);
  }
  if (frame.code === "unauthorized" && s.token) next = { ...next, token: null }; // a stale token: watch instead
  effects.push({ type: "toast", error: frame, refused: false });
  return step(next, effects);
}

/** A state frame: shown at once, my moves and my hand's order after the engine's work.
 * @param {TableState} s @param {any} frame @param {number} at @returns {Step} */
function onState(s, frame, at) {
  const view = frame.view;
  const previous = s.view;
  const moved = !previous || previous.turn !== view.turn || previous.phase !== view.phase || previous.hand_no !== view.hand_no;
  const handChanged = !previous || JSON.stringify(previous.hand) !== JSON.stringify(view.hand);
  const newPhase = previous?.phase !== view.phase || previous?.hand_no !== view.hand_no;
  let message = s.message;
  if (s.resyncing) message = { ...message, resynced: true, keep: true }; // the refusal stays, the view is the server's again
  else if (message?.keep) message = { ...message, keep: false }; // until the next event
  else if (previous && previous.version !== view.version) message = null;
  const next = {
    ...s,
    view,
    seat: view.seat,
    serverMoves: frame.moves ?? null,
    // between the events of one command (the last card played, the score not yet applied) the
    // state is not settled: shown, but acted on only once settled
    settled: frame.settled !== false,
    deadline: frame.deadline ?? null,
    deadlineSeat: frame.deadline_seat ?? null,
    online: frame.connected ?? null,
    turnSince: moved ? at : s.turnSince,
    handNote: nextHandNote(s.handNote, previous, view), // cards that came to me unasked
    selected: handChanged ? [] : s.selected,
    hintIndex: handChanged || (view.phase === "play" && view.turn !== previous?.turn) ? -1 : s.hintIndex,
    callPick: newPhase ? null : s.callPick,
    message,
    resyncing: false,
    ...WORKING,
  };
  /** @type {Effect[]} */
  const effects = [];
  if ((view.counts?.length ?? 0) > 0 && s.meta?.status === "open") effects.push({ type: "refresh_meta" }); // dealt: who sits where now
  effects.push({ type: "work", view, previous, handChanged, announce: { wasMyTurn: !!previous && s.wasMyTurn } });
  return step(next, effects);
}

/** A view's engine work is done (`e.engine`: its results, or null while the engine loads: then
 * my moves are the server's and the hand is shown as it came).
 * @param {TableState} s @param {Event} e @returns {Step} */
function worked(s, e) {
  if (s.view !== e.view) return step(s); // a newer view is on show
  const view = e.view;
  const r = e.engine;
  /** @type {TableState} */
  let next = { ...s, working: false };
  if (!r) {
    next = { ...next, hand: view.hand ? [...view.hand] : [], openHands: view.hands ?? null };
    next.moves = view.seat !== null && s.settled ? [...(s.serverMoves ?? [])] : [];
  } else {
    next = { ...next, moves: r.moves ?? [], tracker: r.tracker ?? s.tracker, passCheck: r.passCheck ?? null, openHands: r.openHands ?? null };
    if (r.passless && !s.passless.includes(view.phase)) next.passless = [...s.passless, view.phase];
    if (r.hand) next = { ...next, hand: r.hand, selected: indicesOf(r.hand, selectedCodes(s)), ordered: true, orderedFor: r.orderedFor };
    else if (!view.hand) next.hand = [];
  }
  /** @type {Effect[]} */
  const effects = [];
  if (e.announce) {
    const { news, bigKinds } = whatHappened(e.previous, view, s.bigKinds);
    next.bigKinds = bigKinds;
    effects.push({ type: "announce", news, previous: e.previous, view, wasMyTurn: e.announce.wasMyTurn });
  }
  next.wasMyTurn = isMyTurn(next);
  const checked = validate(next);
  return step(checked.state, [...effects, ...checked.effects]);
}

/** The verdict on the selection: none when it is not mine to play, the server's plays while the
 * engine loads, else a check asked of the engine.
 * @param {TableState} s @returns {Step} */
function validate(s) {
  const seq = s.checkSeq + 1;
  const cards = selectedCodes(s);
  const next = { ...s, checkSeq: seq };
  if (!isMyTurn(s) || cards.length === 0 || !s.config || spokenOf(s.moves).length) return step({ ...next, check: null });
  if (!s.engineReady) {
    // the server's plays answer until the engine can say why not
    const play = playOf(s.moves, cards);
    return step({ ...next, check: play ? { ok: true, command: play, kind: null } : { ok: false, error: null, loading: true } });
  }
  return step(next, [{ type: "check", seq, cards }]);
}

/** @param {TableState} s @returns {[TableState, string]} */
function newId(s) {
  const commands = s.commands + 1;
  return [{ ...s, commands }, `${s.idPrefix}-${commands}`];
}

/** Frame a command with a fresh id and send it as it is: pending until the server answers.
 * @param {TableState} s @param {any} command @returns {Step} */
function dispatch(s, command) {
  if (!command || !s.connected || s.pending) return step(s);
  const [next, id] = newId(s);
  const frame = { type: "command", id, command };
  return step({ ...next, pending: id, sentFrame: frame, resends: 0 }, [{ type: "send", frame }]);
}

/** A move of mine, sent only on my turn at rest with nothing pending.
 * @param {TableState} s @param {any} command @returns {Step} */
function sendMove(s, command) {
  if (!command || !isMyTurn(s) || s.pending || !s.connected) return step(s);
  return dispatch({ ...s, message: { kind: "info", key: "sending" } }, command);
}
