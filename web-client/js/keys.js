// Keyboard play at a live table, and what a screen reader hears there.
//
// The keys (shown in a help line beside the hand's tools, and on the buttons as
// aria-keyshortcuts):
//   ← →  (↑ ↓ between the rows of a phone's hand, Home, End)   move the focus ring along the hand
//   Space   select or deselect the focused card (the table's own handler on the hand does it)
//   Enter   play the selection: a click on 出牌, so the same local check and, on a refusal, the
//           same reason line (read out again when Enter finds the button disabled)
//   P       pass (不要)          Esc   clear the selection (重选)          H   a hint (提示)
// In a speaking round (a bid, a card to call) the words are buttons, reached with Tab. The hand is
// one stop of the Tab order (a roving tabindex): Tab goes from the hand to the words and buttons.
//
// The table draws its board again after every event, which can take the focused element out of
// the document, and the focus would fall back to the body. What had the focus is remembered (a
// card by its code, a button by its id or its data), and after each redraw (the table calls
// `redrawn()` once it has drawn a state) it is focused again if it still exists and can take the
// focus (a card just played: its neighbour in the hand).
//
// The live region (#announcer, ui.js `say`) is told what the other seats played, the cards named
// as the page names them (cards.js `cardText`), and when it becomes your turn: not the whole page.
//
// Installed by the table with one call; it finds the hand and buttons by their ids in `mySlot`,
// reads the table's state through `state()` and names seats through the board's `ctx()`; the
// table calls `detach()` when its page is left.

import { seatName } from "./seating.js";
import { seatToMove } from "./table-phases.js";
import { cardText } from "./cards.js";
import { $, $$, clear, h } from "./dom.js";
import { onLang, t } from "./i18n.js";
import { say, unsay } from "./ui.js";
import { kindName } from "./words.js";

/** Each button's key, as the page's help line shows it (aria-keyshortcuts names). */
const SHORTCUTS = { play: "Enter", pass: "P", clear: "Escape", hint: "H" };
const TYPING = "input, select, textarea, [contenteditable]";
const FOCUSABLE = "button, a[href], select, input, textarea, [tabindex]";
const MOVES = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);
const CHECK_WAIT_MS = 800; // Enter right after Space: the worker's check of the selection is due

/** Keyboard play and announcements for the table page `page`. `mySlot`: the seat's hand and
 * controls (#hand, #play, #pass, #clear, #hint, #reason, #why); `ctx()`: the board's context (seat
 * names); `state()`: the table's state ({view, seat, settled}). */
