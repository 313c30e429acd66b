// My hand at a live table: its cards (patched, so that a card that stays keeps its place and its
// focus), the selection painted on them, the input that selects (a click toggles a card; pressing
// on a card and dragging across others gives them all the state the first card took, across a
// phone's rows too; Space or Enter on a focused card), and its layout in rows.
//
// On a narrow screen the hand is laid out in rows (css: a grid of strips and a last whole card):
// as few rows as let every card show a strip of at least MIN_STRIP px. A hand that takes more than
// one row (three on a phone) at the page's card size is stacked: rows drawn each over the one
// above it, so that only its cards' corners (rank and suit) show. On a phone, one or two rows of
// whole cards stay whole while the lines under the controls end on the screen, and are stacked
// when they would not (a board with more on it, a shorter screen): that is measured when `fit` is
// asked (a frame drawn, the screen resized), never as cards are selected, so the hand does not
// change under the player's finger.

import { cardEl } from "./cards.js";
import { $$, h, patch } from "./dom.js";

const MIN_STRIP = 36; // px of each card of the hand that shows on a phone (a tap needs 32)
const SECOND_LINE = 24; // px: room for the line under the controls to take a second line

/** @typedef {{hand: string[], selected: number[]}} HandModel */

/**
 * My hand. `select(indices)`: a stroke of the pointer ended with these cards selected;
 * `toggle(index)`: a card toggled from the keyboard; `lines()`: the lines under the controls,
 * whose bottom must stay on the screen for whole rows of cards.
 * @param {{select: (indices: number[]) => void, toggle: (index: number) => void, lines: () => HTMLElement[]}} input
 */
export function createHand({ select, toggle, lines }) {
  const el = h("div.hand#hand", { role: "group", "aria-label": "hand" });
  /** @type {HandModel} */
  let shown = { hand: [], selected: [] };
  let laidOut = -1; // the size of hand last measured again after it was drawn

  /** @param {Set<number>} selected */
  function paint(selected) {
    for (const card of $$(".card[data-index]", el)) {
      const on = selected.has(Number(card.dataset.index));
      card.classList.toggle("selected", on);
      card.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  /** The cards and the selection; the cards are drawn again only when the hand changed.
   * @param {HandModel} model */
  function render(model) {
    if (model.hand !== shown.hand) {
      el.style.setProperty("--n", String(Math.max(model.hand.length, 1)));
      patch(
        el,
        model.hand.map((code, i) => {
          const card = cardEl(code, "in-hand");
          card.dataset.index = String(i);
          card.tabIndex = 0;
          card.setAttribute("role", "button");
          return card;
        }),
      );
    }
    if (model.hand !== shown.hand || model.selected !== shown.selected) paint(new Set(model.selected));
    shown = model;
  }

  // --- input ---------------------------------------------------------------------------------------
  let drag = null;
  /** @param {number} x @param {number} y */
  const indexAt = (x, y) => {
    const card = /** @type {HTMLElement | null} */ (document.elementFromPoint(x, y)?.closest?.(".card[data-index]"));
    return card && el.contains(card) ? Number(card.dataset.index) : null;
  };
  /** @param {number} i */
  function dragTo(i) {
    const chosen = new Set(drag.base);
    const [lo, hi] = drag.start <= i ? [drag.start, i] : [i, drag.start];
    for (let k = lo; k <= hi; k++) {
      if (drag.mode) chosen.add(k);
      else chosen.delete(k);
    }
    drag.chosen = chosen;
    paint(chosen);
  }
  el.addEventListener("pointerdown", (e) => {
    const i = indexAt(e.clientX, e.clientY);
    if (i === null || e.button > 0) return;
    e.preventDefault();
    const base = new Set(shown.selected);
    drag = { start: i, mode: !base.has(i), base, last: i, chosen: base };
    dragTo(i);
    el.setPointerCapture?.(e.pointerId);
  });
  el.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const i = indexAt(e.clientX, e.clientY);
    if (i === null || i === drag.last) return;
    drag.last = i;
    dragTo(i);
  });
  const end = () => {
    if (!drag) return;
    const chosen = drag.chosen;
    drag = null;
    select([...chosen]);
  };
  el.addEventListener("pointerup", end);
  el.addEventListener("pointercancel", end);
  el.addEventListener("keydown", (e) => {
    const card = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest?.(".card[data-index]"));
    if (!card || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    toggle(Number(card.dataset.index));
  });

  // --- layout --------------------------------------------------------------------------------------
  const width = () => {
    const style = getComputedStyle(el);
    return el.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
  };
  /** @param {HTMLElement} of */
  const cardWidth = (of) => parseFloat(getComputedStyle(of).getPropertyValue("--card-w")) || 60;

  /** The hand's rows and whether it is stacked; `fit`: measure whether whole rows fit the screen.
   * @param {boolean} [fit] */
  function layout(fit = false) {
    const n = shown.hand.length;
    /** @param {number} cardW @param {number} w */
    const rowsFor = (cardW, w) => Math.max(1, Math.ceil(n / Math.max(1, Math.floor((w - cardW) / MIN_STRIP) + 1)));
    const pageW = cardWidth(el.parentElement ?? el); // decided at the page's card size, not the stacked one
    const phone = window.matchMedia?.("(max-width: 640px)").matches;
    /** @param {string} stack */
    const apply = (stack) => {
      if (el.dataset.stack !== stack) el.dataset.stack = stack;
      const rows = rowsFor(cardWidth(el), width());
      const strips = String(Math.max(1, Math.ceil(Math.max(n, 1) / rows) - 1));
      // written only when changed: a write makes the next read lay the page out again
      if (el.style.getPropertyValue("--strips") !== strips) el.style.setProperty("--strips", strips);
      if (el.dataset.rows !== String(rows)) el.dataset.rows = String(rows);
    };
    const pageRows = rowsFor(pageW, width());
    const either = phone && pageRows <= 2; // whole rows or stacked, as they fit
    if (!either) apply(pageRows >= (phone ? 3 : 2) ? "1" : "");
    else if (!fit) apply(el.dataset.stack ?? "");
    else {
      apply(""); // laid out whole, then measured
      if (!wholeRowsFit()) apply("1");
    }
  }

  /** The last line under the controls ends on the screen with the page at its top, with room
   * left for that line to take a second line (a refusal is longer than the help it replaces). */
  function wholeRowsFit() {
    const shownLines = lines().filter((line) => !line.hidden);
    const bottom = Math.max(...shownLines.map((line) => line.getBoundingClientRect().bottom)) + window.scrollY;
    return bottom + SECOND_LINE <= window.innerHeight;
  }

  /** With everything else drawn: do whole rows of cards still fit? A hand of another size is
   * measured again once the browser has drawn it (the board is patched in place, and a size read
   * while it settled stayed: CI, 16 cards in "one row"). */
  function fitted() {
    layout(true);
    if (shown.hand.length !== laidOut) {
      laidOut = shown.hand.length;
      requestAnimationFrame(() => layout(true));
    }
  }

  const resized = new ResizeObserver(() => layout(true));
  resized.observe(el);
  const screenResized = () => layout(true);
  window.addEventListener("resize", screenResized);

  return {
    el,
    render,
    layout,
    fitted,
    /** Drawn again at the next render (the language changed: the cards' names with it). */
    forget: () => (shown = { hand: [], selected: [] }),
    drop() {
      resized.disconnect();
      window.removeEventListener("resize", screenResized);
    },
  };
}
