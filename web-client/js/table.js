// A live table: your seat (when this browser holds the seat's token) or a spectator's view.
//
// The WebSocket /ws/tables/<id> sends a `state` frame with this client's own view after every
// event (a spectator's view holds no hidden card). A seat's view goes to the engine worker, which
// rebuilds the seat's state from it (paiju.client.state_from_view) and checks every selection
// with the rules' own `decide` before anything is sent: the play button is enabled only for a
// legal play, and an illegal selection shows the engine's reason. The server stays the
// authority: a refused command is shown and the view is resynchronised (a `sync` frame).
//
// Outside the play of cards a seat may have to speak (an auction, a call of a card): its legal
// moves that are neither a play nor a pass are its words. A word's value is the move's one field
// besides its type and seat: a card becomes a card picker, anything else a button per legal move,
// each named by the game's words (words.js); a click sends the engine's own move through the same
// `send` as a play.

import * as api from "./api.js";
import { sound, speak } from "./audio.js";
import * as backoff from "./backoff.js";
import { countdown, handOver, PlayMemory, renderBoard, scoreSheet, seatName, seatToMove, startClocks } from "./board.js";
import { cardEl, cardText, isRed, rankLabel } from "./cards.js";
import { $, $$, clear, h, patch } from "./dom.js";
import { engine, onEngine, SeatEngine } from "./engine.js";
import { nextHandNote } from "./handchange.js";
import { both, getLang, t } from "./i18n.js";
import { installKeys } from "./keys.js";
import { clockText } from "./clock.js";
import { catalog, gameName, houseRulesText, variantName, variantOf } from "./lobby.js";
import { leaveMatchButton, rematchControls, rematchWaiting, shareButtons, waitingControls } from "./room.js";
import { openScoreTable, scoreTableHost } from "./scores.js";
import { playOf } from "./moves.js";
import { callsOf } from "./talk.js";
import { TableTalk } from "./talkmenu.js";
import { toast } from "./ui.js";
import { auctionWords, cardWord, helpText, kindName, spoken, turnLine, wordsOf } from "./words.js";

// docs/services.md: resend with the same id, backing off (overloaded: not before its retry_after)
const RETRY = new Set(["unavailable", "overloaded", "conflict"]);
// the table no longer exists (it expired, nobody having filled it; or it was deleted): the page
// says so and stops reconnecting (docs/services.md, "Open tables expire")
const GONE = new Set(["table_expired", "table_not_found"]);
const MIN_STRIP = 36; // px of each card of the hand that shows on a phone (a tap needs 32)
const SECOND_LINE = 24; // px: room for the line under the controls to take a second line
let commandCounter = 0;
function commandId() {
  commandCounter += 1;
  const rand = Math.floor(Math.random() * 0xffffffff).toString(36);
  return `c-${Date.now().toString(36)}-${rand}-${commandCounter}`;
}

/** The field of a move that holds the word said (a bid's word, a called card): its one field
 * besides type and seat; null for a play or a pass. */
function wordField(move) {
  if (move.type === "play" || move.type === "pass") return null;
  const fields = Object.keys(move).filter((k) => k !== "type" && k !== "seat");
  return fields.length === 1 ? fields[0] : null;
}

const CARD_CODE = /^(?:[3-9TJQKA2][SHCD]|BJ|RJ)$/;
/** Whether the words of these moves are cards (a card to name): then a card picker offers them. */
const namesCards = (moves) => moves.every((m) => CARD_CODE.test(String(m[wordField(m)])));

/** One button per legal word, the engine's own move behind each, named by the game's words as
 * said after the auction so far (data-<field>: the word). `ctx`: {view, words, pending, send}. */
function wordButtons(moves, ctx) {
  const type = moves[0].type;
  const field = wordField(moves[0]);
  const earlier = auctionWords(ctx.words, ctx.view, type);
  return h(
    "div.word-buttons",
    null,
    moves.map((move) =>
      h(
        `button.button.word${move[field] === "pass" ? "" : ".primary"}`,
        { type: "button", dataset: { [field]: move[field] }, disabled: ctx.pending, on: { click: () => ctx.send(move) } },
        spoken(ctx.words, type, move[field], earlier, "button", ctx.view?.phase),
      ),
    ),
  );
}

/** The cards the seat may name (the engine lists them strongest first), grouped by rank; a
 * pick, then a confirm named by the game's words. `ctx`: {words, pending, picked, pick(card),
 * send}. */
function cardPicker(moves, ctx) {
  const field = wordField(moves[0]);
  const ranks = new Map();
  for (const move of moves) {
    const rank = move[field].slice(0, -1);
    if (!ranks.has(rank)) ranks.set(rank, []);
    ranks.get(rank).push(move);
  }
  const picked = moves.find((m) => m[field] === ctx.picked) ?? null;
  return h(
    "div.call-picker",
    null,
    h(
      "div.call-grid",
      { role: "listbox", "aria-label": t("callPick") },
      [...ranks.values()].map((group) =>
        h(
          "div.call-rank",
          { dataset: { rank: rankLabel(group[0][field]) } },
          group.map((move) =>
            h(
              `button.call-card${isRed(move[field]) ? ".red" : ""}`,
              {
                type: "button",
                role: "option",
                dataset: { card: move[field] },
                "aria-selected": move[field] === ctx.picked ? "true" : "false",
                on: { click: () => ctx.pick(move[field]) },
              },
              cardText(move[field]),
            ),
          ),
        ),
      ),
    ),
    h(
      "button.button.primary#call-confirm",
      { type: "button", disabled: !picked || ctx.pending, on: { click: () => ctx.send(picked) } },
      picked ? cardWord(ctx.words, picked.type, cardText(picked[field])) : t("callPick"),
    ),
  );
}

