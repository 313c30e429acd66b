// The turn clocks on the page: a countdown to a deadline, and the tick that keeps every clock
// (counting up, or down to a deadline) saying the time.

import { t } from "./i18n.js";
import { h } from "./dom.js";
import { clock } from "./ui.js";

/** A countdown to a deadline (epoch ms): the seconds left, marked `data-warn` in the last 5. */
export function countdown(deadline, key = "clockLeft") {
  const el = h("span.turn-clock.countdown", { dataset: { deadline: String(deadline), key } });
  tickCountdown(el);
  return el;
}

function tickCountdown(el) {
  const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
  setText(el, t(el.dataset.key || "clockLeft", { s: clock(left) }));
  const warn = left <= 5 ? "1" : "";
  if (el.dataset.warn !== warn) el.dataset.warn = warn;
}

/** A tick that does not change what a clock says changes nothing on the page (no layout). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Ticks every turn clock on the page (counting up, or down to a deadline) a few times a second. */
export function startClocks() {
  return setInterval(() => {
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".turn-clock[data-since]"))) {
      const since = Number(el.dataset.since);
      setText(el, t("thinking", { s: clock((Date.now() - since) / 1000) }));
    }
    for (const el of document.querySelectorAll(".turn-clock[data-deadline]")) tickCountdown(el);
  }, 250);
}
