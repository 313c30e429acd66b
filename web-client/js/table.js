// A live table: your seat (when this browser holds the seat's token) or a spectator's view.
//
// The table's transport (table-socket.js: the server's WebSocket /ws/tables/<id>) brings a `state`
// frame with this client's own view after every event (a spectator's view holds no hidden card).
// A seat's view goes to the engine worker, which rebuilds the seat's state from it
// (paiju.client.state_from_view) and checks every selection with the rules' own `decide` before
// anything is sent: the play button is enabled only for a legal play, and an illegal selection
// shows the engine's reason. The server stays the authority: a refused command is shown and the
// view is resynchronised (a `sync` frame).
//
// This module is the controller: the state and how it changes are table-state.js's pure reducer;
// the effects it asks for (frames out, the engine's work and checks, sounds, toasts) are carried
// out here and their results fed back to it as events; the renderers (table-head.js,
// table-hand.js, table-controls.js, table-sheet.js, and board.js's board) draw each state, each
// writing only what changed.

import * as api from "./api.js";
import * as backoff from "./backoff.js";
import { renderBoard } from "./board.js";
import { PlayMemory, seatName } from "./seating.js";
import { startClocks } from "./turn-clocks.js";
import { $, clear, h } from "./dom.js";
import { engine, onEngine, SeatEngine } from "./engine.js";
import { both, t } from "./i18n.js";
import { installKeys } from "./keys.js";
import { isOnline } from "./offline.js";
import { catalog } from "./catalog.js";
import { announce } from "./table-announce.js";
import { createControls } from "./table-controls.js";
import { engineWork, orderHand } from "./table-engine.js";
import { createHand } from "./table-hand.js";
import { createHead, createWaiting } from "./table-head.js";
import { createSheet } from "./table-sheet.js";
import { socketTransport, tableSocketUrl } from "./table-socket.js";
import { ambiguous, isMyTurn } from "./table-queries.js";
import { GONE, initialState, reduce } from "./table-state.js";
import { TableTalk } from "./talkmenu.js";
import { toast } from "./ui.js";
import { wordsOf } from "./words.js";

/** A page's prefix of its command ids: unique enough across the table's clients. */
const idPrefix = () => `c-${Date.now().toString(36)}-${Math.floor(Math.random() * 0xffffffff).toString(36)}`;

/**
 * Where a table is served from, when not the server (a practice table, practice.js): `transport`
 * (table-socket.js's interface: its frames and commands), `token` (my seat), `table()` (the
 * table's entry, as the server's /api/tables/<id> gives it), `hands()` (its hands scored, as
 * /api/tables/<id>/hands), `rematch()` (再来一局 at the same table), `leave()` (the page's way
 * out), `log()` (the log's text, for its export).
 * @typedef {{practice: true, transport: import("./table-socket.js").Transport, token: {seat: number, token: string},
 *   table: () => Promise<any>, hands: () => Promise<any>, rematch: () => Promise<void>, leave: () => Promise<void>,
 *   log: () => Promise<string>}} TableSource
 */

/**
 * Mount the table `tableId` in `root`: as its seat's player if this browser holds the seat's
 * token (unless `watch`), else as a spectator. `query`: the route's query (`join=1`: invited);
 * `source`: where the table is served from (by default the server: its WebSocket and its API).
 * @param {HTMLElement} root @param {string} tableId
 * @param {{watch?: boolean, query?: URLSearchParams | null, source?: TableSource | null}} [options]
 */
