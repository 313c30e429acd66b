// What happened at the table, heard and seen: the sounds (a play, a big play, a pass, my turn, the
// end of a hand), the calls spoken (talk.js `callsOf`), and the play on top of the trick moving
// from its seat to the centre (unless motion is reduced).

import { sound, speak } from "./audio.js";
import { getLang, t } from "./i18n.js";
import { callsOf } from "./talk.js";
import { kindName } from "./words.js";

/** The play on top of the trick moves from `seat` to the centre of the board in `host`.
 * @param {HTMLElement} host @param {number} seat */
function flyToCentre(host, seat) {
  const lead = /** @type {HTMLElement | null} */ (host.querySelector(".center-lead"));
  const from = host.querySelector(`.seat[data-seat="${seat}"]`);
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

/** The sounds, the calls spoken and the motion of the news between `previous` and `view`
 * (table-news.js), drawn on the board in `host`; `mine`: it is now my turn, `wasMine`: it was.
 * @param {{news: import("./table-news.js").News, previous: any, view: any, wasMine: boolean, mine: boolean, words: any, host: HTMLElement}} what */
export function announce({ news, previous, view, wasMine, mine, words, host }) {
  if (news.plays.length) {
    sound(news.big ? "bomb" : "play");
    flyToCentre(host, view?.lead?.seat);
  } else if (news.passes.length) {
    sound("pass");
  }
  if (news.ended) sound("end");
  else if (mine && !wasMine) sound("turn");
  for (const call of callsOf(previous, view, news)) {
    speak(call.kind ? kindName(words, call.kind) : t({ beat: "callBeat", pass: "pass", one: "announceOne" }[call.call]), getLang());
  }
}
