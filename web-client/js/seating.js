// A table's seats as the page shows them: where each sits around the table, what each is called
// (a bot in the page's language, you as you), and each seat's last play across tricks.

import { getLang, t } from "./i18n.js";
import { valueName } from "./words.js";

/** Where each seat sits, seen from `bottom`: seats are numbered in the order of play, and play
 * goes counterclockwise, so the next seat (下家) sits on the right. */
export function positions(players, bottom) {
  const layout = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
    6: ["bottom", "right", "top-right", "top", "top-left", "left"],
  }[players] ?? Array.from({ length: players }, (_, i) => (i ? `top` : "bottom"));
  const out = [];
  for (let seat = 0; seat < players; seat++) out[seat] = layout[(seat - bottom + players) % players];
  return out;
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  // a bot is named in the page's language (the server names it in both)
  const name = ctx.kinds?.[seat] === "bot" ? t("botName", { n: seat + 1 }) : ctx.names?.[seat] || t("seatN", { n: seat + 1 });
  if (seat !== ctx.me) return name;
  return getLang() === "zh" ? `${name}（${t("you")}）` : `${name} (${t("you")})`;
}

/** A seat's name with, for a bot, its level: "机器人 2 · 高手" (the level the log recorded, in
 * the view's `bots`, else the one its directory entry names; its name from the game's words). */
export function seatLabel(ctx, seat) {
  const level = ctx.kinds?.[seat] === "bot" ? (ctx.view?.bots?.[seat] ?? ctx.levels?.[seat]) : null;
  const name = seatName(ctx, seat);
  return level ? `${name} · ${valueName(ctx.words ?? {}, "level", level)}` : name;
}

/** Remembers each seat's last play across tricks (the view only holds the current trick). */
export class PlayMemory {
  constructor() {
    this.handNo = null;
    this.last = [];
  }

  update(view) {
    if (view.hand_no !== this.handNo) {
      this.handNo = view.hand_no;
      this.last = [];
    }
    (view.actions ?? []).forEach((action, seat) => {
      if (action !== null && action !== undefined) this.last[seat] = action;
    });
  }
}
