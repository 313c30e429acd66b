// The table's talk on the page: the 快捷语 menu (the words a seated player may say, from the
// catalogue: talk.js) with each person's choice of whose talk not to see or hear, and what a word
// just said looks like on its seat (board.js draws the bubble from the page's ctx().talk).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { isEmote, talkWords } from "./talk.js";
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