export function mountTable(root, tableId, { watch = false, query = null, source = null } = {}) {
  const entry = source?.table ?? (() => api.table(tableId));
  let state = initialState({
    idPrefix: idPrefix(),
    token: source?.token ?? (watch ? null : api.seatToken(tableId)),
    sortMode: localStorage.getItem("paiju.sort") || "rank",
    trackerOn: localStorage.getItem("paiju.tracker") === "1",
    engineReady: engine.stage === "ready",
    now: Date.now(),
  });
  let game = null;
  let dead = false;
  let seatEngine = null;
  let queue = Promise.resolve(); // frames are handled one at a time, each with its engine work
  let waitingTimer = null;
  const memory = new PlayMemory();
  const clocks = startClocks();
  const baseTitle = document.title;
  const transport = source?.transport ?? socketTransport({ url: tableSocketUrl(location, tableId), hello: () => state.token?.token ?? null });

  // --- the page's parts ------------------------------------------------------------------------
  const head = createHead(tableId, watch, source);
  const waiting = createWaiting(tableId, { watch, invited: query?.get("join") === "1", sit, fillBots, game: () => game });
  const boardHost = h("div.board-host#board");
  const sheet = createSheet(tableId, source, {
    press: (handNo) => {
      if (state.seat === null || !state.token) return void dispatch({ type: "dismiss_sheet", handNo });
      // once the next deal is committed to, 继续 carries this player's seed for its shuffle
      const seed = state.view?.phase === "seeding" ? { seed: api.newSeed() } : {};
      dispatch({ type: "dispatch", command: { type: "continue", seat: state.seat, ...seed } });
    },
    decline: () => dispatch({ type: "rematch_declined" }),
  });
  const page = h("div.table-page", { dataset: { table: tableId, mode: watch ? "watch" : "seat" } }, head.el, waiting.el, boardHost, sheet.el);
  root.append(page);
  const controls = createControls({
    play: () => dispatch({ type: "send", command: state.check?.command }),
    pass: () => dispatch({ type: "pass" }),
    hint: () => dispatch({ type: "hint" }),
    clear: () => dispatch({ type: "clear" }),
    sort: () => dispatch({ type: "sort" }),
    tracker: () => dispatch({ type: "tracker" }),
    auto: () => {
      if (state.seat === null || state.pending || !state.view) return;
      dispatch({ type: "dispatch", command: { type: "set_auto", seat: state.seat, on: !(state.view.auto ?? []).includes(state.seat) } });
    },
    say: (move) => dispatch({ type: "send", command: move }),
    pick: (card) => dispatch({ type: "call_pick", card }),
    reading: (choice) => dispatch({ type: "reading", reading: choice.reading }), // as the player reads it
  });
  const hand = createHand({
    select: (selected) => dispatch({ type: "select", selected }),
    toggle: (index) => dispatch({ type: "toggle", index }),
    lines: controls.lines,
  });
  // my hand and controls live across renders, drawn once, then kept in my seat (board.js)
  const mySlot = h("div.my-slot", { dataset: { keep: "1" } }, hand.el, ...controls.parts);
  // table talk: the 快捷语 menu sits in the top bar (index.html's #page-tools) while the table is
  // open, so it takes no room from the table, whose hand and controls must fit a phone's screen
  const talk = new TableTalk($("#page-tools") ?? h("span"), tableId, {
    words: () => wordsOf(game),
    name: (seat) => seatName(ctx(), seat),
    send: (word) => dispatch({ type: "talk", word }),
    redraw: () => render(),
  });
  const keys = installKeys({ page, mySlot, ctx, state: () => state }); // keyboard play, focus kept, the live region

  /** The board's context: what board.js, scores.js and keys.js draw from. */
  function ctx() {
    const seats = state.meta?.seats ?? [];
    return {
      view: state.view,
      words: wordsOf(game),
      config: state.config,
      me: state.seat,
      bottom: state.seat ?? 0,
      names: seats.map((seat) => seat.name ?? null),
      kinds: seats.map((seat) => seat.kind),
      levels: seats.map((seat) => seat.level ?? null),
      left: seats.map((seat) => !!seat.left),
      connected: state.online,
      openHands: state.view?.hands ? state.openHands : null,
      memory,
      turnSince: state.turnSince,
      deadline: state.deadline,
      deadlineSeat: state.deadlineSeat,
      mySlot: state.seat !== null ? mySlot : null,
      waiting: state.meta?.status === "open",
      bigKinds: new Set(state.bigKinds),
      handNote: state.handNote,
      offline: !state.connected, // no socket: what the server's clocks say now is not known here
      talk: talk.bubbles(),
      source, // null: the server's table
    };
  }

  // --- state → page --------------------------------------------------------------------------------
  /** The event's new state, drawn, and its effects carried out (in order, each awaited). */
  function dispatch(event) {
    if (dead) return Promise.resolve();
    const { state: next, effects } = reduce(state, event);
    if (next !== state) {
      state = next;
      render();
    }
    return effects.reduce((done, effect) => done.then(() => perform(effect)), Promise.resolve());
  }

  /** Every part drawn from the state; a frame whose engine work is under way waits for it (a
   * render then would draw my turn half-made: the moves of the new view with the hand of the old). */
  function render() {
    if (dead || state.working) return;
    const c = ctx();
    head.render({ state, game, ctx });
    const open = waiting.render({ state, ctx: c });
    if (!open && waitingTimer) waitingTimer = void clearInterval(waitingTimer);
    if (open && !waitingTimer && !state.gone) waitingTimer = setInterval(refreshMeta, 1500);
    page.dataset.seat = String(state.seat ?? "");
    if (state.view && !state.gone) { // a table gone says only so (showGone)
      renderBoard(boardHost, c);
      hand.render(state);
      const { mine, speaking } = controls.render({ state, words: c.words, nameOf: (seat) => seatName(c, seat) });
      mySlot.dataset.turn = mine ? "1" : "";
      // while the seat speaks (a word, a card named) its hand is only to look at: smaller
      mySlot.dataset.speaking = speaking ? "1" : "";
      if (hand.el.classList.contains("compact") !== speaking) {
        hand.el.classList.toggle("compact", speaking);
        hand.layout();
      }
      sheet.render({ state, ctx: c });
      hand.fitted();
    }
    document.body.dataset.myTurn = isMyTurn(state) ? "1" : "";
    document.title = (isMyTurn(state) ? t("yourTurnTitle") : "") + baseTitle;
    talk.render({
      canSay: state.seat !== null && !!state.token && state.connected && state.view?.phase !== "over",
      others: (state.view ? [...Array(state.view.players).keys()] : []).filter((seat) => seat !== state.seat && c.kinds[seat] !== "bot"),
    });
    keys.redrawn();
  }

  // --- effects ----------------------------------------------------------------------------------------
  /** @type {Record<string, (effect: any) => any>} */
  const EFFECTS = {
    send: ({ frame }) => transport.send(frame),
    toast: ({ error, refused }) => toast(refused ? t("refused", { reason: both(error) }) : both(error), "error"),
    work: async ({ view, previous, handChanged, announce: news }) => {
      memory.update(view);
      let result = null;
      if (seatEngine && state.engineReady) {
        try {
          result = await engineWork(seatEngine, state, view, handChanged);
        } catch (err) {
          if (!dead) console.error("engine:", err.message); // a table left mid-request: its engine is gone
          result = { moves: [] };
        }
      }
      await dispatch({ type: "worked", view, previous, announce: news, engine: result });
    },
    announce: ({ news, previous, view, wasMyTurn }) => {
      talk.hear(previous, view);
      render();
      announce({ news, previous, view, wasMine: wasMyTurn, mine: isMyTurn(state), words: wordsOf(game), host: boardHost });
    },
    check: async ({ seq, cards, reading = null, play = false }) => {
      const result = await seatEngine.check(cards, reading);
      if (!play && ambiguous(result) && !result.readings) result.readings = await seatEngine.readings(cards);
      await dispatch({ type: "checked", seq, result, play });
    },
    retry: ({ id, attempt, retryAfter }) => {
      setTimeout(() => dispatch({ type: "retry_due", id }), backoff.delay(backoff.RESEND, attempt, { retryAfter }));
    },
    gone: ({ error }) => {
      waitingTimer = void clearInterval(waitingTimer);
      transport.close();
      showGone(error);
    },
    refresh_meta: () => void refreshMeta(),
    offer_rematch: async ({ id }) => {
      try {
        const table = await api.table(id);
        await dispatch({ type: "rematch_offer", table });
      } catch {
        // no offer to show (it lapsed); 再来一局 still answers for itself
      }
    },
    order: async ({ cards }) => dispatch({ type: "ordered", hand: await orderHand(seatEngine, cards, state.sortMode) }),
    store: ({ key, value }) => localStorage.setItem(key, value),
  };

  function perform(effect) {
    if (dead) return undefined;
    return EFFECTS[effect.type]?.(effect);
  }

  // --- the table's entry, the seats ------------------------------------------------------------------
  async function start() {
    if (!source && !isOnline()) return void showGone(null); // nothing to ask a server for
    try {
      const [meta, games] = await Promise.all([entry(), catalog()]);
      game = games.find((g) => g.id === meta.game) ?? null;
      await dispatch({ type: "meta", meta });
    } catch (err) {
      showGone(err);
      return;
    }
    if (dead) return;
    seatEngine = new SeatEngine(`table:${tableId}`, state.config);
    seatEngine.started.catch(() => {});
    transport.open(
      (frame) => {
        queue = queue.then(() => dispatch({ type: "frame", frame, at: Date.now() })).catch((err) => console.error("frame", frame?.type, err));
      },
      (link) => void dispatch({ type: "link", ...link }),
    );
  }

  /** The table cannot be shown: no such table, or an error (the server's words), or no network
   * to reach the server's table.
   * @param {any} err */
  function showGone(err) {
    if (!source && !isOnline()) {
      clear(boardHost, h("p.muted.big.needs-network", { role: "status" }, t("tableNeedsNetwork")));
      return; // a server's table: back when the network is (the page is opened again)
    }
    clear(boardHost, h("p.error.big", null, err.code === "table_not_found" ? t("tableNotFound") : `${t("errorPrefix")}${both(err)}`));
  }

  async function refreshMeta() {
    if (state.gone) return;
    try {
      const meta = await entry();
      await dispatch({ type: "meta", meta });
    } catch (err) {
      if (GONE.has(err.code)) await dispatch({ type: "gone", error: err });
    }
  }

  async function fillBots(e, level) {
    e.target.disabled = true;
    try {
      await api.addBots(tableId, null, level || null);
      await refreshMeta();
    } catch (err) {
      toast(both(err), "error");
      e.target.disabled = false;
    }
  }

  async function sit(seat) {
    try {
      const joined = await api.joinSeat(tableId, api.playerName(), seat, api.newSeed());
      api.saveSeatToken(tableId, joined.seat, joined.token);
      await dispatch({ type: "sat", seat: joined.seat, token: joined.token });
      await refreshMeta();
    } catch (err) {
      toast(both(err), "error");
    }
  }

  // the engine became ready after the first frames: the latest view goes through it now
  const stopEngineWatch = onEngine((now) => {
    if (now.stage !== "ready" || state.engineReady) return;
    queue = queue.then(() => dispatch({ type: "engine_ready" })).catch((err) => {
      if (!dead) console.error("engine:", err.message);
    });
  });

  start();

  return {
    unmount() {
      dead = true;
      hand.drop();
      keys.detach();
      stopEngineWatch();
      clearInterval(clocks);
      clearInterval(waitingTimer);
      transport.close();
      seatEngine?.drop();
      talk.drop();
      document.body.dataset.myTurn = "";
    },
    /** The language changed: every part drawn again. */
    rerender() {
      for (const part of [head, waiting, hand, controls, sheet]) part.forget();
      render();
    },
  };
}