export function installKeys({ page, mySlot, ctx, state }) {
  const hand = $("#hand", mySlot);
  const button = (id) => $(`#${id}`, mySlot);
  const help = h("p.keys-help#keys-help");
  $(".tools", mySlot)?.append(help);
  for (const [id, key] of Object.entries(SHORTCUTS)) button(id)?.setAttribute("aria-keyshortcuts", key);

  let remembered = null; // what had the focus: {card, nth, index} or {selector}
  let roving = 0; // the hand's card that is in the Tab order
  let heard = null; // the last view told to the live region
  let wasMine = false;

  const handCards = () => $$(".card[data-index]", hand);

  function renderHelp() {
    const key = (name, what) => h("span.key", null, h("kbd", null, name), ` ${what}`);
    clear(
      help,
      h("span.keys-title", null, t("keysTitle")),
      key("← →", t("keysMove")),
      key(t("keysSpace"), t("keysSelect")),
      key(t("keysEnter"), t("keysPlay")),
      key("P", t("keysPass")),
      key("Esc", t("keysClear")),
      key("H", t("keysHint")),
    );
  }

  /** The hand named in the page's language, one of its cards in the Tab order. A card is named
   * by its face (cards.js labels it as players read it, "♠A" / "A♠"), its state by aria-pressed. */
  function dressHand() {
    const label = t("a11yHand");
    if (hand.getAttribute("aria-label") !== label) hand.setAttribute("aria-label", label);
    const cards = handCards();
    roving = Math.max(0, Math.min(roving, cards.length - 1));
    cards.forEach((el, i) => {
      const tab = i === roving ? 0 : -1;
      if (el.tabIndex !== tab) el.tabIndex = tab;
    });
  }

  /** How to find `el` again in a redrawn page. */
  function describe(el) {
    const cards = handCards();
    const i = cards.indexOf(el);
    if (i >= 0) {
      const code = el.dataset.code;
      return { card: code, nth: cards.slice(0, i).filter((c) => c.dataset.code === code).length, index: i };
    }
    if (el.id) return { selector: `#${CSS.escape(el.id)}` };
    const data = Object.entries(el.dataset).map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`);
    const classes = data.length ? [] : [...el.classList].map((c) => `.${CSS.escape(c)}`);
    return { selector: `${el.tagName.toLowerCase()}${classes.join("")}${data.join("")}` };
  }

  function find(where) {
    if (where.card === undefined) return page.querySelector(where.selector);
    const cards = handCards();
    const same = cards.filter((c) => c.dataset.code === where.card);
    return same[where.nth] ?? same[0] ?? cards[Math.min(where.index, cards.length - 1)] ?? null;
  }

  const usable = (el) =>
    el && el.isConnected && !el.disabled && !el.closest("[hidden]") && el.getClientRects().length > 0 ? el : null;

  /** After a redraw: what had the focus has it again (or, gone, the hand's card in the Tab order). */
  function restore() {
    if (!remembered) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !(/** @type {HTMLButtonElement} */ (active).disabled)) return;
    const el = usable(find(remembered)) ?? usable(handCards()[roving]);
    el?.focus({ preventScroll: true });
  }

  function focusCard(j) {
    const cards = handCards();
    if (!usable(cards[j])) return false;
    roving = j;
    dressHand();
    cards[j].focus();
    return true;
  }

  /** The card of the next row up or down (a phone's hand in rows) nearest the card `i`; by layout
   * position, which a selected card's lift does not change. */
  function rowNeighbour(cards, i, dir) {
    const tops = [...new Set(cards.map((c) => c.offsetTop))].sort((a, b) => a - b);
    const row = tops.indexOf(cards[i].offsetTop) + dir;
    if (row < 0 || row >= tops.length) return i;
    let best = i;
    let distance = Infinity;
    cards.forEach((c, k) => {
      const d = Math.abs(c.offsetLeft - cards[i].offsetLeft);
      if (c.offsetTop === tops[row] && d < distance) [best, distance] = [k, d];
    });
    return best;
  }

  function move(card, key) {
    const cards = handCards();
    const i = cards.indexOf(card);
    const j = {
      ArrowLeft: i - 1,
      ArrowRight: i + 1,
      Home: 0,
      End: cards.length - 1,
      ArrowUp: () => rowNeighbour(cards, i, -1),
      ArrowDown: () => rowNeighbour(cards, i, 1),
    }[key];
    const target = typeof j === "function" ? j() : j;
    if (target >= 0 && target < cards.length && target !== i) focusCard(target);
  }

  /** Why a key did nothing: the line that says why the buttons are disabled, or the reason line. */
  function explain(id) {
    const why = $("#why", mySlot);
    const reason = $("#reason", mySlot);
    const text = [why, reason].map((el) => (el && !el.hidden ? el.textContent.trim() : "")).find(Boolean);
    say(text || button(id)?.title || "");
  }

  /** A click on the button `id`, as the mouse would; or, disabled, why. */
  function press(id) {
    const b = usable(button(id));
    if (b) b.click();
    else explain(id);
  }

  /** Whether the worker's verdict on the selection is in and allows it: the checked command holds
   * exactly the selected cards (a verdict on the selection before the last Space does not). */
  function checked() {
    const s = state();
    const chosen = [...s.selected].map((i) => s.hand[i]).sort();
    const cards = [...(s.check?.command?.cards ?? [])].sort();
    return s.check?.ok === true && chosen.length === cards.length && chosen.every((c, i) => c === cards[i]);
  }

  /** Enter: play the selection through 出牌. Right after Space the worker may still be checking
   * the selection: wait for its verdict (a short while) before playing, or saying why not. */
  function playSelection() {
    const play = button("play");
    const started = performance.now();
    const tick = () => {
      const waited = performance.now() - started >= CHECK_WAIT_MS;
      if (usable(play) && (checked() || waited)) play.click();
      else if (!waited && hand.querySelector(".card.selected")) requestAnimationFrame(tick);
      else explain("play");
    };
    tick();
  }

  function onKey(e) {
    if (!page.isConnected) return detach();
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target instanceof Element ? e.target : document.body;
    if (target.closest(TYPING)) return;
    const onBody = target === document.body || target === document.documentElement;
    if (!onBody && !page.contains(target)) return; // the top bar's switches keep their keys
    const card = target.closest(".card[data-index]");
    const inHand = !!card && hand.contains(card);
    if (MOVES.has(e.key)) {
      if (inHand) move(card, e.key);
      else if (!onBody || !focusCard(roving)) return;
      e.preventDefault();
    } else if (e.key === "Enter") {
      if (!inHand && !onBody) return; // a focused button does its own thing
      e.preventDefault();
      e.stopPropagation(); // the hand's own handler would toggle the card
      playSelection();
    } else if (e.key === "p" || e.key === "P") {
      e.preventDefault();
      press("pass");
    } else if (e.key === "Escape") {
      if (hand.querySelector(".card.selected")) press("clear");
    } else if (e.key === "h" || e.key === "H") {
      e.preventDefault();
      press("hint");
    }
  }

  function onFocus(e) {
    if (!page.isConnected) return detach();
    if (!page.contains(e.target)) {
      remembered = null;
      return;
    }
    remembered = describe(e.target);
    if (remembered.card !== undefined && roving !== remembered.index) {
      roving = remembered.index;
      dressHand();
    }
  }

  function onPointer(e) {
    const el = e.target instanceof Element ? e.target.closest(FOCUSABLE) : null;
    if (!el || !page.contains(el)) remembered = null; // a click elsewhere: the focus goes with it
  }

  // --- the live region ---------------------------------------------------------------------------
  function played(c, view, seat, cards) {
    const lead = view.lead;
    const same = lead && lead.seat === seat && lead.kind && lead.cards?.length === cards.length;
    const params = { name: seatName(c, seat), cards: cards.map(cardText).join(" ") };
    return same ? t("a11yPlayedKind", { ...params, kind: kindName(c.words ?? {}, lead.kind) }) : t("a11yPlayedCards", params);
  }

  /** Tell the live region what the other seats did since the last view told, and whether it is
   * now my turn. */
  function tell() {
    const s = state();
    const view = s.view;
    if (!view || view === heard) return;
    const before = heard;
    heard = view;
    const c = ctx();
    // a page opened, or a hand whose first view drawn came after its first plays (a frame is
    // skipped when a newer one arrives during its engine work): what is on the table is told
    const fresh = !before || before.hand_no !== view.hand_no;
    const told = new Set();
    (view.actions ?? []).forEach((action, seat) => {
      if (seat === s.seat || !Array.isArray(action)) return;
      const was = before?.actions?.[seat];
      const fell = (before?.counts?.[seat] ?? 0) - (view.counts?.[seat] ?? 0);
      if (action.length && (fresh || fell > 0)) say(played(c, view, seat, action));
      else if (!action.length && (fresh || !(Array.isArray(was) && was.length === 0))) say(t("a11yPassed", { name: seatName(c, seat) }));
      else return;
      told.add(seat);
    });
    if (!fresh) {
      // the seat that was to move passed when its turn went on and it kept its cards: a pass that
      // ended the round (the table is cleared by the same event, so no [] shows it), or a second
      // pass in the round (its [] on the table did not change)
      const mover = seatToMove(before);
      const kept = mover !== null && (before.counts?.[mover] ?? 0) === (view.counts?.[mover] ?? 0);
      const passed = (before.lead && !view.lead) || (Array.isArray(view.actions?.[mover]) && view.actions[mover].length === 0);
      const moved = seatToMove(view) !== mover;
      if (mover !== s.seat && kept && moved && !told.has(mover) && before.phase === view.phase && passed) {
        say(t("a11yPassed", { name: seatName(c, mover) }));
      }
    }
    const mine = s.settled && s.seat !== null && seatToMove(view) === s.seat;
    if (mine && !wasMine) say(t("a11yYourTurn"));
    wasMine = mine;
  }

  // --- wiring --------------------------------------------------------------------------------------
  const stopLang = onLang(renderHelp);
  document.addEventListener("keydown", onKey, true);
  document.addEventListener("focusin", onFocus);
  document.addEventListener("pointerdown", onPointer, true);
  renderHelp();

  function detach() {
    stopLang();
    document.removeEventListener("keydown", onKey, true);
    document.removeEventListener("focusin", onFocus);
    document.removeEventListener("pointerdown", onPointer, true);
    unsay();
  }

  return {
    /** The table has drawn a state: the hand dressed, the focus given back, the news told. */
    redrawn() {
      if (!page.isConnected) return;
      dressHand();
      restore();
      tell();
    },
    /** The table page is left. */
    detach,
  };
}
