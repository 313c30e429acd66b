// The table's talk on the page: the 快捷语 menu (the words a seated player may say, from the
// catalogue: talk.js) with each person's choice of whose talk not to see or hear, and what a word
// just said looks like on its seat (board-seat.js draws the bubble from the page's ctx().talk).
// `TableTalk` holds one table page's part of it, so that the page itself only feeds it its views.

import { speak } from "./audio.js";
import { clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { freshTalk, isEmote, mutedSeats, setMutedSeat, talkWords } from "./talk.js";
import { say } from "./ui.js";
import { pick } from "./words.js";

export const BUBBLE_MS = 6000; // a word stays on its seat this long: long enough to read twice

/** The 快捷语 menu, a <details> (a keyboard and a screen reader know how to open it): the words,
 * when `canSay` (a seated player whose socket is open), and a switch per other seat to hide its
 * talk. `onSay(word)`, `onMute(seat, hidden)`. */
export function talkMenu({ words, seats, canSay, muted, name, onSay, onMute }) {
  const sayable = canSay
    ? h(
        "div.talk-words",
        { role: "group", "aria-label": t("talk") },
        talkWords(words).map(([word, said]) =>
          h(
            `button.button.small.talk-word${isEmote(said) ? ".emote" : ""}`,
            { type: "button", dataset: { word }, on: { click: () => onSay(word) } },
            pick(said.button),
          ),
        ),
      )
    : null;
  const hiding = seats.length
    ? h(
        "fieldset.talk-mutes",
        null,
        h("legend", null, t("talkHide")),
        seats.map((seat) =>
          h(
            "label.talk-mute",
            null,
            h("input", {
              type: "checkbox",
              checked: muted.has(seat),
              dataset: { seat },
              on: { change: (e) => onMute(seat, e.target.checked) },
            }),
            ` ${name(seat)}`,
          ),
        ),
      )
    : null;
  // the panel is hidden while the menu is closed (a closed <details> may still lay its content out)
  const panel = h("div.talk-panel", { hidden: true }, sayable, hiding);
  const menu = h("details.talk-menu#talk", null, h("summary", null, t("talk")), panel);
  menu.addEventListener("toggle", () => {
    panel.hidden = !menu.open;
  });
  return menu;
}

/** What the board shows of a word said at a seat: its text (an emote's symbol), and whether it is
 * an emote (drawn large). */
export function bubbleOf(words, word) {
  const said = words?.commands?.talk?.[word];
  return said ? { text: pick(said.badge), emote: isEmote(said), spoken: isEmote(said) ? "" : pick(said.badge) } : null;
}

/** One table page's talk: the words on show at the seats, the seats this person hides (kept per
 * table), and the menu in `host` (the top bar's #page-tools). `page` gives what it needs of the
 * table page: `words()` (the game's), `name(seat)`, `send(word)` (with a command id of its own,
 * never the pending move's: a word neither waits for nor holds up a play) and `redraw()` (the
 * board drawn again, when a bubble goes or a seat is hidden). */
export class TableTalk {
  constructor(host, tableId, page) {
    this.host = host;
    this.tableId = tableId;
    this.page = page;
    this.shown = new Map(); // seat → {word, until}
    this.hidden = mutedSeats(localStorage, tableId);
    this.drawn = ""; // what the menu was last drawn for
    this.dropped = false;
    // a click outside the open menu, or Escape, closes it (as a menu does)
    this.close = (event) => {
      const menu = this.host.querySelector("details");
      if (!menu?.open) return;
      if (event.type === "keydown" ? event.key === "Escape" : !menu.contains(event.target)) menu.open = false;
    };
    document.addEventListener("click", this.close);
    document.addEventListener("keydown", this.close);
  }

  /** The words said since the `previous` view, on their seats for BUBBLE_MS (and heard, and told
   * to a screen reader), unless this person hides that seat's talk. */
  hear(previous, view) {
    const now = Date.now();
    for (const [seat, word] of freshTalk(previous, view)) {
      const bubble = bubbleOf(this.page.words(), word);
      if (!bubble || this.hidden.has(seat)) continue;
      this.shown.set(seat, { word, until: now + BUBBLE_MS });
      say(t("talkSaid", { name: this.page.name(seat), text: bubble.text }));
      speak(bubble.spoken, getLang());
      setTimeout(() => {
        if (!this.dropped && (this.shown.get(seat)?.until ?? Infinity) <= Date.now()) {
          this.shown.delete(seat);
          this.page.redraw();
        }
      }, BUBBLE_MS + 50);
    }
  }

  /** The words on show, seat → {text, emote}, for the board. */
  bubbles() {
    const out = {};
    for (const [seat, { word }] of this.shown) out[seat] = bubbleOf(this.page.words(), word);
    return out;
  }

  /** The menu: its words when `canSay`, a switch per seat of `others`; drawn again only when what
   * it offers changes (an open menu stays open). */
  render({ canSay, others }) {
    const drawn = JSON.stringify([canSay, others.map(this.page.name), [...this.hidden], getLang()]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const open = !!this.host.querySelector("details")?.open;
    const menu = talkMenu({
      words: this.page.words(),
      seats: others,
      canSay,
      muted: this.hidden,
      name: this.page.name,
      onSay: (word) => {
        menu.open = false;
        this.page.send(word);
      },
      onMute: (seat, hidden) => {
        this.hidden = setMutedSeat(localStorage, this.tableId, seat, hidden);
        if (hidden) this.shown.delete(seat);
        this.page.redraw();
      },
    });
    menu.open = open;
    clear(this.host, menu);
  }

  /** The table page is left: no menu, no listener, no bubble to take down. */
  drop() {
    this.dropped = true;
    document.removeEventListener("click", this.close);
    document.removeEventListener("keydown", this.close);
    this.host.replaceChildren();
  }
}
