// My controls at a live table, under my hand: 不要 提示 重选 出牌 (or the words I may say
// instead), the tools (sort, 记牌器, 托管), the readings of an ambiguous selection, and the lines
// under them: the selection's reason (#reason), how many cards are selected (#counter), and why a
// button is disabled (#why: a tooltip alone says nothing on a phone). Each part is written again
// only when what it shows changed.

import { rankLabel } from "./cards.js";
import { clear, h } from "./dom.js";
import { both, getLang, t } from "./i18n.js";
import { seatToMove } from "./table-phases.js";
import { ambiguous, isMyTurn, selectionSize, spokenOf } from "./table-queries.js";
import { wordControls } from "./table-words.js";
import { helpText, kindName, turnLine } from "./words.js";

/** @typedef {import("./table-state.js").TableState} TableState */
/** @typedef {{play(): void, pass(): void, hint(): void, clear(): void, sort(): void, tracker(): void, auto(): void,
 *   say(move: any): void, pick(card: string): void, reading(choice: any): void}} Actions */
/** @typedef {{state: TableState, words: any, nameOf: (seat: number) => string}} ControlsModel */

/** @param {any} a @param {any[]} b */
const same = (a, b) => !!a && a.length === b.length && a.every((x, i) => x === b[i]);

/** The controls; `actions` are what their clicks ask of the table.
 * @param {Actions} actions */
