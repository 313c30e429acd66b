// The lobby's live tables: each with its game, whether it is open or playing, its seats, and the
// links to sit (back at your own seat, or at an empty one) and to watch.

import * as api from "./api.js";
import { botChip, tableGameName } from "./catalog.js";
import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { toast } from "./ui.js";

/** The list of the live tables `tables` (named from the catalogue `games`), or that there is none. */
export function liveTables(tables, games) {
  if (tables.length === 0) return h("p.muted", null, t("noLiveTables"));
  return tables.map((tbl) => {
    const mine = api.seatToken(tbl.id);
    const open = tbl.seats.some((s) => s.kind === "empty");
    return h(
      "div.table-row",
      { dataset: { table: tbl.id, status: tbl.status } },
      h(
        "div.row-main",
        null,
        h("strong", null, tableGameName(games, tbl)),
        h("span.badge", { dataset: { status: tbl.status } }, tbl.status === "open" ? t("statusOpen") : t("statusPlaying")),
        seatChips(tbl, games),
      ),
      h(
        "div.row-actions",
        null,
        mine ? h("a.button.primary", { href: `#/table/${tbl.id}` }, t("sit")) : null,
        !mine && open ? h("button.button", { type: "button", on: { click: () => sitAt(tbl) } }, t("sit")) : null,
        h("a.button.ghost.watch-link", { href: `#/watch/${tbl.id}` }, t("watch")),
      ),
    );
  });
}

function seatChips(tbl, games) {
  return h(
    "ul.seat-chips",
    null,
    tbl.seats.map((s, i) =>
      h(
        `li.${s.kind}`,
        null,
        s.kind === "empty" ? t("emptySeat") : s.kind === "bot" ? botChip(games, tbl, { ...s, seat: s.seat ?? i }) : (s.name ?? "?"),
        s.left ? h("span.badge.left", null, t("seatLeftBadge")) : null,
      ),
    ),
  );
}

async function sitAt(tbl) {
  try {
    const joined = await api.joinSeat(tbl.id, api.playerName(), null, api.newSeed());
    api.saveSeatToken(tbl.id, joined.seat, joined.token);
    location.hash = `#/table/${tbl.id}`;
  } catch (err) {
    toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
  }
}