export function mountTable(root, tableId, { watch = false, query = null } = {}) {
  const s = {
    meta: null,
    online: null, // seats whose players are connected (the frames' `connected`)
    game: null,
    config: null,
    token: watch ? null : api.seatToken(tableId),
    seat: null, // my seat, once the server has welcomed the token
    // a hello is on its way: the socket's first, public frames are not shown (my hand would
    // vanish for a moment, and my selection with it) until the server welcomes me to my seat
    hello: false,
    view: null,
    serverMoves: null,
    moves: [], // the engine worker's legal moves for my seat
    hand: [], // my hand in display order
    selected: new Set(), // indices into s.hand
    sortMode: localStorage.getItem("paiju.sort") || "rank",
    orderedFor: "", // the hand number and phase the hand was last ordered in
    handNote: null, // what happened to my hand that I did not do, until I next play (handchange.js)
    rematchOffer: null, // after the match, another player's 再来一局 put to me (offerRematch)
    check: null, // the worker's verdict on the selection
    checkSeq: 0,
    passCheck: null,
    callPick: null, // the card picked to call, before it is confirmed
    pending: null, // the id of a command awaiting the server's answer
    hintIndex: -1,
    message: null, // {kind, text} under the controls
    memory: new PlayMemory(),
    turnSince: Date.now(),
    over: null,
    gone: false, // the table no longer exists (table_expired, table_not_found): no reconnecting
    dismissedHand: null,
    ws: null,
    connected: false,
    dead: false,
    retry: 0,
    frames: 0,
    resyncing: false,
    openHands: null,
    ordered: false, // my hand has been put in the game's order by the engine
    laidOut: -1, // the size of hand last measured again after a frame (renderAll)
    settled: true,
    sentFrame: null, // the pending command's frame, for a retry with the same id
    retries: 0,
    bigKinds: new Set(), // combination kinds seen beating a play of another kind: the big plays
    tracker: null, // the 记牌器's counts from the engine worker (paiju.tracker)
    trackerOn: localStorage.getItem("paiju.tracker") === "1",
    flying: null, // the play that just came, to move from its seat to the centre: {seat}
    passless: new Set(), // phases in which the engine knows no pass: 不要 is not shown there
    working: false, // a frame's engine work is under way: its turn is not mine to act on yet
  };
  let seatEngine = null;
  let finalScores = null; // the match-over sheet's score table (fetched once)
  let queue = Promise.resolve();
  let waitingTimer = null;
  const clocks = startClocks();

  // --- the page's fixed parts ------------------------------------------------------------------
  const title = h("h1.table-title");
  const sub = h("p.table-sub");
  const conn = h("span.conn", { role: "status" });
  // table talk: the 快捷语 menu sits in the top bar (index.html's #page-tools) while the table is
  // open, so it takes no room from the table, whose hand and controls must fit a phone's screen
  const talk = new TableTalk($("#page-tools") ?? h("span"), tableId, {
    words: () => wordsOf(s.game),
    name: (seat) => seatName(ctx(), seat),
    send: (word) => sendFrame({ type: "command", id: commandId(), command: { type: "talk", seat: s.seat, talk: word } }),
    redraw: () => renderAll(),
  });
  const backLink = h("a.back", { href: "#/" }, `← ${t("backToLobby")}`);
  const head = h(
    "div.table-head",
    null,
    backLink,
    h("div.table-heading", null, title, sub),
    conn,
  );
  const waiting = h("section.waiting-panel#waiting");
  const boardHost = h("div.board-host#board");
  const sheetHost = h("div.sheet-host");
  const page = h("div.table-page", { dataset: { table: tableId, mode: watch ? "watch" : "seat" } }, head, waiting, boardHost, sheetHost);
  root.append(page);

  // my hand and controls live across renders (the selection must survive a re-render)
  const handEl = h("div.hand#hand", { role: "group", "aria-label": "hand" });
  const playBtn = h("button.button.primary#play", { type: "button", disabled: true }, t("play"));
  const passBtn = h("button.button#pass", { type: "button", disabled: true }, t("pass"));
  const hintBtn = h("button.button#hint", { type: "button", disabled: true }, t("hint"));
  const clearBtn = h("button.button.ghost#clear", { type: "button", disabled: true }, t("clear"));
  const sortBtn = h("button.button.ghost.small#sort", { type: "button" });
  const reasonEl = h("p.reason#reason", { role: "status", "aria-live": "polite" });
  // how many cards are selected, when every legal play has the same number of cards (a burial)
  const counterEl = h("span.counter#counter", { hidden: true, role: "status" });
  // why a button is disabled, in words (a tooltip alone says nothing on a phone)
  const whyEl = h("p.why#why", { hidden: true });
  const trackerBtn = h("button.button.ghost.small#tracker-toggle", { type: "button", "aria-pressed": "false" });
  const trackerEl = h("div.tracker#tracker", { hidden: true, role: "group" });
  // a selection the game lets the player read several ways: one button per reading
  const readingsEl = h("div.readings#readings", { hidden: true, role: "group" });
  const controls = h("div.controls", null, passBtn, hintBtn, clearBtn, playBtn);
  // 托管: the server plays for my seat until I cancel it or act myself
  const autoBtn = h("button.button.ghost.small#auto", { type: "button", hidden: true });
  autoBtn.addEventListener("click", () => {
    if (s.seat === null || s.pending || !s.view) return;
    dispatch({ type: "set_auto", seat: s.seat, on: !(s.view.auto ?? []).includes(s.seat) });
  });
  const baseTitle = document.title;
  const speakEl = h("div.speak#speak", { hidden: true, role: "group" });
  const mySlot = h(
    "div.my-slot",
    { dataset: { keep: "1" } }, // drawn once, then kept in my seat (board.js)
    handEl,
    speakEl,
    h("div.controls-row", null, h("div.tools", null, sortBtn, trackerBtn, autoBtn), controls),
    readingsEl,
    h("div.reason-row", null, counterEl, reasonEl),
    whyEl,
    trackerEl, // below the controls: opening it never pushes a control off the screen
  );
  trackerBtn.addEventListener("click", () => {
    s.trackerOn = !s.trackerOn;
    localStorage.setItem("paiju.tracker", s.trackerOn ? "1" : "0");
    renderTracker();
  });

  playBtn.addEventListener("click", () => send(s.check?.command));
  passBtn.addEventListener("click", () => {
    if (!send({ type: "pass", seat: s.seat })) return;
    s.selected.clear(); // a pass leaves the hand as it was: start the next turn afresh
    s.hintIndex = -1;
    paintSelection();
  });
  hintBtn.addEventListener("click", hint);
  clearBtn.addEventListener("click", () => {
    s.selected.clear();
    s.hintIndex = -1;
    selectionChanged();
  });
  sortBtn.addEventListener("click", async () => {
    s.sortMode = s.sortMode === "rank" ? "count" : "rank";
    localStorage.setItem("paiju.sort", s.sortMode);
    const chosen = selectedCodes();
    await orderHand(s.view?.hand ?? []);
    reselect(chosen);
    renderHand();
    renderControls();
  });
  setupDrag();
  installKeys({ page, mySlot, ctx, state: () => s }); // keyboard play, focus kept, the live region

  // --- loading the table ------------------------------------------------------------------------
  async function start() {
    try {
      const [meta, games] = await Promise.all([api.table(tableId), catalog()]);
      s.meta = meta;
      s.game = games.find((g) => g.id === meta.game) ?? null;
      s.config = { game: meta.game, variant: meta.variant, players: meta.players, options: meta.options };
    } catch (err) {
      showGone(err);
      return;
    }
    if (s.dead) return;
    seatEngine = new SeatEngine(`table:${tableId}`, s.config);
    seatEngine.started.catch(() => {});
    renderHead();
    renderWaiting();
    connect();
  }

  /** The table cannot be shown: no such table, or an error (the server's words). */
  function showGone(err) {
    clear(boardHost, h("p.error.big", null, err.code === "table_not_found" ? t("tableNotFound") : `${t("errorPrefix")}${both(err)}`));
  }

  /** The table no longer exists (it expired, or was deleted): said once; no more polling nor
   * reconnecting. */
  function tableGone(err) {
    if (s.gone) return;
    s.gone = true;
    clearInterval(waitingTimer);
    waitingTimer = null;
    s.ws?.close();
    showGone(err);
  }

  function connect() {
    if (s.dead || s.gone) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
    s.ws = ws;
    conn.textContent = t("connecting");
    conn.dataset.state = "connecting";
    ws.onopen = () => {
      s.connected = true;
      conn.textContent = "";
      conn.dataset.state = "open";
      renderControls();
      renderTalk();
      s.hello = !!s.token;
      if (s.token) ws.send(JSON.stringify({ type: "hello", token: s.token.token }));
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      queue = queue.then(() => onFrame(frame)).catch((err) => console.error("frame", frame?.type, err));
    };
    ws.onclose = () => {
      s.connected = false;
      if (s.dead || s.ws !== ws) return;
      if (s.over || s.gone) return; // a finished table closes quietly; a gone one stays closed
      conn.textContent = t("disconnected");
      conn.dataset.state = "closed";
      s.pending = null;
      renderAll(); // nothing can be sent: the buttons say so until the socket is back, the clocks too
      // back soon after a gateway restarts, later and later while it stays away (backoff.js),
      // with jitter so that a gateway's thousands of sockets do not all come back at once
      const delay = backoff.delay(backoff.RECONNECT, s.retry);
      s.retry += 1;
      setTimeout(connect, delay);
    };
  }

  function sendFrame(frame) {
    if (s.ws?.readyState === WebSocket.OPEN) {
      s.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  // --- frames from the server ---------------------------------------------------------------------
  async function onFrame(frame) {
    if (s.dead) return;
    s.frames += 1;
    switch (frame.type) {
      case "welcome":
        // a socket starts as a spectator; after our hello the server welcomes us to our seat
        if (s.hello && frame.seat === null) return;
        s.hello = false;
        s.seat = frame.seat;
        s.retry = 0; // the table is served: not when the socket opens, as one the server cannot
        // serve yet (unavailable, overloaded) opens, says so and closes (1013)
        return;
      case "state":
        if (s.hello) return; // the public view, before my seat's
        await onState(frame);
        return;
      case "ack":
        if (frame.id === s.pending) {
          s.pending = null;
          renderControls();
        }
        return;
      case "error":
        onError(frame);
        return;
      case "over":
        s.over = frame;
        renderSheet();
        if (s.meta?.rematch) await offerRematch(s.meta.rematch); // pressed before this page heard
        return;
      case "rematch": // another player pressed 再来一局: the sheet asks me at once
        await offerRematch(frame.rematch);
        return;
      default:
        return;
    }
  }

  function onError(frame) {
    const reason = both(frame);
    if (!frame.id && s.hello) {
      s.hello = false; // the hello was refused: the public view, then, as a spectator sees it
      sendFrame({ type: "sync" });
    }
    if (!frame.id && GONE.has(frame.code)) {
      tableGone(frame);
      return;
    }
    if (frame.id && frame.id === s.pending && RETRY.has(frame.code) && s.retries < 3) {
      // the table was busy: the same command with the same id is appended at most once
      const again = s.sentFrame;
      setTimeout(() => {
        if (s.pending === again.id) sendFrame(again);
      }, backoff.delay(backoff.RESEND, s.retries, { retryAfter: frame.retry_after ?? 0 }));
      s.retries += 1;
      return;
    }
    if (frame.id && frame.id === s.pending) {
      s.pending = null;
      s.message = { kind: "error", text: t("refused", { reason }), code: frame.code };
      toast(t("refused", { reason }), "error");
      s.resyncing = true;
      sendFrame({ type: "sync" }); // the server's view wins: ask for it again
      renderControls();
      return;
    }
    if (frame.code === "unauthorized" && s.token) {
      s.token = null; // a stale token: watch instead
      toast(reason, "error");
      return;
    }
    toast(reason, "error");
  }

  async function onState(frame) {
    const view = frame.view;
    const previous = s.view;
    s.view = view;
    s.serverMoves = frame.moves ?? null;
    // between the events of one command (the last card played, the score not yet applied) the
    // state is not settled: show it, but act only on a settled one
    s.settled = frame.settled !== false;
    s.deadline = frame.deadline ?? null; // the pending deadline (epoch ms) and its seat (null: the next deal)
    s.deadlineSeat = frame.deadline_seat ?? null;
    s.online = frame.connected ?? null; // the seats whose players have a socket (not this page's own s.connected)
    s.seat = view.seat;
    s.memory.update(view);
    if (!previous || previous.turn !== view.turn || previous.phase !== view.phase || previous.hand_no !== view.hand_no) {
      s.turnSince = Date.now();
    }
    const handChanged = !previous || JSON.stringify(previous.hand) !== JSON.stringify(view.hand);
    s.handNote = nextHandNote(s.handNote, previous, view); // cards that came to me unasked
    if (handChanged) {
      s.selected.clear();
      s.hintIndex = -1;
    }
    if (view.phase === "play" && view.turn !== previous?.turn) s.hintIndex = -1;
    if (previous?.phase !== view.phase || previous?.hand_no !== view.hand_no) s.callPick = null;
    if (s.resyncing) {
      s.resyncing = false; // keep the refusal on show, and say the view is the server's again
      s.message = { ...s.message, text: `${s.message?.text ?? ""} · ${t("resynced")}`, keep: true };
    } else if (s.message?.keep) {
      s.message = { ...s.message, keep: false }; // until the next event
    } else if (previous && previous.version !== view.version) {
      s.message = null;
    }
    if ((view.counts?.length ?? 0) > 0 && s.meta?.status === "open") refreshMeta(); // dealt: who sits where now
    const wasMyTurn = !!previous && s.wasMyTurn;
    await engineWork(view, handChanged);
    if (s.view !== view) return; // a newer frame is being handled
    const news = whatHappened(previous, view);
    talk.hear(previous, view);
    renderAll();
    s.wasMyTurn = isMyTurn();
    announce(news, wasMyTurn, previous, view);
    await validate();
  }

  /** The engine's part of a frame: rebuild my state from the view, list my legal moves, order
   * my hand the game's way. Until the engine is ready the frame is shown as it came (unordered)
   * and my legal moves are the server's (the frame's `moves`): the words are buttons, a pass and
   * a selection that is one of its plays can be sent, so my clock never runs down while the
   * engine loads; when it becomes ready, the latest view goes through here again. */
  async function engineWork(view, handChanged) {
    // a render meanwhile (the seats fetched after the deal) must not draw my turn half-made: the
    // moves of the new view with the hand of the old one (CI on a0adefb, test_sound)
    s.working = true;
    try {
      await workOn(view, handChanged);
    } finally {
      s.working = false;
    }
  }

  async function workOn(view, handChanged) {
    s.moves = [];
    s.passCheck = null;
    if (!seatEngine || engine.stage !== "ready") {
      s.hand = view.hand ? [...view.hand] : [];
      s.openHands = view.hands ?? null;
      s.moves = view.seat !== null && s.settled ? [...(s.serverMoves ?? [])] : [];
      return;
    }
    try {
      if (view.hands) s.openHands = await Promise.all(view.hands.map((cards) => seatEngine.order(cards)));
      else s.openHands = null;
      if (view.seat !== null) {
        const info = await seatEngine.view(view);
        s.moves = info.moves;
        s.tracker = info.tracker ?? null;
        if (s.settled) crossCheck(info.moves, s.serverMoves);
        if (myTurnInView() && !spokenOf(info.moves).length) {
          s.passCheck = await seatEngine.check(null);
          if (s.passCheck?.error?.code === "unknown_command") s.passless.add(view.phase);
        }
      }
      // ordered after the engine has this view's state: when the hand changes, and at each new
      // phase, where the order can change with the hand unchanged (what was bid or shown fixes
      // it when its round ends), the selection kept through it
      const orderFor = `${view.hand_no}:${view.phase}`;
      if (view.hand && (handChanged || !s.ordered || s.orderedFor !== orderFor)) {
        const chosen = handChanged ? [] : selectedCodes();
        await orderHand(view.hand);
        reselect(chosen);
        s.ordered = true;
        s.orderedFor = orderFor;
      } else if (!view.hand) {
        s.hand = [];
      }
    } catch (err) {
      if (!s.dead) console.error("engine:", err.message); // a table left mid-request: its engine is gone
    }
  }

  // the engine became ready after the first frames: put the latest view through it now
  const stopEngineWatch = onEngine((state) => {
    if (state.stage !== "ready" || !s.view || s.ordered) return;
    queue = queue
      .then(async () => {
        const view = s.view;
        await engineWork(view, true);
        if (s.view !== view || s.dead) return;
        renderAll();
        await validate();
      })
      .catch((err) => {
        if (!s.dead) console.error("engine:", err.message);
      });
  });

  /** What the event between two views did, from the views alone: the seats that played (a
   * seat's count fell and its play is on the table) or passed, a big play (a new top of the
   * trick of another kind than the one it beat: the engine let it beat across kinds), whether a
   * hand just ended. */
  function whatHappened(previous, view) {
    const out = { plays: [], passes: [], big: false, ended: false };
    if (!previous || previous.hand_no !== view.hand_no) {
      out.ended = handOver(view) && !handOver(previous);
      return out;
    }
    (view.actions ?? []).forEach((action, seat) => {
      const before = previous.actions?.[seat];
      const fell = (previous.counts?.[seat] ?? 0) - (view.counts?.[seat] ?? 0);
      if (Array.isArray(action) && action.length && fell > 0) out.plays.push(seat);
      else if (Array.isArray(action) && action.length === 0 && !(Array.isArray(before) && before.length === 0)) out.passes.push(seat);
    });
    const lead = view.lead;
    const was = previous.lead;
    if (lead && was && lead.kind && was.kind && lead.kind !== was.kind && out.plays.includes(lead.seat)) {
      s.bigKinds.add(lead.kind);
    }
    out.big = !!lead && out.plays.includes(lead.seat) && s.bigKinds.has(lead.kind);
    out.ended = handOver(view) && !handOver(previous);
    return out;
  }

  /** The 快捷语 menu: its words for a seated player whose socket is open, and a switch to hide
   * each other person's talk. */
  function renderTalk() {
    const kinds = kindsOf();
    talk.render({
      canSay: s.seat !== null && !!s.token && s.connected && s.view?.phase !== "over",
      others: (s.view ? [...Array(s.view.players).keys()] : []).filter((seat) => seat !== s.seat && kinds[seat] !== "bot"),
    });
  }

  /** The sounds, the calls spoken and the motion of what happened. */
  function announce(news, wasMyTurn, previous, view) {
    if (news.plays.length) {
      sound(news.big ? "bomb" : "play");
      flyToCentre(s.view?.lead?.seat);
    } else if (news.passes.length) {
      sound("pass");
    }
    if (news.ended) sound("end");
    else if (isMyTurn() && !wasMyTurn) sound("turn");
    for (const call of callsOf(previous, view, news)) {
      speak(call.kind ? kindName(wordsOf(s.game), call.kind) : t({ beat: "callBeat", pass: "pass", one: "announceOne" }[call.call]), getLang());
    }
  }

  /** The play on top of the trick moves from its seat to the centre (unless motion is reduced). */
  function flyToCentre(seat) {
    const lead = boardHost.querySelector(".center-lead");
    const from = boardHost.querySelector(`.seat[data-seat="${seat}"]`);
    if (!lead || !from || lead.dataset.seat !== String(seat)) return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const a = from.getBoundingClientRect();
    const b = lead.getBoundingClientRect();
    lead.style.setProperty("--dx", `${Math.round(a.left + a.width / 2 - (b.left + b.width / 2))}px`);
    lead.style.setProperty("--dy", `${Math.round(a.top + a.height / 2 - (b.top + b.height / 2))}px`);
    lead.classList.add("arrive");
    // once arrived it stays: a play hidden and shown again (a phone's layout) does not fly again
    if (lead.dataset.big !== "1") lead.addEventListener("animationend", () => lead.classList.remove("arrive"), { once: true });
  }

  /** The worker's legal moves must be the server's: both come from the same view. */
  function crossCheck(mine, theirs) {
    if (!theirs) return;
    const key = (list) => list.map((m) => JSON.stringify(m)).sort().join("|");
    if (key(mine) !== key(theirs)) {
      console.error("the engine worker and the server disagree on the legal moves", { mine, theirs });
    }
  }

  async function orderHand(cards) {
    try {
      s.hand = await seatEngine.order(cards, s.sortMode);
    } catch (err) {
      s.hand = [...cards];
    }
  }

  // --- selection, validation, hints -----------------------------------------------------------------
  /** My seat is to move (to play, bid or call: any phase but the table's own) and the table
   * is at rest. */
  function isMyTurn() {
    return !s.working && myTurnInView();
  }

  /** The view says my seat is to move, whether or not its frame's engine work is done. */
  function myTurnInView() {
    return !!s.view && s.settled && s.seat !== null && seatToMove(s.view) === s.seat;
  }

  /** The legal moves that are words, not plays of cards (empty unless a seat must speak). */
  function spokenOf(moves) {
    return moves.filter((m) => wordField(m) !== null);
  }

  function selectedCodes() {
    return [...s.selected].sort((a, b) => a - b).map((i) => s.hand[i]);
  }

  function reselect(codes) {
    s.selected.clear();
    const used = new Set();
    for (const code of codes) {
      const i = s.hand.findIndex((c, j) => c === code && !used.has(j));
      if (i >= 0) {
        used.add(i);
        s.selected.add(i);
      }
    }
  }

  function selectionChanged() {
    paintSelection();
    validate();
  }

  async function validate() {
    const seq = ++s.checkSeq;
    const cards = selectedCodes();
    if (!isMyTurn() || cards.length === 0 || !seatEngine || spokenOf(s.moves).length) {
      s.check = null;
      renderControls();
      return;
    }
    if (engine.stage !== "ready") { // the server's plays answer until the engine can say why not
      const play = playOf(s.moves, cards);
      s.check = play ? { ok: true, command: play, kind: null } : { ok: false, error: null, loading: true };
      renderControls();
      return;
    }
    const result = await seatEngine.check(cards);
    if (ambiguous(result) && !result.readings) result.readings = await seatEngine.readings(cards);
    if (seq !== s.checkSeq) return; // a newer selection is being checked
    s.check = result;
    renderControls();
  }

  /** The engine's verdict asks the player to choose how the selection is read. */
  function ambiguous(check) {
    return check?.ok === false && check.error?.code === "ambiguous_reading";
  }

  /** Play the selection read as the player chose: checked again with that reading, then sent. */
  async function playReading(choice) {
    const seq = ++s.checkSeq;
    const result = await seatEngine.check(selectedCodes(), choice.reading);
    if (seq !== s.checkSeq) return;
    if (result.ok) {
      send(result.command);
      return;
    }
    s.check = result;
    renderControls();
  }

  /** A reading's name as players say it: the set, each wildcard as what it stands for, and its
   * combination as the game's words name it ("7777" and the kind's name). */
  function readingName(choice) {
    const words = wordsOf(s.game);
    const name = words.kinds?.[choice.kind] ? kindName(words, choice.kind) : both(choice.name);
    return choice.said ? `${choice.said} ${name}` : name;
  }

  /** The chooser of an ambiguous selection's readings (hidden otherwise). */
  function renderReadings(mine) {
    const choices = mine && ambiguous(s.check) ? (s.check.readings ?? []) : [];
    readingsEl.hidden = choices.length === 0;
    clear(
      readingsEl,
      choices.map((choice, i) =>
        h(
          `button.button.reading${i === 0 ? ".primary" : ""}`,
          { type: "button", dataset: { kind: choice.kind }, disabled: !!s.pending, on: { click: () => playReading(choice) } },
          readingName(choice),
        ),
      ),
    );
  }

  function hint() {
    const plays = s.moves.filter((m) => m.type === "play");
    if (!plays.length) {
      s.message = { kind: "info", text: t("noPlays") };
      renderControls();
      return;
    }
    s.hintIndex = (s.hintIndex + 1) % plays.length;
    reselect(plays[s.hintIndex].cards);
    s.message = null;
    selectionChanged();
  }

  /** Frame a command with a fresh id and send it; it is pending until the server answers. The
   * id, or null when the socket is not open. */
  function dispatch(command) {
    const id = commandId();
    const frame = { type: "command", id, command };
    if (!sendFrame(frame)) return null;
    s.pending = id;
    s.sentFrame = frame;
    s.retries = 0;
    return id;
  }

  function send(command) {
    if (!command || !isMyTurn() || s.pending || !s.connected) return false;
    if (dispatch(command) === null) return false;
    s.message = { kind: "info", text: t("sending") };
    renderControls();
    return true;
  }

  function setupDrag() {
    // click toggles one card; pressing on a card and dragging across others gives them all the
    // state the first card took (a run is selected in one stroke)
    let drag = null;
    const indexAt = (x, y) => {
      const el = /** @type {HTMLElement | null} */ (document.elementFromPoint(x, y)?.closest?.(".card[data-index]"));
      return el && handEl.contains(el) ? Number(el.dataset.index) : null;
    };
    handEl.addEventListener("pointerdown", (e) => {
      const i = indexAt(e.clientX, e.clientY);
      if (i === null || e.button > 0) return;
      e.preventDefault();
      const mode = !s.selected.has(i);
      drag = { start: i, mode, base: new Set(s.selected), last: i };
      applyDrag(i);
      handEl.setPointerCapture?.(e.pointerId);
    });
    handEl.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const i = indexAt(e.clientX, e.clientY);
      if (i === null || i === drag.last) return;
      drag.last = i;
      applyDrag(i);
    });
    const end = () => {
      if (!drag) return;
      drag = null;
      s.hintIndex = -1;
      selectionChanged();
    };
    handEl.addEventListener("pointerup", end);
    handEl.addEventListener("pointercancel", end);
    function applyDrag(i) {
      s.selected = new Set(drag.base);
      const [lo, hi] = drag.start <= i ? [drag.start, i] : [i, drag.start];
      for (let k = lo; k <= hi; k++) {
        if (drag.mode) s.selected.add(k);
        else s.selected.delete(k);
      }
      paintSelection();
    }
    handEl.addEventListener("keydown", (e) => {
      const el = e.target.closest?.(".card[data-index]");
      if (!el || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      const i = Number(el.dataset.index);
      if (s.selected.has(i)) s.selected.delete(i);
      else s.selected.add(i);
      selectionChanged();
    });
  }

  // --- rendering ---------------------------------------------------------------------------------
  function names() {
    return (s.meta?.seats ?? []).map((seat) => seat.name ?? null);
  }

  function kindsOf() {
    return (s.meta?.seats ?? []).map((seat) => seat.kind);
  }

  function ctx() {
    return {
      view: s.view,
      words: wordsOf(s.game),
      config: s.config,
      me: s.seat,
      bottom: s.seat ?? 0,
      names: names(),
      kinds: kindsOf(),
      left: (s.meta?.seats ?? []).map((seat) => !!seat.left),
      connected: s.online,
      openHands: s.view?.hands ? s.openHands : null,
      memory: s.memory,
      turnSince: s.turnSince,
      deadline: s.deadline,
      deadlineSeat: s.deadlineSeat,
      mySlot: s.seat !== null ? mySlot : null,
      waiting: s.meta?.status === "open",
      bigKinds: s.bigKinds,
      handNote: s.handNote,
      offline: !s.connected, // no socket: what the server's clocks say now is not known here
      talk: talk.bubbles(),
    };
  }

  function renderHead() {
    const variant = variantOf(s.game, s.config?.variant);
    title.textContent = `${gameName(s.game) || s.config?.game || ""} · ${variantName(variant)}`;
    const bits = [];
    // while a hand's sheet is up the next deal is already committed to: the head names the hand shown
    const shownHand = handOver(s.view) ? s.view.last_hand.hand_no : s.view?.hand_no;
    if (shownHand) bits.push(t("handNo", { n: shownHand }));
    bits.push(`${t("table")} ${tableId.slice(0, 8)}`);
    if (s.seat === null) bits.push(t("spectating"));
    const rules = houseRulesText(variant, s.config?.options);
    const clockLine = clockText(s.game, s.meta?.clock);
    clear(
      sub,
      bits.join(" · "),
      rules ? [" · ", h("span.house-rules-line#house-rules-line", null, rules)] : null,
      clockLine ? [" · ", h("span.clock-line#clock-line", null, clockLine)] : null,
      " ",
      h("a.linkish#table-rules", { href: `#/rules/${s.config?.game ?? ""}?table=${tableId}` }, t("rules")),
      " ",
      shareButtons(tableId, s.meta),
      s.view?.last_hand || (s.view?.counts?.length ?? 0) > 0 // dealt: the match is on
        ? [" ", h("button.linkish#open-scores", { type: "button", on: { click: () => openScoreTable(tableId, ctx()) } }, t("scoresButton"))]
        : null,
      s.seat !== null && !watch && s.meta?.status === "playing" ? [" ", leaveMatchButton(tableId)] : null,
    );
    page.dataset.seat = s.seat ?? "";
    backLink.textContent = `← ${t("backToLobby")}`;
  }

  function renderWaiting() {
    const dealt = (s.view?.counts?.length ?? 0) > 0;
    if (s.meta?.status === "closed") {
      waiting.hidden = false;
      clearInterval(waitingTimer);
      waitingTimer = null;
      clear(waiting, h("h2", null, t("tableClosed")), h("a.button", { href: "#/" }, t("backToLobby")));
      return;
    }
    if (s.meta?.status !== "open" || dealt) {
      waiting.hidden = true;
      clearInterval(waitingTimer);
      waitingTimer = null;
      return;
    }
    waiting.hidden = false;
    const seats = s.meta?.seats ?? [];
    clear(
      waiting,
      h("h2", null, t("waitingPlayers")),
      h("p.muted", null, t("waitingHint")),
      h(
        "ul.waiting-seats",
        null,
        seats.map((seat) =>
          h(
            `li.${seat.kind}`,
            { dataset: { seat: seat.seat } },
            h("span.avatar", null, String(seat.seat + 1)),
            h("span", null, seat.kind === "empty" ? t("emptySeat") : seatName({ names: names(), kinds: kindsOf(), me: s.seat }, seat.seat)),
            seat.kind === "bot" ? h("span.badge.bot", null, t("bot")) : null,
            seat.waiting ? h("span.badge.not-ready", null, t("notReady")) : null,
            seat.kind === "empty" && s.seat === null && !watch
              ? h("button.button.small", { type: "button", on: { click: () => sit(seat.seat) } }, t("sitHere"))
              : null,
          ),
        ),
      ),
      rematchWaiting(s.meta, (seat) => seatName({ names: names(), kinds: kindsOf(), me: s.seat }, seat)),
      waitingControls({
        tableId,
        meta: s.meta,
        seated: s.seat !== null || !!s.token,
        watch,
        invited: query?.get("join") === "1",
        sit,
        fillBots,
        done: () => {
          location.hash = "#/";
        },
      }),
    );
    if (!waitingTimer) waitingTimer = setInterval(refreshMeta, 1500);
  }

  async function refreshMeta() {
    if (s.gone) return;
    try {
      s.meta = await api.table(tableId);
    } catch (err) {
      if (GONE.has(err.code)) tableGone(err);
      return;
    }
    if (s.dead) return;
    renderWaiting();
    if (s.view) renderAll();
  }

  async function fillBots(e) {
    e.target.disabled = true;
    try {
      await api.addBots(tableId);
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
      s.token = { seat: joined.seat, token: joined.token };
      s.hello = sendFrame({ type: "hello", token: joined.token });
      await refreshMeta();
    } catch (err) {
      toast(both(err), "error");
    }
  }

  function renderAll() {
    if (!s.view) return;
    renderHead();
    renderWaiting();
    renderBoard(boardHost, ctx());
    renderHand();
    renderControls();
    renderSheet();
    document.body.dataset.myTurn = isMyTurn() ? "1" : "";
    renderAuto();
    renderTalk();
    layoutHand(true); // with everything else drawn: do whole rows of cards still fit?
    // a hand of another size is measured again once the browser has drawn it: the board is
    // patched in place now, and a size read while it settled stayed (CI: 16 cards in "one row")
    if (s.hand.length !== s.laidOut) {
      s.laidOut = s.hand.length;
      requestAnimationFrame(() => layoutHand(true));
    }
  }

  /** The 托管 button (托管 / 取消托管) and the tab's title when it is my turn. */
  function renderAuto() {
    const inAuto = s.seat !== null && (s.view?.auto ?? []).includes(s.seat);
    const playing = (s.view?.counts?.length ?? 0) > 0 && s.view?.phase !== "over";
    autoBtn.hidden = s.seat === null || !s.token || !playing;
    autoBtn.textContent = inAuto ? t("autoOff") : t("autoOn");
    autoBtn.title = inAuto ? t("autoNotice") : t("autoOnTitle");
    autoBtn.dataset.on = inAuto ? "1" : "";
    autoBtn.disabled = !!s.pending || !s.connected; // a switch is a command: sent, or no socket
    document.title = (isMyTurn() && s.settled ? t("yourTurnTitle") : "") + baseTitle;
  }

  /** On a narrow screen the hand is laid out in rows (css: a grid of strips and a last whole
   * card): as few rows as let every card show a strip of at least MIN_STRIP px. A hand that takes
   * more than one row (three on a phone) at the page's card size is stacked: rows drawn each over
   * the one above it, so that only its cards' corners (rank and suit) show. On a phone, one or two
   * rows of whole cards stay whole while the lines under the controls end on the screen, and are
   * stacked when they would not (a board with more on it, a shorter screen): that is measured
   * when `fit` is asked (a frame drawn, the screen resized), never as cards are selected, so the
   * hand does not change under the player's finger. */
  function layoutHand(fit = false) {
    const n = s.hand.length;
    const width = () => {
      const style = getComputedStyle(handEl);
      return handEl.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
    };
    const rowsFor = (cardW, w) => Math.max(1, Math.ceil(n / Math.max(1, Math.floor((w - cardW) / MIN_STRIP) + 1)));
    // decided at the page's card size, not the stacked one
    const pageW = parseFloat(getComputedStyle(handEl.parentElement).getPropertyValue("--card-w")) || 60;
    const phone = window.matchMedia?.("(max-width: 640px)").matches;
    const apply = (stack) => {
      if (handEl.dataset.stack !== stack) handEl.dataset.stack = stack;
      const cardW = parseFloat(getComputedStyle(handEl).getPropertyValue("--card-w")) || 60;
      const rows = rowsFor(cardW, width());
      const perRow = Math.ceil(Math.max(n, 1) / rows);
      const strips = String(Math.max(1, perRow - 1));
      // written only when changed: a write makes the next read lay the page out again
      if (handEl.style.getPropertyValue("--strips") !== strips) handEl.style.setProperty("--strips", strips);
      if (handEl.dataset.rows !== String(rows)) handEl.dataset.rows = String(rows);
    };
    const pageRows = rowsFor(pageW, width());
    const either = phone && pageRows <= 2; // whole rows or stacked, as they fit
    if (!either) apply(pageRows >= (phone ? 3 : 2) ? "1" : "");
    else if (!fit) apply(handEl.dataset.stack ?? "");
    else {
      apply(""); // laid out whole, then measured
      if (!wholeRowsFit()) apply("1");
    }
  }

  /** The last line under the controls ends on the screen with the page at its top, with room
   * left for that line to take a second line (a refusal is longer than the help it replaces). */
  function wholeRowsFit() {
    const lines = [controls.parentElement, reasonEl.parentElement, whyEl].filter((el) => !el.hidden);
    const bottom = Math.max(...lines.map((el) => el.getBoundingClientRect().bottom)) + window.scrollY;
    return bottom + SECOND_LINE <= window.innerHeight;
  }

  const handResize = new ResizeObserver(() => layoutHand(true));
  handResize.observe(handEl);
  const screenResized = () => layoutHand(true);
  window.addEventListener("resize", screenResized);

  /** The hand's cards; its rows are laid out by the caller once the page is drawn (renderAll). */
  function renderHand() {
    const n = s.hand.length;
    handEl.style.setProperty("--n", String(Math.max(n, 1)));
    patch( // the cards that stay in their places are not drawn again (and keep the focus)
      handEl,
      s.hand.map((code, i) => {
        const el = cardEl(code, "in-hand");
        el.dataset.index = String(i);
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        markSelected(el);
        return el;
      }),
    );
    clearBtn.disabled = s.selected.size === 0;
  }

  function paintSelection() {
    for (const el of $$(".card[data-index]", handEl)) markSelected(el);
    clearBtn.disabled = s.selected.size === 0;
  }

  function markSelected(card) {
    const on = s.selected.has(Number(card.dataset.index));
    card.classList.toggle("selected", on);
    card.setAttribute("aria-pressed", on ? "true" : "false");
  }

  /** The number of cards every legal play has, when they all have the same (and more than one):
   * the selection must be exactly that many (a burial, a follow to a set led). */
  function selectionSize() {
    const sizes = new Set(s.moves.filter((m) => m.type === "play").map((m) => m.cards.length));
    const [size] = sizes;
    return sizes.size === 1 && size > 1 ? size : null;
  }

  function renderControls() {
    // outside the play of cards, the play button says what playing the cards does there
    const words = wordsOf(s.game);
    const phase = s.view?.phase;
    const special = phase && phase !== "play" && s.moves.some((m) => m.type === "play");
    playBtn.textContent = (special && turnLine(words, phase, true, "")) || t("play");
    passBtn.textContent = t("pass");
    hintBtn.textContent = t("hint");
    clearBtn.textContent = t("clear");
    sortBtn.textContent = s.sortMode === "rank" ? t("sortCount") : t("sortRank");
    const mine = isMyTurn();
    const ready = engine.stage === "ready";
    const offline = !s.connected; // no socket: a move could not be sent
    const said = mine ? spokenOf(s.moves) : [];
    renderWords(said);
    controls.hidden = said.length > 0;
    const size = mine ? selectionSize() : null;
    counterEl.hidden = !size;
    counterEl.textContent = size ? t("selectedOf", { k: s.selected.size, n: size }) : "";
    counterEl.dataset.full = size && s.selected.size === size ? "1" : "";
    // while the seat speaks (a word, a card named) its hand is only to look at: smaller, to leave room
    const compact = said.length > 0;
    mySlot.dataset.speaking = compact ? "1" : "";
    if (handEl.classList.contains("compact") !== compact) {
      handEl.classList.toggle("compact", compact);
      layoutHand();
    }
    const canPass = mine && s.moves.some((m) => m.type === "pass");
    // before the engine is ready, the moves and the check are the server's: acting waits for nothing
    playBtn.disabled = !(mine && !s.pending && !offline && s.check?.ok === true);
    passBtn.disabled = !(mine && !s.pending && !offline && canPass);
    // the game has no pass here at all (nor, while the table deals or scores, in its play)
    passBtn.hidden = (!!phase && s.passless.has(phase)) || (s.passless.size > 0 && seatToMove(s.view) === null);
    passBtn.title = mine && !canPass && !passBtn.hidden && s.passCheck?.error ? both(s.passCheck.error) : "";
    hintBtn.disabled = !(mine && ready && !s.pending);
    clearBtn.disabled = s.selected.size === 0;
    mySlot.dataset.turn = mine ? "1" : "";
    renderReadings(mine && ready && !offline);
    // the line under the controls: a refusal, the engine's reason, or what to do
    let text = "";
    let kind = "info";
    let code = "";
    if (s.message) {
      ({ text, kind } = s.message);
      code = s.message.code ?? "";
    } else if (mine && offline) {
      text = t("offlineTurn");
      kind = "error";
      code = "disconnected";
    } else if (mine && !ready && !s.check?.ok && !said.length) {
      text = t("engineLoadingCheck");
    } else if (mine && s.check && s.check.ok === false && s.check.error) {
      text = both(s.check.error);
      kind = ambiguous(s.check) ? "info" : "error"; // not a fault: the player chooses a reading
      code = s.check.error.code;
    } else if (mine && s.check?.ok) {
      kind = "ok";
      text = t("legalPlay", { kind: s.check.kind ? kindName(wordsOf(s.game), s.check.kind) : t("play") });
    } else if (mine && said.length) {
      text = "";
    } else if (mine && special && helpText(words, phase)) {
      text = helpText(words, phase); // what to select here (how many cards, and which may go)
    } else if (mine) {
      text = s.moves.some((m) => m.type === "play") ? t("selectCards") : t("noPlays");
    }
    reasonEl.textContent = text;
    reasonEl.hidden = !text;
    reasonEl.dataset.kind = kind;
    reasonEl.dataset.code = code;
    // why the buttons are disabled, in words under them
    let why = "";
    let whyCode = "";
    const toMove = seatToMove(s.view);
    if (mine && offline) why = t("disconnected");
    else if (s.pending) why = t("waitSending");
    else if (s.seat !== null && s.view && !mine && toMove !== null && toMove !== s.seat) {
      why = t("notYourTurnWhy", { name: seatName({ names: names(), kinds: kindsOf(), me: s.seat }, toMove) });
      whyCode = "not_your_turn";
    } else if (mine && ready && !said.length && !canPass && !passBtn.hidden && s.passCheck?.error) {
      why = t("passWhy", { reason: both(s.passCheck.error) });
      whyCode = s.passCheck.error.code ?? "";
    }
    whyEl.textContent = why;
    whyEl.hidden = !why;
    whyEl.dataset.code = whyCode;
    renderAuto(); // its button waits for the same acknowledgement as the others
    renderTracker();
  }

  /** The 记牌器: for each rank, the cards neither in my hand nor played yet (the worker counts
   * them from my views); shown when the player asks for it. */
  function renderTracker() {
    trackerBtn.textContent = t("tracker");
    trackerBtn.setAttribute("aria-pressed", s.trackerOn ? "true" : "false");
    const data = s.tracker;
    trackerEl.hidden = !s.trackerOn || !data;
    if (trackerEl.hidden) {
      clear(trackerEl);
      return;
    }
    trackerEl.dataset.complete = data.complete ? "1" : "";
    trackerEl.dataset.hand = String(data.hand_no ?? "");
    trackerEl.setAttribute("aria-label", t("trackerTitle"));
    clear(
      trackerEl,
      h(
        "ul.tracker-ranks",
        { title: t("trackerTitle") },
        data.ranks.map((r) =>
          h(
            "li",
            { dataset: { rank: r.rank, left: String(r.left), none: r.left === 0 ? "1" : "" } },
            h("span.tracker-rank", null, rankLabel(r.card)),
            h("b.tracker-left", null, String(r.left)),
          ),
        ),
      ),
      data.complete ? null : h("p.tracker-note", null, t("trackerPartial")),
    );
  }

  /** The words I may say now, as controls in place of the play buttons (hidden when none). */
  function renderWords(words) {
    const type = words[0]?.type;
    speakEl.hidden = !type;
    speakEl.dataset.type = type ?? "";
    if (!type) {
      clear(speakEl);
      return;
    }
    const moves = words.filter((m) => m.type === type);
    const controls = namesCards(moves) ? cardPicker : wordButtons;
    const pick = (card) => {
      s.callPick = card;
      renderControls();
    };
    // a word cannot be said while one is being sent, nor without a socket
    const ctx = { view: s.view, words: wordsOf(s.game), pending: !!s.pending || !s.connected, picked: s.callPick, pick, send };
    const help = helpText(ctx.words, s.view?.phase);
    clear(speakEl, controls(moves, ctx), help ? h("p.word-help", null, help) : null);
  }

  /** Between hands: 继续 sends my Continue (the next deal waits for every person's, or for its
   * deadline), with who is still to press it; a spectator only closes the sheet. */
  function continueControls(view, handNo) {
    const kinds = kindsOf();
    const ready = view.ready ?? [];
    const waitingFor = kinds.map((kind, seat) => (kind === "human" && !ready.includes(seat) ? seatName(ctx(), seat) : null)).filter(Boolean);
    const seated = s.seat !== null && !!s.token;
    const done = seated && ready.includes(s.seat);
    const press = () => {
      if (seated) {
        // once the next deal is committed to, 继续 carries this player's seed for its shuffle
        const seed = view.phase === "seeding" ? { seed: api.newSeed() } : {};
        if (!s.pending) dispatch({ type: "continue", seat: s.seat, ...seed });
      } else {
        s.dismissedHand = handNo;
        renderSheet();
      }
    };
    return [
      h("button.button.primary#continue", { type: "button", disabled: done || !s.settled, on: { click: press } }, done ? t("continueDone") : t("continue")),
      waitingFor.length ? h("span.continue-waiting", null, t("continueWaiting", { names: waitingFor.join(t("listSep")) })) : null,
      s.deadline && s.deadlineSeat === null ? countdown(s.deadline, "nextHandIn") : null,
    ];
  }

  /** Another player of this finished match pressed 再来一局: the sheet asks me, with the
   * rematch table's entry (who pressed, when it lapses), if my seat there waits for me. */
  async function offerRematch(rematchId) {
    if (s.seat === null || !s.token || s.rematchOffer?.table.id === rematchId) return;
    let table;
    try {
      table = await api.table(rematchId);
    } catch {
      return; // no offer to show (it lapsed); 再来一局 still answers for itself
    }
    if (s.dead) return;
    s.meta = s.meta ? { ...s.meta, rematch: rematchId } : s.meta;
    s.rematchOffer = {
      table,
      seat: s.seat,
      declined: false,
      onDecline: () => {
        s.rematchOffer = { ...s.rematchOffer, declined: true };
        renderSheet();
      },
    };
    renderSheet();
  }

  function renderSheet() {
    const view = s.view;
    if (!view) return;
    // the sheet opens once the table's own steps after the hand's end are done (its seed
    // revealed, then the next deal committed to, or the match ended), when it is known whether
    // the match goes on: a last hand's sheet opens as the match's end, never as a hand's sheet
    // with 继续 that turns into it a moment later
    const ended = handOver(view) && (view.phase === "seeding" || view.phase === "over");
    const final = view.phase === "over" || !!s.over;
    const handNo = view.last_hand?.hand_no;
    if (!ended || (!final && s.dismissedHand === handNo)) {
      clear(sheetHost);
      sheetHost.hidden = true;
      return;
    }
    const buttons = final
      ? [
          rematchControls(tableId, s.meta, s.seat !== null && !!s.token, s.rematchOffer),
          h(`a.button${s.seat !== null ? "" : ".primary"}#open-replay`, { href: `#/replay/${tableId}` }, t("viewReplay")),
          h("a.button", { href: "#/" }, t("backToLobby")),
        ]
      : continueControls(view, handNo);
    const sheet = scoreSheet({ ...ctx(), view: { ...view, hands: s.openHands ?? view.hands } }, { final, actions: buttons });
    if (final && sheet) sheet.append(finalScores ??= scoreTableHost(tableId, ctx(), true)); // under 再来一局
    sheetHost.hidden = false;
    clear(sheetHost, h("div.sheet-backdrop", null, sheet));
  }

  start();

  function rerender() {
    renderHead();
    renderWaiting();
    if (s.view) renderAll();
  }

  // for the end-to-end tests and the bench: what the page holds, and a way to time checks
  window.paiju.table = {
    get state() {
      return {
        seat: s.seat,
        view: s.view,
        moves: s.moves,
        hand: s.hand,
        frames: s.frames,
        pending: s.pending,
        settled: s.settled,
        connected: s.connected,
        check: s.check,
      };
    },
    /** Send a command without the local check, as a stale or tampered client would: the
     * server is the authority, and the page must show its refusal and resynchronise. */
    sendUnchecked(command) {
      const id = dispatch(command);
      if (id !== null) renderControls();
      return id;
    },
    async benchValidate(count = 200) {
      const roundTrip = [];
      const worker = [];
      const updates = [];
      const hand = s.hand;
      for (let i = 0; i < Math.min(count, 100); i++) {
        const t0 = performance.now();
        await seatEngine.view(s.view); // a frame's work: rebuild the state, list the legal moves
        updates.push(performance.now() - t0);
      }
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        const size = 1 + (i % Math.min(5, hand.length));
        const start = (i * 7) % hand.length;
        const cards = Array.from({ length: size }, (_, k) => hand[(start + k * 3) % hand.length]);
        const unique = [...new Set(cards)];
        const t0 = performance.now();
        const out = await seatEngine.check(unique);
        roundTrip.push(performance.now() - t0);
        worker.push(out.us / 1000);
      }
      return { roundTrip, worker, updates, totalMs: performance.now() - started };
    },
  };

  return {
    unmount() {
      s.dead = true;
      handResize.disconnect();
      window.removeEventListener("resize", screenResized);
      stopEngineWatch();
      clearInterval(clocks);
      clearInterval(waitingTimer);
      s.ws?.close();
      seatEngine?.drop();
      delete window.paiju.table;
      talk.drop();
      document.body.dataset.myTurn = "";
    },
    rerender,
  };
}