export function createControls(actions) {
  const button = (/** @type {string} */ tag, /** @type {() => void} */ click, label = "") =>
    h(tag, { type: "button", on: { click } }, label);
  const play = button("button.button.primary#play", actions.play);
  const pass = button("button.button#pass", actions.pass);
  const hint = button("button.button#hint", actions.hint);
  const clearBtn = button("button.button.ghost#clear", actions.clear);
  const sort = button("button.button.ghost.small#sort", actions.sort);
  const trackerBtn = h("button.button.ghost.small#tracker-toggle", { type: "button", "aria-pressed": "false", on: { click: actions.tracker } });
  // 托管: the server plays for my seat until I cancel it or act myself
  const auto = h("button.button.ghost.small#auto", { type: "button", hidden: true, on: { click: actions.auto } });
  const reason = h("p.reason#reason", { role: "status", "aria-live": "polite" });
  // how many cards are selected, when every legal play has the same number of cards (a burial)
  const counter = h("span.counter#counter", { hidden: true, role: "status" });
  const why = h("p.why#why", { hidden: true });
  const tracker = h("div.tracker#tracker", { hidden: true, role: "group" });
  // a selection the game lets the player read several ways: one button per reading
  const readings = h("div.readings#readings", { hidden: true, role: "group" });
  const speak = h("div.speak#speak", { hidden: true, role: "group" });
  const buttons = h("div.controls", null, pass, hint, clearBtn, play);
  const row = h("div.controls-row", null, h("div.tools", null, sort, trackerBtn, auto), buttons);
  const reasonRow = h("div.reason-row", null, counter, reason);
  /** @type {Record<string, any[]>} what each part was last drawn from */
  const drawn = {};
  /** Whether `part` must be drawn again for `inputs` (and remember them). @param {string} part @param {any[]} inputs */
  const changed = (part, inputs) => (same(drawn[part], inputs) ? false : ((drawn[part] = inputs), true));

  /** @param {ControlsModel} model */
  function render({ state: s, words, nameOf }) {
    const lang = getLang();
    const phase = s.view?.phase;
    const mine = isMyTurn(s);
    const ready = s.engineReady;
    const offline = !s.connected; // no socket: a move could not be sent
    const said = mine ? spokenOf(s.moves) : [];
    // outside the play of cards, the play button says what playing the cards does there
    const special = !!phase && phase !== "play" && s.moves.some((m) => m.type === "play");
    play.textContent = (special && turnLine(words, phase, true, "")) || t("play");
    pass.textContent = t("pass");
    hint.textContent = t("hint");
    clearBtn.textContent = t("clear");
    sort.textContent = s.sortMode === "rank" ? t("sortCount") : t("sortRank");
    if (changed("words", [said.length ? s.moves : null, said.length ? s.view : null, !!s.pending || offline, s.callPick, lang])) renderWords(said, s, words);
    buttons.hidden = said.length > 0;
    const size = mine ? selectionSize(s) : null;
    counter.hidden = !size;
    counter.textContent = size ? t("selectedOf", { k: s.selected.length, n: size }) : "";
    counter.dataset.full = size && s.selected.length === size ? "1" : "";
    const canPass = mine && s.moves.some((m) => m.type === "pass");
    // before the engine is ready, the moves and the check are the server's: acting waits for nothing
    play.disabled = !(mine && !s.pending && !offline && s.check?.ok === true);
    pass.disabled = !(mine && !s.pending && !offline && canPass);
    // the game has no pass here at all (nor, while the table deals or scores, in its play)
    pass.hidden = (!!phase && s.passless.includes(phase)) || (s.passless.length > 0 && seatToMove(s.view) === null);
    pass.title = mine && !canPass && !pass.hidden && s.passCheck?.error ? both(s.passCheck.error) : "";
    hint.disabled = !(mine && ready && !s.pending);
    clearBtn.disabled = s.selected.length === 0;
    if (changed("readings", [mine && ready && !offline, s.check, !!s.pending, lang])) renderReadings(mine && ready && !offline, s, words);
    renderReason(s, { mine, ready, offline, said, special, words });
    renderWhy(s, { mine, ready, offline, said, canPass, nameOf });
    renderAuto(s);
    if (changed("tracker", [s.tracker, s.trackerOn, lang])) renderTracker(s);
    return { mine, speaking: said.length > 0 };
  }

  /** The words I may say now, in place of the play buttons (hidden when none).
   * @param {any[]} said @param {TableState} s @param {any} words */
  function renderWords(said, s, words) {
    const type = said[0]?.type;
    speak.hidden = !type;
    speak.dataset.type = type ?? "";
    if (!type) return clear(speak);
    // a word cannot be said while one is being sent, nor without a socket
    const ctx = { view: s.view, words, pending: !!s.pending || !s.connected, picked: s.callPick, pick: actions.pick, send: actions.say };
    const help = helpText(words, s.view?.phase);
    clear(speak, wordControls(said.filter((m) => m.type === type), ctx), help ? h("p.word-help", null, help) : null);
  }

  /** The chooser of an ambiguous selection's readings (hidden otherwise): each named as players
   * say it (the set, each wildcard as what it stands for, and the combination's name).
   * @param {boolean} mine @param {TableState} s @param {any} words */
  function renderReadings(mine, s, words) {
    const choices = mine && ambiguous(s.check) ? (s.check.readings ?? []) : [];
    readings.hidden = choices.length === 0;
    const nameOf = (/** @type {any} */ choice) => {
      const name = words.kinds?.[choice.kind] ? kindName(words, choice.kind) : both(choice.name);
      return choice.said ? `${choice.said} ${name}` : name;
    };
    clear(
      readings,
      choices.map((/** @type {any} */ choice, /** @type {number} */ i) =>
        h(
          `button.button.reading${i === 0 ? ".primary" : ""}`,
          { type: "button", dataset: { kind: choice.kind }, disabled: !!s.pending, on: { click: () => actions.reading(choice) } },
          nameOf(choice),
        ),
      ),
    );
  }

  /** The line under the controls: a refusal, the engine's reason, or what to do.
   * @param {TableState} s @param {any} o */
  function renderReason(s, { mine, ready, offline, said, special, words }) {
    let text = "";
    let kind = "info";
    let code = "";
    const m = s.message;
    if (m) {
      text = m.key === "refused" ? t("refused", { reason: both(m.error) }) : t(m.key);
      if (m.resynced) text = `${text} · ${t("resynced")}`;
      kind = m.kind;
      code = m.code ?? "";
    } else if (mine && offline) {
      [text, kind, code] = [t("offlineTurn"), "error", "disconnected"];
    } else if (mine && !ready && !s.check?.ok && !said.length) {
      text = t("engineLoadingCheck");
    } else if (mine && s.check && s.check.ok === false && s.check.error) {
      text = both(s.check.error);
      kind = ambiguous(s.check) ? "info" : "error"; // not a fault: the player chooses a reading
      code = s.check.error.code;
    } else if (mine && s.check?.ok) {
      kind = "ok";
      text = t("legalPlay", { kind: s.check.kind ? kindName(words, s.check.kind) : t("play") });
    } else if (mine && !said.length && special && helpText(words, s.view.phase)) {
      text = helpText(words, s.view.phase); // what to select here (how many cards, and which may go)
    } else if (mine && !said.length) {
      text = s.moves.some((move) => move.type === "play") ? t("selectCards") : t("noPlays");
    }
    reason.textContent = text;
    reason.hidden = !text;
    reason.dataset.kind = kind;
    reason.dataset.code = code;
  }

  /** Why the buttons are disabled, in words under them. @param {TableState} s @param {any} o */
  function renderWhy(s, { mine, ready, offline, said, canPass, nameOf }) {
    let text = "";
    let code = "";
    const toMove = seatToMove(s.view);
    if (mine && offline) text = t("disconnected");
    else if (s.pending) text = t("waitSending");
    else if (s.seat !== null && s.view && !mine && toMove !== null && toMove !== s.seat) {
      [text, code] = [t("notYourTurnWhy", { name: nameOf(toMove) }), "not_your_turn"];
    } else if (mine && ready && !said.length && !canPass && !pass.hidden && s.passCheck?.error) {
      [text, code] = [t("passWhy", { reason: both(s.passCheck.error) }), s.passCheck.error.code ?? ""];
    }
    why.textContent = text;
    why.hidden = !text;
    why.dataset.code = code;
  }

  /** The 托管 button (托管 / 取消托管): a switch is a command, sent, or no socket.
   * @param {TableState} s */
  function renderAuto(s) {
    const inAuto = s.seat !== null && (s.view?.auto ?? []).includes(s.seat);
    const playing = (s.view?.counts?.length ?? 0) > 0 && s.view?.phase !== "over";
    auto.hidden = s.seat === null || !s.token || !playing;
    auto.textContent = inAuto ? t("autoOff") : t("autoOn");
    auto.title = inAuto ? t("autoNotice") : t("autoOnTitle");
    auto.dataset.on = inAuto ? "1" : "";
    /** @type {HTMLButtonElement} */ (auto).disabled = !!s.pending || !s.connected;
  }

  /** The 记牌器: for each rank, the cards neither in my hand nor played yet (the worker counts
   * them from my views); shown when the player asks for it. @param {TableState} s */
  function renderTracker(s) {
    trackerBtn.textContent = t("tracker");
    trackerBtn.setAttribute("aria-pressed", s.trackerOn ? "true" : "false");
    const data = s.tracker;
    tracker.hidden = !s.trackerOn || !data;
    if (tracker.hidden) return clear(tracker);
    tracker.dataset.complete = data.complete ? "1" : "";
    tracker.dataset.hand = String(data.hand_no ?? "");
    tracker.setAttribute("aria-label", t("trackerTitle"));
    const rank = (/** @type {any} */ r) =>
      h(
        "li",
        { dataset: { rank: r.rank, left: String(r.left), none: r.left === 0 ? "1" : "" } },
        h("span.tracker-rank", null, rankLabel(r.card)),
        h("b.tracker-left", null, String(r.left)),
      );
    clear(
      tracker,
      h("ul.tracker-ranks", { title: t("trackerTitle") }, data.ranks.map(rank)),
      data.complete ? null : h("p.tracker-note", null, t("trackerPartial")),
    );
  }

  return {
    /** The parts, in the order my slot shows them (below the hand). */
    parts: [speak, row, readings, reasonRow, why, tracker], // the 记牌器 last: opening it pushes no control off the screen
    /** The lines under the controls, whose bottom must stay on the screen. */
    lines: () => [row, reasonRow, why],
    render,
    /** Drawn again from scratch at the next render (the language changed). */
    forget: () => Object.keys(drawn).forEach((part) => delete drawn[part]),
  };
}
